// A private headless KWin 5.27 (KDE Plasma's compositor, Debian's kwin-wayland): its own session
// bus and a virtual output; touch injected through KDE's fake-input protocol on our generated
// bindings (`FakeInput`), screenshots from KWin's ScreenShot2 D-Bus API and window geometry from a
// KWin script, both through Tests/KWinHelpers/kwin-harness.py. `stop()` ends everything it
// started, including the services its session bus starts on demand.
//
// What it takes to run KWin here (docs/testing.md, "KWin"):
// - /usr/bin/kwin_wayland carries file capabilities, which a container refuses: the session runs a
//   plain copy, which must still be named kwin_wayland (KWin's own Qt platform plugin loads only
//   into an executable of that name).
// - KWIN_WAYLAND_NO_PERMISSION_CHECKS shows restricted globals (fake input) to every client;
//   KWIN_SCREENSHOT_NO_PERMISSION_CHECKS lets any caller take screenshots.
// - KWin adds a touch device when the fake-input client authenticates and removes it when that
//   client disconnects, so the session holds one injecting client from start to stop.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CompositorHarness

/// A window as KWin's scripting reports it, in global logical coordinates: `x`, `y`, `width` and
/// `height` are the client's surface (KWin's bufferGeometry), `frame` adds KWin's decoration.
public struct KWinWindow: Decodable, SessionWindow, Sendable {
    /// The frame: the client's surface and KWin's decoration around it, if any.
    public struct Frame: Decodable, Equatable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    public var appID: String
    public var title: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var frame: Frame
    public var pid: Int32
    public var fullscreen: Bool
    public var active: Bool

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", title, x, y, width, height, frame, pid, fullscreen, active
    }

    /// KWin 5.27's scripting lists toplevels only.
    public var isMappedToplevel: Bool { width > 0 }
}

/// One private headless KWin session, meant to be shared by the tests of a serialized suite: each
/// test launches its clients and `reset()` leaves the session as it found it. Not thread-safe.
public final class KWinSession: @unchecked Sendable, CompositorSession, InputInjecting {
    public struct Options: Sendable {
        /// The virtual output in logical pixels.
        public var width = 1280
        public var height = 960
        /// The output's scale (`--scale`): 1, or fractional such as 1.5; the screen then has
        /// width*scale x height*scale pixels.
        public var scale = 1.0
        /// Whether KWin decorates windows: with Breeze, as Plasma does, or (false) with no
        /// decoration plugin at all, when KWin answers xdg-decoration with client-side mode.
        public var decorations = true
        public init(width: Int = 1280, height: Int = 960, scale: Double = 1, decorations: Bool = true) {
            self.width = width
            self.height = height
            self.scale = scale
            self.decorations = decorations
        }
    }

    nonisolated(unsafe) private static var counter = 0

    public let options: Options
    public let runtimeDirectory: String
    public let home: String
    /// The Wayland socket's name in the runtime directory.
    public let socketName: String
    public var socketPath: String { runtimeDirectory + "/" + socketName }
    /// The session bus, KWin and the helper, in start order, and the clients.
    public let processes: SessionProcesses
    private var control: ControlClient?
    private var input: FakeInput?
    private var screenshotCount = 0
    public var keepFiles = false

    /// Where the helper script lives.
    public static var helpers: String { HarnessPaths.packageRoot + "/Tests/KWinHelpers" }
    /// Debian's KWin, copied into the session before it runs.
    public static let installedKWin = "/usr/bin/kwin_wayland"

    /// Starts KWin and waits until it takes input and answers on D-Bus, at most `timeout`
    /// seconds. Any failure stops what was started and throws with the logs.
    public init(_ options: Options = Options(), timeout: Double = 60) throws {
        self.options = options
        KWinSession.counter += 1
        socketName = "tt-kwin-\(getpid())-\(KWinSession.counter)"
        runtimeDirectory = try HarnessPaths.privateFolder("kwin")
        home = runtimeDirectory + "/home"
        processes = SessionProcesses(directory: runtimeDirectory)
        do {
            try start(deadline: Date().addingTimeInterval(timeout))
        } catch {
            let diagnostics = self.diagnostics
            stop()
            throw HarnessError("KWin did not start: \(error)\n\(diagnostics)")
        }
    }

    deinit { stop() }

    // MARK: Start-up

    private var baseEnvironment: [String: String] {
        HarnessPaths.sessionEnvironment(runtimeDirectory: runtimeDirectory, home: home,
                                        alsoRemoving: ["QT_QPA_PLATFORM", "QT_SCALE_FACTOR"])
    }

    private func service(_ name: String, _ executable: String, _ arguments: [String],
                         environment extra: [String: String] = [:]) throws -> ChildProcess {
        try processes.startService(name, executable, arguments, environment: baseEnvironment.merging(extra) { $1 })
    }

    /// Plasma's look: Breeze decorations (Debian's kwin-style-breeze), or none at all.
    private var kwinrc: String {
        let decoration = options.decorations
            ? "library=org.kde.breeze\ntheme=Breeze\n"
            : "NoPlugin=true\n"
        return "[org.kde.kdecoration2]\n" + decoration
    }

    private var kwin: ChildProcess? { processes.services.first { $0.name == "kwin_wayland" } }
    /// KWin's process id (nil once stopped), for what it costs the machine.
    public var compositorPID: Int32? { kwin.flatMap { $0.isRunning ? $0.pid : nil } }

    private func start(deadline: Date) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.installedKWin) else {
            throw HarnessError("\(Self.installedKWin) is not installed (scripts/setup installs kwin-wayland)")
        }
        guard let dbus = WestonSession.which("dbus-daemon") else {
            throw HarnessError("dbus-daemon is not installed (scripts/setup installs it)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw HarnessError("/usr/bin/python3 is not installed (scripts/setup installs python3-gi)")
        }
        for folder in [home + "/.config", home + "/.local/share", home + "/.cache"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try kwinrc.write(toFile: home + "/.config/kwinrc", atomically: true, encoding: .utf8)
        // A plain copy (no file capabilities), still named kwin_wayland.
        let bin = runtimeDirectory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let executable = bin + "/kwin_wayland"
        guard let contents = FileManager.default.contents(atPath: Self.installedKWin),
              FileManager.default.createFile(atPath: executable, contents: contents, attributes: [.posixPermissions: 0o755])
        else { throw HarnessError("cannot copy \(Self.installedKWin) to \(executable)") }

        // The services the bus starts on demand (xdg-desktop-portal and its KDE backend, whose Save
        // dialog is a window of this session) get the session's display and desktop, as a Plasma
        // login hands them over.
        let bus = try service("dbus-session", dbus, [
            "--config-file=/usr/share/dbus-1/session.conf", "--address=unix:path=\(runtimeDirectory)/bus",
            "--nofork", "--print-address=1",
        ], environment: HarnessPaths.desktop("KDE", socket: socketName).merging(["QT_QPA_PLATFORM": "wayland"]) { $1 })
        try wait(for: "the session bus to listen", deadline: deadline, process: bus) { !bus.standardOutput.isEmpty }

        var arguments = ["--virtual", "--width", "\(options.width)", "--height", "\(options.height)",
                         "--socket", socketName, "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"]
        if options.scale != 1 { arguments += ["--scale", "\(options.scale)"] }
        let kwin = try service("kwin_wayland", executable, arguments, environment: [
            "QT_QPA_PLATFORM": "offscreen",
            "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1",
            "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1",
        ])
        try wait(for: "KWin's Wayland socket", deadline: deadline, process: kwin) {
            FileManager.default.fileExists(atPath: socketPath)
        }

        let socket = runtimeDirectory + "/kwin-harness.sock"
        _ = try service("kwin-harness", "/usr/bin/python3", [KWinSession.helpers + "/kwin-harness.py", socket])
        let control = try ControlClient(path: socket, timeout: max(1, deadline.timeIntervalSinceNow))
        self.control = control
        try wait(for: "org.kde.KWin on the session bus", deadline: deadline, process: kwin) {
            (try? control.send("has-name org.kde.KWin")) == "true"
        }
        // Screenshots work once the compositor has painted: the first one answers when it has.
        try wait(for: "a first screenshot", deadline: deadline, process: kwin) {
            (try? screenshot(to: nil)) != nil
        }
        input = try FakeInput(socketPath: socketPath)
    }

    // MARK: Clients

    /// The environment a Wayland client of this session needs (its session bus included).
    public var clientEnvironment: [String: String] {
        var environment = baseEnvironment.merging(HarnessPaths.desktop("KDE", socket: socketName)) { $1 }
        environment.removeValue(forKey: "NO_AT_BRIDGE")
        return environment
    }

    // MARK: Windows

    private func helper() throws -> ControlClient {
        guard let control, !processes.isStopped else { throw HarnessError("the KWin session is stopped") }
        return control
    }

    /// Every window KWin manages (toplevels; KWin 5.27's scripting lists no popups).
    public func windows() throws -> [KWinWindow] {
        let json = try helper().send("windows")
        do {
            return try JSONDecoder().decode([KWinWindow].self, from: Data(json.utf8))
        } catch {
            throw HarnessError("bad windows reply \(json): \(error)")
        }
    }

    // MARK: Screenshots

    /// The whole output at its native resolution (width*scale x height*scale pixels), saved as a
    /// PNG in the runtime directory (or at `path`).
    public func screenshot(to path: String? = nil) throws -> Screenshot {
        screenshotCount += 1
        let file = path ?? runtimeDirectory + "/shot-\(screenshotCount).png"
        let raw = runtimeDirectory + "/shot.raw"
        let words = try helper().send("screenshot \(raw)").split(separator: " ")
        guard words.count >= 3, let width = Int(words[0]), let height = Int(words[1]), let stride = Int(words[2]) else {
            throw HarnessError("bad screenshot reply \(words)")
        }
        guard let data = FileManager.default.contents(atPath: raw) else { throw HarnessError("no screenshot at \(raw)") }
        return try Screenshot(width: width, height: height, stride: stride, argb32: [UInt8](data), savingPNGTo: file)
    }


    // MARK: Input (global logical coordinates)

    private func injector() throws -> FakeInput {
        guard let input, !processes.isStopped else { throw HarnessError("the KWin session is stopped") }
        return input
    }

    /// A touch lands (and its frame ends).
    public func touchDown(_ id: Int, x: Double, y: Double) throws { try injector().touchDown(id, x: x, y: y) }
    public func touchMotion(_ id: Int, x: Double, y: Double) throws { try injector().touchMotion(id, x: x, y: y) }
    public func touchUp(_ id: Int) throws { try injector().touchUp(id) }
    /// Touch events each in a frame of its own, with one round trip for all of them.
    public func touchFrames(_ events: [FakeTouch]) throws { try injector().touchFrames(events) }
    /// KWin cancels every touch: clients get `wl_touch.cancel`.
    public func touchCancel() throws { try injector().touchCancel() }
    /// Lifts every touch still down, and the pointer's buttons and keys still pressed.
    public func releaseAll() throws { try injector().releaseAll() }

    /// The pointer moves to a global point.
    public func pointerMotion(x: Double, y: Double) throws { try injector().pointerMotion(x: x, y: y) }
    /// A pointer button (evdev code, BTN_LEFT by default) goes down or up.
    public func pointerButton(_ code: Int = 272, down: Bool) throws { try injector().button(code, down: down) }
    /// A key (evdev code) goes down or up.
    public func key(_ code: Int, down: Bool) throws { try injector().key(code, down: down) }

    /// Changes the output's scale while everything runs, as Plasma's display settings do; returns
    /// once KWin has applied it (screenshots are then at the new scale).
    public func setScale(_ scale: Double) throws {
        guard !processes.isStopped else { throw HarnessError("the KWin session is stopped") }
        try OutputScale.set(scale, socketPath: socketPath)
    }

    // MARK: Between tests, teardown

    /// Leaves the session as a test found it: touches lifted, clients ended, no windows left, and
    /// no app data in the session's HOME (the app reopens its last drawing from there).
    public func reset(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        try releaseAll()
        processes.stopClients()
        try wait(for: "the windows to close", deadline: deadline, process: kwin) { try windows().isEmpty }
        let data = home + "/.local/share"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? [] {
            try FileManager.default.removeItem(atPath: data + "/" + name)
        }
    }

    /// Ends the injecting client, every client, KWin, the helper and the bus, and whatever they
    /// started. Safe to call twice.
    public func stop() {
        processes.stop {
            input = nil
            if let control { _ = try? control.send("quit", timeout: 3) }
        }
    }

    /// The tail of each service's and client's output, for failure messages.
    public var diagnostics: String { processes.diagnostics("--- KWin session in \(runtimeDirectory) ---") }
}
