// What every private headless compositor the tests, the benchmark and the demo run clients in
// (Weston with our plugin, Sway, GNOME Shell, KWin) does the same way: one shape,
// `CompositorSession`, and the parts that are alike written once here. Each session starts its
// compositor, lists windows, injects input and takes screenshots by its own compositor's means.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A window as a session lists it.
public protocol SessionWindow: Equatable {
    var appID: String { get }
    /// A toplevel (not a popup), mapped with a non-zero size.
    var isMappedToplevel: Bool { get }
}

/// A private headless compositor in a runtime folder of its own: its initializer starts it and
/// waits until it takes clients; clients are launched in it (`launch`), their windows listed and
/// waited for (`waitForWindow`), screenshots taken (``ScreenCapturing``), and `stop()` ends
/// everything it started.
public protocol CompositorSession: ScreenCapturing {
    associatedtype Window: SessionWindow
    /// The session's XDG_RUNTIME_DIR: its sockets, logs and screenshots.
    var runtimeDirectory: String { get }
    /// The environment a Wayland client of this session needs.
    var clientEnvironment: [String: String] { get }
    /// The compositor, the services it needs and the clients launched in it.
    var processes: SessionProcesses { get }
    /// Every window the compositor lists.
    func windows() throws -> [Window]
    /// Ends every client, the compositor and its services, and whatever they started. Safe to
    /// call twice.
    func stop()
    /// Set by a caller that wants the files kept for a person to look at (a test failed).
    var keepFiles: Bool { get }
    /// The tail of the compositor's and each process's output, for failure messages.
    var diagnostics: String { get }
}

/// A session that injects input itself (Weston through our plugin, GNOME Shell through mutter's
/// remote desktop, KWin through KDE's fake input), in global logical coordinates. Sway's input
/// comes from a client of its own instead (SwayHarness' virtual pointer).
public protocol InputInjecting {
    func touchDown(_ id: Int, x: Double, y: Double) throws
    func touchMotion(_ id: Int, x: Double, y: Double) throws
    func touchUp(_ id: Int) throws
    func pointerMotion(x: Double, y: Double) throws
    /// A pointer button by evdev code (272 = left) goes down or up.
    func pointerButton(_ code: Int, down: Bool) throws
    /// A key by evdev code (29 = left Ctrl, 16 = Q) goes down or up.
    func key(_ code: Int, down: Bool) throws
}

extension CompositorSession {
    /// The clients launched so far, which `stop()` ends.
    public var clients: [ChildProcess] { processes.clients }

    /// Starts a client of this compositor with the session's environment (`environment` on top);
    /// `stop()` ends it.
    @discardableResult
    public func launch(_ executable: String, _ arguments: [String] = [], name: String? = nil,
                       environment extra: [String: String] = [:]) throws -> ChildProcess {
        try processes.launch(executable, arguments, name: name, environment: clientEnvironment.merging(extra) { $1 })
    }

    /// Waits until a toplevel with `appID` is mapped with a non-zero size, `condition` holds, and
    /// it reads the same twice in a row (compositors place and size a new window over a few
    /// configure round trips).
    public func waitForWindow(appID: String, timeout: Double = 15, process: ChildProcess? = nil,
                              where condition: (Window) -> Bool = { _ in true }) throws -> Window {
        try waitForWindow("window with app id \(appID)", timeout: timeout, process: process) {
            $0.appID == appID && $0.isMappedToplevel && condition($0)
        }
    }

    /// Waits until the first window `matching` reads the same twice in a row; throws, naming
    /// `what`, if `process` exits first or `timeout` seconds pass.
    public func waitForWindow(_ what: String, timeout: Double, process: ChildProcess?,
                              matching: (Window) -> Bool) throws -> Window {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [Window] = []
        var candidate: Window?
        while Date() < deadline {
            last = try windows()
            let window = last.first(where: matching)
            if let window, window == candidate { return window }
            candidate = window
            if let process, !process.isRunning {
                throw HarnessError("\(process.name) exited (\(process.waitForExit(timeout: 0) ?? -1)) before mapping a window:\n\(process.standardError)")
            }
            usleep(50_000)
        }
        throw HarnessError("no \(what) as expected after \(timeout) s; windows: \(last)"
                           + (process.map { "\n" + $0.standardError } ?? ""))
    }

    /// Polls `ready` every 20 ms until it is true; throws if `process` exits or the deadline passes.
    package func wait(for what: String, deadline: Date, process: ChildProcess?, _ ready: () throws -> Bool) throws {
        while true {
            if try ready() { return }
            if let process, !process.isRunning {
                throw HarnessError("\(process.name) exited (\(process.waitForExit(timeout: 0) ?? -1)) while waiting for \(what)")
            }
            if Date() > deadline { throw HarnessError("timed out waiting for \(what)") }
            usleep(20_000)
        }
    }

    /// Removes the runtime directory (screenshots and logs) unless `keepFiles` is set.
    public func removeFiles() {
        guard !keepFiles else { return }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }
}

/// The processes of one session: the compositor and the services it needs, in start order, and the
/// clients launched in it, numbered in launch order (their log files are named after them).
public final class SessionProcesses {
    /// Where they run and write their output.
    public let directory: String
    public private(set) var services: [ChildProcess] = []
    public private(set) var clients: [ChildProcess] = []
    /// Whether ``stop(quitting:)`` has run.
    public private(set) var isStopped = false
    /// What was still running once everything was stopped, and had to be killed.
    public private(set) var killedAtStop: [ProcessIdentity] = []
    private var launches = 0

    package init(directory: String) {
        self.directory = directory
    }

    /// Starts a service of the session through ``CleanExec``.
    package func startService(_ name: String, _ executable: String, _ arguments: [String],
                              environment: [String: String]) throws -> ChildProcess {
        let command = CleanExec.command(executable, arguments)
        let child = try ChildProcess(name: name, executable: command.executable, arguments: command.arguments,
                                     environment: environment, directory: directory)
        services.append(child)
        return child
    }

    /// Takes in a service the session started itself.
    package func add(service: ChildProcess) { services.append(service) }

    /// Starts a client (``ChildProcess/client(_:_:name:number:environment:directory:)``).
    package func launch(_ executable: String, _ arguments: [String], name: String?,
                        environment: [String: String]) throws -> ChildProcess {
        launches += 1
        let child = try ChildProcess.client(executable, arguments, name: name, number: launches,
                                            environment: environment, directory: directory)
        clients.append(child)
        return child
    }

    /// Stops the clients and forgets them (between tests; their log files stay).
    package func stopClients() {
        for client in clients { client.stop() }
        clients.removeAll()
    }

    /// Ends everything once: `quit` first (a compositor or helper asked to end on its own), then
    /// every client, the services in reverse start order, and last whatever any of them started,
    /// found while the process tree was whole (services a bus started on demand).
    package func stop(quitting quit: () -> Void) {
        guard !isStopped else { return }
        isStopped = true
        let roots = (clients + services).map(\.pid)
        let everything = roots.compactMap { ProcessIdentity(pid: $0) } + ProcessTree.descendants(of: roots)
        quit()
        for client in clients { client.stop() }
        for service in services.reversed() { service.stop() }
        killedAtStop = ProcessTree.end(everything)
    }

    /// `heading`, then the last `lines` lines of each process's standard error and output (those
    /// not empty), and what had to be killed at stop.
    package func diagnostics(_ heading: String, lines: Int = 25) -> String {
        var text = heading
        for process in services + clients {
            for (kind, path) in [("stderr", process.stderrPath), ("stdout", process.stdoutPath)]
            where (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map({ $0 > 0 }) ?? false {
                text += "\n--- \(process.name) \(kind) ---\n" + WestonSession.tail(path, lines: lines)
            }
        }
        if !killedAtStop.isEmpty { text += "\n--- had to be killed at stop: \(killedAtStop)" }
        return text
    }
}

extension HarnessPaths {
    /// What a desktop session's clients, and the services its bus starts for them, are told of
    /// it: its Wayland socket, a Wayland session, and the desktop's name.
    package static func desktop(_ name: String, socket: String) -> [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": name]
    }
}
