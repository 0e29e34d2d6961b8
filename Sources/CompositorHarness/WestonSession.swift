// A private headless Weston with our plugin: start it, launch clients in it, inject input, take
// screenshots, and tear everything down. Used by the end-to-end tests, the demo and the benchmarks.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A mapped window as the plugin reports it (global compositor coordinates).
public struct WindowInfo: Decodable, SessionWindow, Sendable {
    public var appID: String
    public var title: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var popup: Bool
    public var pid: Int32

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", title, x, y, width, height, popup, pid
    }

    public var isMappedToplevel: Bool { !popup && width > 0 }
}

/// A private headless Weston (pixman renderer, our plugin loaded) in its own XDG_RUNTIME_DIR.
public final class WestonSession: CompositorSession, InputInjecting {
    public struct Options: Sendable {
        public var width = 1024
        public var height = 768
        public var shell = "kiosk-shell.so"
        public var extraArguments: [String] = []
        /// weston.ini content; nil runs Weston with --no-config.
        public var config: String?
        /// The output scale (HiDPI): `width` x `height` are points, so 2 makes an output of twice
        /// as many pixels each way (Weston's headless backend multiplies).
        public var scale = 1
        public init(width: Int = 1024, height: Int = 768, shell: String = "kiosk-shell.so", scale: Int = 1,
                    config: String? = nil) {
            self.width = width
            self.height = height
            self.shell = shell
            self.scale = scale
            self.config = config
        }

        /// desktop-shell without its panel, so windows can be placed anywhere and nothing covers
        /// a client-side title bar.
        public static func desktop(width: Int = 1024, height: Int = 768) -> Options {
            Options(width: width, height: height, shell: "desktop-shell.so",
                    config: "[shell]\npanel-position=none\nlocking=false\nanimation=none\nstartup-animation=none\n")
        }
    }

    nonisolated(unsafe) private static var counter = 0

    public let runtimeDirectory: String
    public let socketName: String
    public let control: ControlClient
    public let weston: ChildProcess
    /// Weston and the clients.
    public let processes: SessionProcesses
    private var screenshotCount = 0
    public var keepFiles = false

    public init(_ options: Options = Options()) throws {
        WestonSession.counter += 1
        socketName = "tt-\(getpid())-\(WestonSession.counter)"
        runtimeDirectory = try HarnessPaths.privateFolder("weston")
        processes = SessionProcesses(directory: runtimeDirectory)

        let plugin = try HarnessPaths.plugin()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["TT_HARNESS_SOCKET"] = runtimeDirectory + "/harness.sock"
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        var configArgument = "--no-config"
        if let config = options.config {
            let path = runtimeDirectory + "/weston.ini"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            configArgument = "--config=\(path)"
        }
        let arguments = [
            "--backend=headless-backend.so", "--use-pixman",
            "--width=\(options.width)", "--height=\(options.height)", "--scale=\(options.scale)",
            "--shell=\(options.shell)", "--socket=\(socketName)", "--idle-time=0", configArgument,
            "--log=\(runtimeDirectory)/weston.log", "--modules=\(plugin)",
        ] + options.extraArguments
        guard let westonPath = WestonSession.which("weston") else {
            throw HarnessError("weston is not installed (apt-get install weston)")
        }
        weston = try ChildProcess(name: "weston", executable: westonPath, arguments: arguments,
                                  environment: environment, directory: runtimeDirectory)
        processes.add(service: weston)
        do {
            control = try ControlClient(path: runtimeDirectory + "/harness.sock", timeout: 15)
            try control.send("ping")
        } catch {
            weston.stop()
            throw HarnessError("Weston did not start: \(error)\n--- weston.log ---\n\(WestonSession.tail(runtimeDirectory + "/weston.log"))")
        }
    }

    deinit { stop() }

    package static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    package static func tail(_ path: String, lines: Int = 40) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no \(path))"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// The environment a Wayland client of this session needs.
    public var clientEnvironment: [String: String] {
        HarnessPaths.clientEnvironment(runtimeDirectory: runtimeDirectory, socket: socketName)
    }

    // MARK: Queries

    public func windows() throws -> [WindowInfo] {
        let json = try control.send("windows")
        do {
            return try JSONDecoder().decode([WindowInfo].self, from: Data(json.utf8))
        } catch {
            throw HarnessError("bad windows reply \(json): \(error)")
        }
    }

    /// Waits until `process` shows a popup (an xdg_popup: a menu).
    public func waitForPopup(of process: ChildProcess, timeout: Double = 5) throws -> WindowInfo {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let popup = try windows().first(where: { $0.popup && $0.pid == process.pid }) { return popup }
            usleep(20_000)
        }
        throw HarnessError("no popup menu after \(timeout) s")
    }

    public func output() throws -> (x: Double, y: Double, width: Double, height: Double) {
        let parts = try control.send("output").split(separator: " ").compactMap { Double($0) }
        guard parts.count == 4 else { throw HarnessError("bad output reply") }
        return (parts[0], parts[1], parts[2], parts[3])
    }

    /// Surface commits with damage so far, over all clients.
    public func commitCount() throws -> Int {
        guard let n = Int(try control.send("commits")) else { throw HarnessError("bad commits reply") }
        return n
    }

    /// A screenshot of the whole output, saved in the runtime directory (or at `path`).
    public func screenshot(to path: String? = nil) throws -> Screenshot {
        screenshotCount += 1
        let file = path ?? runtimeDirectory + "/shot-\(screenshotCount).png"
        try control.send("screenshot \(file)")
        return try Screenshot(contentsOf: file)
    }

    /// How long ``ScreenCapturing/waitForScreen(timeout:_:_:)`` waits by default.
    public var screenTimeout: Double { 5 }

    // MARK: Input (global compositor coordinates)

    public func touchDown(_ id: Int, x: Double, y: Double) throws { try control.send("touch down \(id) \(x) \(y)") }
    public func touchMotion(_ id: Int, x: Double, y: Double) throws { try control.send("touch motion \(id) \(x) \(y)") }
    public func touchUp(_ id: Int) throws { try control.send("touch up \(id)") }
    public func touchFrame() throws { try control.send("touch frame") }
    public func touchCancel() throws { try control.send("touch cancel") }
    public func pointerMotion(x: Double, y: Double) throws { try control.send("pointer motion \(x) \(y)") }
    public func pointerButton(_ code: Int = 272, down: Bool) throws {
        try control.send("pointer button \(code) \(down ? "down" : "up")")
    }
    public func key(_ code: Int, down: Bool) throws { try control.send("key \(code) \(down ? "down" : "up")") }
    public func close(appID: String) throws { try control.send("close \(appID)") }
    /// Asks the window to take a new size (an xdg_toplevel configure, as a user's resize sends).
    public func resize(appID: String, width: Int, height: Int) throws {
        try control.send("resize \(width) \(height) \(appID)")
    }

    // MARK: Teardown

    /// Stops every client, then Weston (asked to quit first), and anything they started. Safe to
    /// call twice.
    public func stop() {
        processes.stop {
            for client in clients { client.stop() }
            if weston.isRunning {
                _ = try? control.send("quit", timeout: 2)
                _ = weston.waitForExit(timeout: 3)
            }
        }
    }

    /// Kills Weston outright, as a crash would, leaving its clients running.
    public func killCompositor() {
        weston.signal(SIGKILL)
        _ = weston.waitForExit(timeout: 5)
    }

    /// The tail of Weston's log and each process's output, for failure messages.
    public var diagnostics: String {
        processes.diagnostics("--- weston.log (\(runtimeDirectory)) ---\n" + WestonSession.tail(runtimeDirectory + "/weston.log"),
                              lines: 40)
    }
}

// MARK: Capturing repaints

/// What the plugin's `capture` kept: for every repaint of the output, which pixels of a rectangle
/// showed one colour, when the repaint ended and when the output showed it.
public struct RepaintCapture: Sendable {
    /// The rectangle, in global pixels.
    public var x = 0, y = 0, width = 0, height = 0
    /// CLOCK_MONOTONIC seconds. `presented`: the first presentation time the output reported
    /// after the repaint (when it was on screen), nil for the last repaints.
    public var frames: [(repaint: Double, presented: Double?, mask: [UInt8])] = []

    /// Reads the plugin's capture file (meson-helpers/README.md, `capture`).
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path).map([UInt8].init),
              let newline = data.firstIndex(of: 10) else { throw HarnessError("no capture at \(path)") }
        let fields = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 7, fields[0] == "tt-capture", let x = Int(fields[2]), let y = Int(fields[3]),
              let w = Int(fields[4]), let h = Int(fields[5]), let n = Int(fields[6]) else {
            throw HarnessError("bad capture header in \(path)")
        }
        (self.x, self.y, width, height) = (x, y, w, h)
        let frameBytes = 16 + (w * h + 7) / 8
        var raw: [(repaint: Double, latestPresentation: Double, mask: [UInt8])] = []
        var at = newline + 1
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[o + $1]) << (8 * UInt64($1)) } }
        for _ in 0..<n where at + frameBytes <= data.count {
            raw.append((Double(u64(at)) / 1e9, Double(u64(at + 8)) / 1e9, Array(data[(at + 16)..<(at + frameBytes)])))
            at += frameBytes
        }
        frames = raw.enumerated().map { i, frame in
            (frame.repaint, raw[(i + 1)...].first { $0.latestPresentation > frame.repaint }?.latestPresentation, frame.mask)
        }
    }

    /// The centres of the pixels set in `mask`, in global coordinates.
    public func points(_ mask: [UInt8]) -> [(x: Double, y: Double)] {
        var result: [(x: Double, y: Double)] = []
        for (i, byte) in mask.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let n = i * 8 + bit
                result.append((Double(x + n % width) + 0.5, Double(y + n / width) + 0.5))
            }
        }
        return result
    }
}

extension WestonSession {
    /// Starts keeping, at every repaint, which pixels of the rectangle (global pixels) show
    /// `rgb` (0xRRGGBB) exactly.
    public func startCapture(x: Int, y: Int, width: Int, height: Int, rgb: UInt32) throws {
        try control.send("capture start \(x) \(y) \(width) \(height) \(String(rgb, radix: 16).leftPadded(to: 6))")
    }

    /// Stops capturing and reads what was kept (written to `path`).
    public func stopCapture(writingTo path: String) throws -> RepaintCapture {
        try control.send("capture stop")
        try control.send("capture write \(path)", timeout: 60)
        return try RepaintCapture(path: path)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
