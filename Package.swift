// swift-tools-version:6.0
// TouchTracker for Wayland: a multi-touch drawing app and a UIKit-style event layer for Linux.
//
// Input flows one way: compositor -> Wayland (generated bindings) -> WaylandHost (platform glue)
// -> TouchKit (input adapter, responder chain) -> TouchTrackerKit (the app's views). The views draw
// through TouchKit's GraphicsContext, which Graphics implements with Cairo, into WaylandHost's
// buffers. Imports point towards TouchKit, which imports none of our modules: Graphics imports
// TouchKit; TouchTrackerKit imports Graphics and TouchKit; WaylandHost imports Wayland, TouchKit and
// Graphics; no module imports one that imports it (docs/architecture.md).
import PackageDescription

/// This package's folder, for linker flags that name a path in it.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

/// Release builds of the modules on the hot paths leave out the run-time checks of exclusive
/// access; debug builds, which every test and the sanitized runs use, keep them.
let releaseWithoutExclusivityChecks: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "TouchTracker",
    products: [
        .executable(name: "touchtracker", targets: ["touchtracker"]),
        .executable(name: "touchtracker-session", targets: ["touchtracker-session"]),
        .library(name: "TouchKit", targets: ["TouchKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
    ],
    targets: [
        // C libraries from Debian, one module each.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client",
                       providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CWaylandCursor", pkgConfig: "wayland-cursor",
                       providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev"])]),
        // Linux calls Swift's Glibc module does not expose (memfd seals, signalfd, timerfd), and the
        // monotonic clock every module that times something reads.
        .target(name: "CShims"),

        // Protocol bindings: XML in protocols/ -> Swift, generated at build time.
        .target(name: "WaylandScannerCore"),
        .executableTarget(name: "wayland-swift-scanner", dependencies: ["WaylandScannerCore"]),
        .plugin(name: "WaylandBindingsPlugin", capability: .buildTool(),
                dependencies: ["wayland-swift-scanner"], path: "Sources/WaylandBindingsPlugin"),
        .target(name: "Wayland", dependencies: ["CWaylandClient", "CShims", "Limits"],
                plugins: ["WaylandBindingsPlugin"]),

        // The one way files from outside are opened: no links where the app writes, no blocking on
        // a pipe, only regular files.
        .target(name: "SafeFiles"),
        // The limits on everything that comes from outside (docs/security.md): no imports.
        .target(name: "Limits"),
        // The UIKit-style event model: no Wayland, no Cairo. Without exclusivity checks in release:
        // views' properties are read thousands of times a frame, and the checks were a fifth of a
        // short line's instructions (docs/performance.md).
        .target(name: "TouchKit", swiftSettings: releaseWithoutExclusivityChecks),
        // Cairo in Swift types, implementing TouchKit's drawing context. Without exclusivity checks
        // in release: a pile's bookkeeping is asked once a line, and the checks were a twelfth of a
        // 4K rebuild's instructions (docs/performance.md).
        .target(name: "Graphics", dependencies: ["CCairo", "CShims", "TouchKit", "Limits", "SafeFiles"],
                swiftSettings: releaseWithoutExclusivityChecks),
        // Platform glue: window, buffers, seat -> TouchKit.
        .target(name: "WaylandHost", dependencies: [
            "Wayland", "TouchKit", "Graphics", "CXKBCommon", "CWaylandCursor", "CShims", "InputReplay", "Limits", "SafeFiles",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The app's own logic: lines, the canvas view. Without exclusivity checks in release: the
        // line cache's build reads its slices' and bands' state per line, and the checks were a
        // twenty-fourth of a 4K rebuild's instructions (docs/performance.md).
        .target(name: "TouchTrackerKit", dependencies: [
            "TouchKit", "Graphics", "CShims", "Limits", "SafeFiles", .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: releaseWithoutExclusivityChecks),
        // The app's options, commands and help; our own parser, as swift-argument-parser would bring
        // Foundation into the app.
        .target(name: "AppCommandLine"),
        // The desktop's Save dialog through xdg-desktop-portal, over D-Bus with libdbus, which
        // CDBus opens with dlopen at the first use (libdbus-1-3, no headers needed to build).
        .target(name: "CDBus", exclude: ["functions.h"]),
        // D-Bus values written and read through libdbus's iterators, for the portals and AT-SPI.
        .target(name: "DBusMessages", dependencies: ["CDBus"]),
        .target(name: "DesktopPortal", dependencies: ["CDBus", "DBusMessages"]),
        // TouchKit's accessibility published on the desktop's accessibility bus (AT-SPI over D-Bus).
        .target(name: "AccessibilityBridge", dependencies: ["CDBus", "DBusMessages", "TouchKit"]),
        // Recording and replaying input: the recording format, device traces, the replay.
        .target(name: "InputReplay", dependencies: ["TouchKit", "Limits"]),
        .executableTarget(name: "touchtracker", dependencies: [
            "WaylandHost", "TouchTrackerKit", "Graphics", "CShims", "AppCommandLine", "InputReplay", "DesktopPortal", "SafeFiles", "Limits",
            "AccessibilityBridge", .product(name: "Logging", package: "swift-log"),
        ], exclude: ["link"], linkerSettings: [
            // Release builds link the Swift runtime in: only what the app uses is loaded and
            // relocated, where the shared libraries would be mapped whole. Nothing in the app imports
            // Foundation, so none of it is linked. The static runtime's link flags export every
            // symbol of the binary for dlsym, which nothing here uses: --no-export-dynamic keeps the
            // dynamic symbol table to what the libraries need, so there is less to map and relocate.
            // Sources/touchtracker/link holds a linker script that makes the runtime's -lstdc++ the
            // static library, so only the C++ runtime pieces Swift uses are linked in.
            .unsafeFlags(["-static-stdlib", "-Xlinker", "--no-export-dynamic", "-L\(packageDirectory)/Sources/touchtracker/link"],
                         .when(configuration: .release)),
        ]),

        // Private headless compositors (Weston with our plugin, Sway, GNOME Shell) driven from
        // Swift, with screenshots and child processes: the tests, the demo and the benchmark.
        .target(name: "CompositorHarness", dependencies: ["CCairo"]),
        // Sway's input for the tests and the benchmark: a wlroots virtual pointer.
        .target(name: "SwayHarness", dependencies: ["CompositorHarness", "Wayland", "CShims"]),
        // Headless KWin 5.27 for the end-to-end tests: touch through KDE's fake-input protocol on
        // bindings generated from its own protocols/ (test-only: the app never speaks it).
        .target(name: "KWinHarness", dependencies: ["CompositorHarness", "Wayland", "CWaylandClient"],
                exclude: ["protocols"], plugins: ["WaylandBindingsPlugin"]),
        .executableTarget(name: "touchtracker-session", dependencies: [
            "CompositorHarness", "TouchTrackerKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // A second Wayland client for the clipboard's end-to-end tests: reads or takes the selection.
        .executableTarget(name: "tt-clipboard-probe", dependencies: ["Wayland", "CShims"]),
        // Latency, CPU and memory under headless Weston, against weston-simple-touch, and under
        // KWin and GNOME Shell.
        // An executable, so `swift test` builds it but never runs it: swift run -c release touchtracker-bench
        .executableTarget(name: "touchtracker-bench", dependencies: [
            "CompositorHarness", "KWinHarness", "TouchTrackerKit", "TouchKit", "Graphics", "CShims", "InputReplay",
            "WaylandHost", "SwayHarness",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),

        // Coverage-guided fuzzing of every parser of outside data (docs/fuzzing.md): the entry
        // points, and the program that is libFuzzer on one of them when built with
        // -sanitize=fuzzer (scripts/fuzz), else replays files through it. CLibFuzzer declares
        // libFuzzer's driver, which only the fuzz build links.
        .target(name: "FuzzTargets", dependencies: ["TouchKit", "Graphics", "TouchTrackerKit", "InputReplay", "WaylandHost"]),
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "touchtracker-fuzz", dependencies: ["FuzzTargets", "CLibFuzzer"]),

        .testTarget(name: "WaylandScannerTests", dependencies: ["WaylandScannerCore"]),
        .testTarget(name: "TouchKitTests", dependencies: [
            "TouchKit", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "WaylandHostTests", dependencies: ["WaylandHost", "Wayland", "Graphics", "Limits", "CXKBCommon", "CShims"]),
        .testTarget(name: "InputReplayTests", dependencies: [
            "InputReplay", "TouchTrackerKit", "Graphics", "Limits", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "AppCommandLineTests", dependencies: ["AppCommandLine"]),
        // Every seed of Tests/FuzzCorpus through its fuzz target, in the normal build.
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "DesktopPortalTests", dependencies: ["DesktopPortal", "DBusMessages", "CDBus"]),
        .testTarget(name: "TouchTrackerKitTests", dependencies: [
            "TouchTrackerKit", "Graphics", "CShims",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "CompositorHarness", "KWinHarness", "SwayHarness", "Wayland", "touchtracker", "touchtracker-session", "touchtracker-bench",
            "tt-clipboard-probe",
            // The translation tests draw the window they expect to see, with the app's own views.
            "TouchKit", "Graphics", "TouchTrackerKit", "WaylandHost",
        ]),
    ]
)
