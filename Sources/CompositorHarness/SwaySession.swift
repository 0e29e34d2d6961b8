// A private headless Sway 1.7 (wlroots 0.15, pixman renderer): start it, launch clients in it,
// read the window tree through its IPC (`swaymsg -t get_tree`), take screenshots with grim, and
// tear everything down. Sway injects no touch; pointer input comes from a client of the
// zwlr_virtual_pointer_v1 protocol (the end-to-end tests have one, on our generated bindings).
//
// Sway refuses to run as root: as root, it runs as `nobody` (through setpriv) in a runtime directory
// owned by that user. Clients may run as root: root connects to anyone's socket.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A window in Sway's tree (global coordinates). Sway tiles it: `frame` is the container with
/// sway's own decorations (title bar, border); `content` is where the client's surface is.
public struct SwayWindow: SessionWindow, Sendable {
    public struct Rect: Equatable, Sendable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    public var appID: String
    public var title: String
    public var pid: Int32
    /// The whole container: title bar, border and content.
    public var frame: Rect
    /// The client's surface (the window geometry it was configured to).
    public var content: Rect
    /// Sway's title bar, empty when the border style has none ("pixel", "none", "csd").
    public var titleBar: Rect
    /// Sway's border style for the window: "normal" (title bar and border), "pixel", "none", or
    /// "csd" when the client decorates itself.
    public var border: String
    public var focused: Bool
    public var floating: Bool

    /// Sway's tree holds toplevels only.
    public var isMappedToplevel: Bool { content.width > 0 }

    /// The content rectangle in the shape the Weston harness reports windows.
    public var info: WindowInfo {
        WindowInfo(appID: appID, title: title, x: content.x, y: content.y, width: content.width,
                   height: content.height, popup: false, pid: pid)
    }
}

/// A private headless Sway with its own runtime directory, config and IPC socket.
public final class SwaySession: CompositorSession {
    public struct Options: Sendable {
        public var width = 1024
        public var height = 768
        /// Extra lines for sway's config, after ours (output size, no Xwayland, no bar).
        public var config: [String] = []
        public init(width: Int = 1024, height: Int = 768, config: [String] = []) {
            self.width = width
            self.height = height
            self.config = config
        }
    }

    public let options: Options
    public let runtimeDirectory: String
    /// The Wayland socket's name in the runtime directory (sway picks it: `wayland-1`).
    public private(set) var socketName = ""
    /// The IPC socket `swaymsg -s` talks to.
    public private(set) var ipcSocket = ""
    public let sway: ChildProcess
    /// Sway and the clients.
    public let processes: SessionProcesses
    private lazy var shots = GrimScreenshots(folder: runtimeDirectory)
    public var keepFiles = false

    /// Starts Sway and waits until its IPC answers (at most `timeout` seconds).
    public init(_ options: Options = Options(), timeout: Double = 20) throws {
        self.options = options
        for tool in ["sway", "swaymsg", "grim"] where WestonSession.which(tool) == nil {
            throw HarnessError("\(tool) is not installed (scripts/setup installs sway and grim)")
        }
        runtimeDirectory = try HarnessPaths.privateFolder("sway")
        processes = SessionProcesses(directory: runtimeDirectory)

        let config = [
            "output HEADLESS-1 mode \(options.width)x\(options.height) position 0 0",
            "xwayland disable",
            // No bar (none is configured), no idle, no animations in sway 1.7 anyway.
        ] + options.config
        let configPath = runtimeDirectory + "/sway.config"
        try (config.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "DISPLAY", "SWAYSOCK", "I3SOCK", "DBUS_SESSION_BUS_ADDRESS"] {
            environment.removeValue(forKey: name)
        }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = runtimeDirectory
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_HEADLESS_OUTPUTS"] = "1"

        var executable = WestonSession.which("sway")!
        var arguments = ["--config", configPath]
        if getuid() == 0 {
            // Sway 1.7 exits at once when run as root.
            guard let nobody = getpwnam("nobody") else { throw HarnessError("no user nobody to run sway as") }
            chown(runtimeDirectory, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            guard let setpriv = WestonSession.which("setpriv") else { throw HarnessError("setpriv is not installed (util-linux)") }
            arguments = ["--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups",
                         executable] + arguments
            executable = setpriv
        }
        chmod(runtimeDirectory, 0o700)
        chmod(configPath, 0o644)
        sway = try processes.startService("sway", executable, arguments, environment: environment)
        do {
            try waitUntilReady(timeout: timeout)
        } catch {
            let log = WestonSession.tail(sway.stderrPath)
            stop()
            throw HarnessError("Sway did not start: \(error)\n--- sway stderr ---\n\(log)")
        }
    }

    deinit { stop() }

    private func waitUntilReady(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if !sway.isRunning {
                throw HarnessError("sway exited with status \(sway.waitForExit(timeout: 0) ?? -1)")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }),
                let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                ipcSocket = runtimeDirectory + "/" + ipc
                socketName = socket
                if (try? message(["-t", "get_version"], timeout: 5)) != nil,
                    let outputs = try? message(["-t", "get_outputs"], timeout: 5), outputs.contains("HEADLESS-1") {
                    return
                }
            }
            if Date() > deadline { throw HarnessError("no sway IPC in \(runtimeDirectory) after \(timeout) s") }
            usleep(50_000)
        }
    }

    /// The environment a Wayland client of this session needs.
    public var clientEnvironment: [String: String] {
        var environment = HarnessPaths.clientEnvironment(runtimeDirectory: runtimeDirectory, socket: socketName)
        environment["SWAYSOCK"] = ipcSocket
        return environment
    }

    /// The Wayland socket's full path, for clients that connect by path.
    public var socketPath: String { runtimeDirectory + "/" + socketName }

    // MARK: IPC

    /// Runs `swaymsg -s IPC ARGUMENTS` and returns its output; a non-zero status throws. The
    /// whole suite runs compositors side by side on as few as two cores, where sway's one thread
    /// has waited over 10 s for its turn: a reply is given half a minute.
    @discardableResult
    public func message(_ arguments: [String], timeout: Double = 30) throws -> String {
        try SwaySession.run(WestonSession.which("swaymsg") ?? "/usr/bin/swaymsg", ["-s", ipcSocket] + arguments,
                            environment: clientEnvironment, timeout: timeout)
    }

    /// Runs a sway command (`swaymsg COMMAND`), e.g. `[app_id="..."] kill`.
    public func command(_ command: String) throws {
        let reply = try message([command])
        if reply.contains("\"success\": false") { throw HarnessError("sway: '\(command)' -> \(reply)") }
    }

    /// Every view (window) in Sway's tree, tiled or floating, in tree order.
    public func windows() throws -> [SwayWindow] {
        let json = try message(["-t", "get_tree", "--raw"])
        guard let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw HarnessError("bad get_tree reply: \(json.prefix(200))")
        }
        var found: [SwayWindow] = []
        func rect(_ value: Any?) -> SwayWindow.Rect {
            let r = value as? [String: Any] ?? [:]
            func number(_ key: String) -> Double { (r[key] as? NSNumber)?.doubleValue ?? 0 }
            return .init(x: number("x"), y: number("y"), width: number("width"), height: number("height"))
        }
        func walk(_ node: [String: Any], parent: SwayWindow.Rect, floating: Bool) {
            let type = node["type"] as? String
            let frame = rect(node["rect"])
            if type == "con" || type == "floating_con", node["pid"] != nil, (node["nodes"] as? [Any])?.isEmpty ?? true {
                let window = rect(node["window_rect"])  // relative to rect
                let deco = rect(node["deco_rect"])      // relative to the parent's rect
                let content = SwayWindow.Rect(x: frame.x + window.x, y: frame.y + window.y,
                                              width: window.width, height: window.height)
                let titleBar = deco.height > 0
                    ? SwayWindow.Rect(x: parent.x + deco.x, y: parent.y + deco.y, width: deco.width, height: deco.height)
                    : SwayWindow.Rect(x: 0, y: 0, width: 0, height: 0)
                found.append(SwayWindow(
                    appID: node["app_id"] as? String ?? "", title: node["name"] as? String ?? "",
                    pid: (node["pid"] as? NSNumber)?.int32Value ?? 0, frame: frame, content: content,
                    titleBar: titleBar, border: node["border"] as? String ?? "",
                    focused: node["focused"] as? Bool ?? false, floating: floating))
            }
            for child in node["nodes"] as? [[String: Any]] ?? [] { walk(child, parent: frame, floating: floating) }
            for child in node["floating_nodes"] as? [[String: Any]] ?? [] { walk(child, parent: frame, floating: true) }
        }
        walk(root, parent: rect(root["rect"]), floating: false)
        return found
    }

    // MARK: Screenshots

    /// A screenshot of the whole output with grim, saved in the runtime directory (or at `path`).
    public func screenshot(to path: String? = nil) throws -> Screenshot {
        try shots.take(to: path, environment: clientEnvironment)
    }

    /// How long ``ScreenCapturing/waitForScreen(timeout:_:_:)`` waits by default.

    // MARK: Teardown

    /// Stops every client, then Sway (asked to exit first), and anything they started. Safe to
    /// call twice.
    public func stop() {
        processes.stop {
            for client in clients { client.stop() }
            if sway.isRunning {
                try? command("exit")
                _ = sway.waitForExit(timeout: 3)
            }
        }
    }

    /// The tail of Sway's log and each client's output, for failure messages.
    public var diagnostics: String { processes.diagnostics("--- Sway session in \(runtimeDirectory) ---", lines: 40) }

    /// Runs a short helper program to completion, with a time limit; returns its standard output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: Double) throws -> String {
        // Output goes to files: nothing to drain while it runs, nothing to block on.
        let base = NSTemporaryDirectory() + "tt-run-\(getpid())-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: base + ".out")
        process.standardError = FileHandle(forWritingAtPath: base + ".err")
        process.standardInput = FileHandle.nullDevice
        let command = ([executable] + arguments).joined(separator: " ")
        do { try process.run() } catch { throw HarnessError("cannot run \(command): \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw HarnessError("\(command) took more than \(timeout) s")
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let errors = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
            throw HarnessError("\(command) failed (\(process.terminationStatus)): \(errors)\(output)")
        }
        return output
    }
}
