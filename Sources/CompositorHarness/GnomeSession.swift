// A private headless GNOME Shell 43 (mutter 43, software rendering): its own D-Bus buses,
// PipeWire and WirePlumber, a virtual monitor; touch, pointer and keys injected through mutter's
// RemoteDesktop D-Bus API, screenshots from org.gnome.Shell.Screenshot, window geometry from
// org.gnome.Shell.Eval. Everything it starts is ended by `stop()`, including the services its
// session bus starts on demand.
//
// Two helpers from Tests/GnomeHelpers do the GNOME-specific parts:
// - gnome-harness.py (Debian's python3-gi) holds the remote-desktop session. Mutter ties a session
//   to the D-Bus connection that created it (only that connection may send input, and the session
//   ends when it disconnects), so a long-lived process must own it. It serves a UNIX socket with
//   the same line protocol as our Weston plugin, so `ControlClient` talks to both.
// - the tt-harness@touchtracker.org shell extension turns on gnome-shell's unsafe mode: GNOME 43
//   answers Eval (and Screenshot from callers outside its allow list) only then, and has no
//   command-line flag for it. Eval is how the tests find windows: mutter has no tool like swaymsg.
//
// Settings come from a GSettings keyfile in the session's private HOME (no dconf): the extension
// enabled, animations and notification banners off. gnome-shell starts in the Overview; the
// session leaves it before the first test.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A window as gnome-shell reports it (global coordinates, the frame rectangle: for a client that
/// decorates itself, its whole surface including the title bar it draws).
public struct GnomeWindow: Decodable, SessionWindow, Sendable {
    public var appID: String
    public var title: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// A menu, popup or tooltip rather than a toplevel or dialog.
    public var popup: Bool
    public var pid: Int32
    public var maximized: Bool
    public var minimized: Bool
    public var focused: Bool

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", title, x, y, width, height, popup, pid, maximized, minimized, focused
    }

    public var isMappedToplevel: Bool { !popup && width > 0 }

    /// The window in the shape the Weston harness reports windows.
    public var info: WindowInfo {
        WindowInfo(appID: appID, title: title, x: x, y: y, width: width, height: height, popup: popup, pid: pid)
    }
}

/// One private headless GNOME Shell session. Meant to be shared by the tests of a serialized
/// suite (starting one takes seconds): each test launches its clients, and `reset()` leaves the
/// session as it found it. Not thread-safe: one test at a time.
public final class GnomeSession: @unchecked Sendable, CompositorSession, InputInjecting {
    public struct Options: Sendable {
        /// The virtual monitor. Mutter maximizes a new window that covers most of the work area,
        /// so the app's default 1024x768 window stays a normal one only on a larger monitor.
        public var width = 1280
        public var height = 960
        public init(width: Int = 1280, height: Int = 960) {
            self.width = width
            self.height = height
        }
    }

    nonisolated(unsafe) private static var counter = 0

    public let options: Options
    public let runtimeDirectory: String
    public let home: String
    /// The Wayland socket's name in the runtime directory.
    public let socketName: String
    /// The D-Bus daemons, PipeWire, WirePlumber, gnome-shell and the input helper, in start order,
    /// and the clients.
    public let processes: SessionProcesses
    private var control: ControlClient?
    private var screenshotCount = 0
    public var keepFiles = false
    /// The keys a test changed (`setSetting`), put back by `reset()`.
    var changedSettings: Set<[String]> = []

    /// Where the helper script and the shell extension live.
    public static var helpers: String { HarnessPaths.packageRoot + "/Tests/GnomeHelpers" }
    static let extensionUUID = "tt-harness@touchtracker.org"

    /// Starts the session and waits until gnome-shell takes input and answers Eval, at most
    /// `timeout` seconds. Any failure stops what was started and throws with the logs.
    public init(_ options: Options = Options(), timeout: Double = 90) throws {
        self.options = options
        GnomeSession.counter += 1
        socketName = "tt-gnome-\(getpid())-\(GnomeSession.counter)"
        runtimeDirectory = try HarnessPaths.privateFolder("gnome")
        home = runtimeDirectory + "/home"
        processes = SessionProcesses(directory: runtimeDirectory)
        do {
            try start(deadline: Date().addingTimeInterval(timeout))
        } catch {
            let diagnostics = self.diagnostics
            stop()
            throw HarnessError("GNOME Shell did not start: \(error)\n\(diagnostics)")
        }
    }

    deinit { stop() }

    // MARK: Start-up

    var baseEnvironment: [String: String] {
        var environment = HarnessPaths.sessionEnvironment(runtimeDirectory: runtimeDirectory, home: home)
        environment["GSETTINGS_BACKEND"] = "keyfile"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(runtimeDirectory)/system_bus_socket"
        return environment
    }

    private func which(_ name: String) throws -> String {
        guard let path = WestonSession.which(name) else {
            throw HarnessError("\(name) is not installed (scripts/setup installs GNOME Shell and its helpers)")
        }
        return path
    }

    private func service(_ name: String, _ executable: String, _ arguments: [String],
                         environment: [String: String]? = nil) throws -> ChildProcess {
        try processes.startService(name, executable, arguments, environment: environment ?? baseEnvironment)
    }

    private func start(deadline: Date) throws {
        for tool in ["dbus-daemon", "pipewire", "wireplumber", "gnome-shell"] { _ = try which(tool) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw HarnessError("/usr/bin/python3 is not installed (scripts/setup installs python3-gi)")
        }
        try writeHome()

        // A system bus of our own: gnome-shell 43 fails in JavaScript without one (loginManager).
        // It offers no services; the session bus is the stock one.
        let systemConfig = runtimeDirectory + "/system-bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(runtimeDirectory)/system_bus_socket</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(toFile: systemConfig, atomically: true, encoding: .utf8)
        let dbus = try which("dbus-daemon")
        let systemBus = try service("dbus-system", dbus, ["--config-file=\(systemConfig)", "--nofork", "--print-address=1"])
        // The services the session bus starts on demand (xdg-desktop-portal and its GTK backend,
        // whose Save dialog is a window of this session) get the session's display and desktop,
        // as gnome-session hands them over in a real login.
        let sessionBus = try service("dbus-session", dbus, [
            "--config-file=/usr/share/dbus-1/session.conf", "--address=unix:path=\(runtimeDirectory)/bus",
            "--nofork", "--print-address=1",
        ], environment: baseEnvironment.merging(HarnessPaths.desktop("GNOME", socket: socketName)) { $1 })
        for bus in [systemBus, sessionBus] {
            try wait(for: "\(bus.name) to listen", deadline: deadline, process: bus) { !bus.standardOutput.isEmpty }
        }

        let pipewire = try service("pipewire", try which("pipewire"), [])
        try wait(for: "PipeWire's socket", deadline: deadline, process: pipewire) {
            FileManager.default.fileExists(atPath: runtimeDirectory + "/pipewire-0")
        }
        _ = try service("wireplumber", try which("wireplumber"), [])

        let shell = try service("gnome-shell", try which("gnome-shell"), [
            "--headless", "--wayland", "--no-x11", "--virtual-monitor", "\(options.width)x\(options.height)",
            "--wayland-display=\(socketName)",
        ])

        let socket = runtimeDirectory + "/gnome-harness.sock"
        _ = try service("gnome-harness", "/usr/bin/python3", [GnomeSession.helpers + "/gnome-harness.py", socket])
        let control = try ControlClient(path: socket, timeout: max(1, deadline.timeIntervalSinceNow))
        self.control = control

        // Mutter's remote desktop is up once gnome-shell owns its bus name ...
        try wait(for: "org.gnome.Mutter.RemoteDesktop on the session bus", deadline: deadline, process: shell) {
            // A busy machine can make a single call time out: only the overall deadline counts.
            (try? control.send("has-name org.gnome.Mutter.RemoteDesktop")) == "true"
        }
        // ... the shell's JavaScript has started once Eval works (our extension is enabled) ...
        // The last answer goes into the error: a shell still starting up and an extension that
        // never turned unsafe mode on look the same from here.
        var lastAnswer = "no answer yet"
        do {
            try wait(for: "gnome-shell to finish starting (Eval in unsafe mode)", deadline: deadline, process: shell) {
                do {
                    lastAnswer = try control.send("eval Main.layoutManager._startingUp")
                } catch {
                    lastAnswer = "\(error)"
                }
                return lastAnswer == "false"
            }
        } catch {
            throw HarnessError("\(error); Main.layoutManager._startingUp last gave: \(lastAnswer)")
        }
        // ... and it starts in the Overview: leave it.
        try leaveOverview(deadline: deadline)
        try control.send("start", timeout: max(1, deadline.timeIntervalSinceNow))
        // The virtual touchscreen and pointer are created on first use, and the first touch is
        // lost: a throw-away tap on the empty desktop, before any window exists.
        let centre = (x: Double(options.width) / 2, y: Double(options.height) / 2)
        try pointerMotion(x: centre.x, y: centre.y)
        try touchDown(0, x: centre.x, y: centre.y)
        try touchUp(0)
        try leaveOverview(deadline: deadline)
    }

    /// The private HOME: GSettings keyfile and the shell extension.
    private func writeHome() throws {
        let files = FileManager.default
        let settings = home + "/.config/glib-2.0/settings"
        let extensions = home + "/.local/share/gnome-shell/extensions"
        try files.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try files.createDirectory(atPath: extensions, withIntermediateDirectories: true)
        try """
            [org/gnome/shell]
            enabled-extensions=['\(GnomeSession.extensionUUID)']
            welcome-dialog-last-shown-version='999'

            [org/gnome/desktop/interface]
            enable-animations=false

            [org/gnome/desktop/notifications]
            show-banners=false

            [org/gnome/desktop/session]
            idle-delay=uint32 0

            [org/gnome/desktop/screensaver]
            lock-enabled=false

            """.write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)
        let source = GnomeSession.helpers + "/" + GnomeSession.extensionUUID
        guard files.fileExists(atPath: source + "/extension.js") else {
            throw HarnessError("no shell extension at \(source)")
        }
        try files.copyItem(atPath: source, toPath: extensions + "/" + GnomeSession.extensionUUID)
    }

    private func leaveOverview(deadline: Date) throws {
        try wait(for: "the Overview to close", deadline: deadline, process: nil) {
            if try eval("Main.overview.visible || Main.overview.animationInProgress") == "false" { return true }
            _ = try eval("Main.overview.hide()")
            return false
        }
    }

    // MARK: Clients

    /// The environment a Wayland client of this session needs (GNOME's session bus included).
    public var clientEnvironment: [String: String] {
        var environment = baseEnvironment.merging(HarnessPaths.desktop("GNOME", socket: socketName)) { $1 }
        environment.removeValue(forKey: "GSETTINGS_BACKEND")
        environment.removeValue(forKey: "NO_AT_BRIDGE")
        return environment
    }

    // MARK: Shell

    private func helper() throws -> ControlClient {
        guard let control, !processes.isStopped else { throw HarnessError("the GNOME session is stopped") }
        return control
    }

    /// Runs JavaScript in gnome-shell (org.gnome.Shell.Eval) and returns its result as JSON.
    @discardableResult
    public func eval(_ javascript: String) throws -> String {
        try helper().send("eval " + javascript.replacingOccurrences(of: "\n", with: " "))
    }

    /// Turns off GNOME Shell's three-finger touchscreen swipes (up and down: the Overview; left and
    /// right: workspaces) for the rest of the session, and returns how many it found (two in
    /// GNOME Shell 43). The shell watches every touch on the screen and takes three fingers moving
    /// together for itself, whatever window they are on, cancelling them in the client: ten
    /// fingers that land and lift at different times let it now and then, and the Overview then
    /// has every later touch. Only for sessions that measure a client's figures under many
    /// fingers; the suite's tests leave the shell as users have it.
    @discardableResult
    public func disableShellTouchSwipes() throws -> Int {
        let found = try eval("""
            (() => { let n = 0;
              for (const action of global.stage.get_actions()) {
                if (action instanceof imports.gi.Clutter.GestureAction && action.get_n_touch_points() >= 3) {
                  action.enabled = false; n += 1; } }
              return n; })()
            """)
        guard let count = Int(found.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("gnome-shell did not say how many touch swipes it has: \(found)")
        }
        return count
    }

    /// Every window gnome-shell has (toplevels, dialogs, popups), in stacking order, bottom first.
    /// A popup (an xdg_popup: a menu) reports its parent's app id.
    public func windows() throws -> [GnomeWindow] {
        let json = try eval("""
            global.get_window_actors().map(a => a.meta_window).map(w => {
              const r = w.get_frame_rect(), type = w.get_window_type(), T = imports.gi.Meta.WindowType;
              const parent = w.get_transient_for();
              return { app_id: w.get_wm_class() ?? parent?.get_wm_class() ?? '', title: w.get_title() ?? '', x: r.x, y: r.y,
                width: r.width, height: r.height, popup: type !== T.NORMAL && type !== T.DIALOG
                  && type !== T.MODAL_DIALOG, pid: w.get_pid(),
                maximized: w.get_maximized() === imports.gi.Meta.MaximizeFlags.BOTH,
                minimized: w.minimized, focused: w.has_focus() };
            })
            """)
        do {
            return try JSONDecoder().decode([GnomeWindow].self, from: Data(json.utf8))
        } catch {
            throw HarnessError("bad windows reply \(json): \(error)")
        }
    }

    /// ``CompositorSession/waitForWindow(appID:timeout:process:where:)`` for a popup of `appID`
    /// (with `popup`) or its toplevel.
    public func waitForWindow(appID: String, popup: Bool, timeout: Double = 15, process: ChildProcess? = nil,
                              where condition: (GnomeWindow) -> Bool = { _ in true }) throws -> GnomeWindow {
        try waitForWindow("\(popup ? "popup" : "window") with app id \(appID)", timeout: timeout, process: process) {
            $0.appID == appID && $0.popup == popup && $0.width > 0 && condition($0)
        }
    }

    // MARK: Screenshots

    /// A screenshot of the whole stage, saved in the runtime directory (or at `path`).
    public func screenshot(to path: String? = nil) throws -> Screenshot {
        screenshotCount += 1
        let file = path ?? runtimeDirectory + "/shot-\(screenshotCount).png"
        try helper().send("screenshot \(file)")
        return try Screenshot(contentsOf: file)
    }

    /// How long ``ScreenCapturing/waitForScreen(timeout:_:_:)`` waits by default.

    // MARK: Input (global coordinates, logical pixels)

    public func touchDown(_ slot: Int, x: Double, y: Double) throws { try helper().send("touch down \(slot) \(x) \(y)") }
    public func touchMotion(_ slot: Int, x: Double, y: Double) throws { try helper().send("touch motion \(slot) \(x) \(y)") }
    public func touchUp(_ slot: Int) throws { try helper().send("touch up \(slot)") }
    public func pointerMotion(x: Double, y: Double) throws { try helper().send("pointer motion \(x) \(y)") }
    /// A pointer button by evdev code (272 = left).
    public func pointerButton(_ code: Int = 272, down: Bool) throws {
        try helper().send("pointer button \(code) \(down ? "down" : "up")")
    }
    /// A key by evdev code (29 = left Ctrl, 16 = Q), as the Weston harness takes them.
    public func key(_ code: Int, down: Bool) throws { try helper().send("key \(code) \(down ? "down" : "up")") }
    /// A key by X keysym (0xff1b = Escape).
    public func keysym(_ keysym: Int, down: Bool) throws { try helper().send("keysym \(keysym) \(down ? "down" : "up")") }
    /// Lifts every touch, button and key still held.
    public func releaseAll() throws { try helper().send("release") }

    // MARK: Between tests, teardown

    /// Leaves the session as a test found it: input released, clients ended, no windows left,
    /// no Overview, the pointer in the middle of the screen. Throws if it cannot.
    public func reset(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        // Input first: mutter 43 has crashed when a client vanished while a touch was down.
        try releaseAll()
        processes.stopClients()
        var left: [GnomeWindow] = []
        try wait(for: "the windows to close", deadline: deadline, process: processes.services.last { $0.name == "gnome-shell" }) {
            left = try windows()
            return left.isEmpty
        }
        try leaveOverview(deadline: deadline)
        try resetSettings()
        try pointerMotion(x: Double(options.width) / 2, y: Double(options.height) / 2)
        // The next test's app starts as a new user's would: no drawing, no preferences left behind.
        for folder in [home + "/.local/share/touchtracker", home + "/.config/touchtracker"] {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Stops the helper (which ends the remote-desktop session), every client, gnome-shell before
    /// the buses and PipeWire it uses, and whatever they started. Safe to call twice.
    public func stop() {
        processes.stop { if let control { _ = try? control.send("quit", timeout: 3) } }
    }

    /// The tail of each service's and client's output, for failure messages.
    public var diagnostics: String { processes.diagnostics("--- GNOME session in \(runtimeDirectory) ---") }
}
