// Where the harness finds its parts: the plugin built by meson and our executables.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where the harness finds its parts: the plugin built by meson and our executables.
public enum HarnessPaths {
    /// The package root, found from this source file's place in the tree.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `TT_WESTON_PLUGIN`, else `.build/meson-helpers/tt-weston-harness.so`, built with meson if missing.
    public static func plugin() throws -> String {
        if let path = ProcessInfo.processInfo.environment["TT_WESTON_PLUGIN"] {
            guard FileManager.default.fileExists(atPath: path) else {
                throw HarnessError("TT_WESTON_PLUGIN=\(path) does not exist")
            }
            return path
        }
        let build = packageRoot + "/.build/meson-helpers"
        let path = build + "/tt-weston-harness.so"
        if !FileManager.default.fileExists(atPath: build + "/build.ninja") {
            try run(["meson", "setup", build, packageRoot + "/meson-helpers"])
        }
        // ninja is cheap when nothing changed, and keeps the plugin in step with its source.
        try run(["ninja", "-C", build])
        guard FileManager.default.fileExists(atPath: path) else {
            throw HarnessError("meson built no plugin at \(path)")
        }
        return path
    }

    /// One of this package's executables: beside the running binary (tests and `swift run` put
    /// products in one folder), else in `.build/debug`.
    public static func executable(_ name: String) throws -> String {
        let env = "TT_BIN_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        if let path = ProcessInfo.processInfo.environment[env] { return path }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [me.deletingLastPathComponent().appendingPathComponent(name).path]
        // Inside an .xctest bundle folder, the products sit one level up.
        candidates.append(me.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name).path)
        candidates.append(packageRoot + "/.build/debug/" + name)
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw HarnessError("cannot find the \(name) executable (looked in \(candidates)); build it with swift build")
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        do { try process.run() } catch {
            throw HarnessError("cannot run \(arguments.joined(separator: " ")): \(error)")
        }
        let output = log.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("\(arguments.joined(separator: " ")) failed:\n" + String(decoding: output, as: UTF8.self))
        }
    }

    /// A new folder of our own under the temporary folder (`tt-NAME-XXXXXX`, mode 0700, as
    /// XDG_RUNTIME_DIR must be): a session's sockets, logs and screenshots.
    public static func privateFolder(_ name: String) throws -> String {
        var bytes = Array((NSTemporaryDirectory() + "tt-\(name)-XXXXXX").utf8CString)
        guard mkdtemp(&bytes) != nil else { throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        let path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o700)
        return path
    }

    /// This process's environment with the app's language pinned to English (C.UTF-8, no
    /// LANGUAGE, no catalogue folder of the caller's), so that tests read the words they expect
    /// whatever the developer's own language; tests of other languages set theirs on top. The
    /// cursor theme is Adwaita's unless the caller names one.
    public static var environmentInEnglish: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "TOUCHTRACKER_LOCALEDIR"] {
            environment.removeValue(forKey: name)
        }
        environment["LANG"] = "C.UTF-8"
        // The pointer looks the same on every machine: the system's default cursor theme depends
        // on what else is installed (Plasma's integration makes it Breeze's).
        environment["XCURSOR_THEME"] = environment["XCURSOR_THEME"] ?? "Adwaita"
        return environment
    }

    /// What a client of a compositor with no session bus of its own (Weston, Sway, phoc) needs: its
    /// runtime folder and socket, no X11 display, and private data and preferences, so the app's
    /// drawing and settings are never the user's nor another test's (two apps on one drawing
    /// would meet its lock).
    public static func clientEnvironment(runtimeDirectory: String, socket: String) -> [String: String] {
        var environment = environmentInEnglish
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["WAYLAND_DISPLAY"] = socket
        environment.removeValue(forKey: "DISPLAY")
        environment["XDG_DATA_HOME"] = runtimeDirectory + "/data"
        environment["XDG_CONFIG_HOME"] = runtimeDirectory + "/config"
        environment["XDG_STATE_HOME"] = runtimeDirectory + "/state"
        return environment
    }

    /// This process's environment made private to a desktop session in `runtimeDirectory`: no
    /// display, bus or desktop of the caller's, its own home and XDG folders, its session bus in
    /// the runtime folder, no accessibility bus (one service fewer to start and end).
    public static func sessionEnvironment(runtimeDirectory: String, home: String,
                                          alsoRemoving extra: [String] = []) -> [String: String] {
        var environment = environmentInEnglish
        for name in ["WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS",
                     "PYTHONPATH", "PYTHONHOME", "SWAYSOCK", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE"] + extra {
            environment.removeValue(forKey: name)
        }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["XDG_STATE_HOME"] = home + "/.local/state"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(runtimeDirectory)/bus"
        environment["NO_AT_BRIDGE"] = "1"
        return environment
    }
}
