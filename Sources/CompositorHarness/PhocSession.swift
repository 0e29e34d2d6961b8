// A private headless phoc 0.24 (Phosh's compositor, on wlroots 0.15 with the pixman renderer): a
// phone's screen, 360x720 points at scale 2 in portrait by default. phoc maximizes every toplevel
// on it (its auto-maximize, on by default), as Phosh does on a phone, so a window covers the whole
// output. It has no IPC to list windows: the session reads phoc's own debug log, where each new
// xdg toplevel is named with its app id, and places it over the output. Input comes from a wlroots
// virtual pointer (SwayHarness, as under Sway); screenshots from grim.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A toplevel phoc announced; maximized over the whole output.
public struct PhocWindow: SessionWindow, Sendable {
    public var appID: String
    public var title: String
    public var x, y, width, height: Double

    public var isMappedToplevel: Bool { width > 0 }

    /// In the shape the Weston harness reports windows.
    public var info: WindowInfo {
        WindowInfo(appID: appID, title: title, x: x, y: y, width: width, height: height, popup: false, pid: 0)
    }
}

/// A private headless phoc with its own runtime directory, HOME and config.
public final class PhocSession: CompositorSession {
    public struct Options: Sendable {
        /// The output in points (logical pixels); its pixels are `scale` times as many.
        public var width = 360
        public var height = 720
        public var scale = 2
        public init(width: Int = 360, height: Int = 720, scale: Int = 2) {
            self.width = width
            self.height = height
            self.scale = scale
        }
    }

    public let options: Options
    public let runtimeDirectory: String
    public let socketName = "wayland-0"
    public let phoc: ChildProcess
    public let processes: SessionProcesses
    private lazy var shots = GrimScreenshots(folder: runtimeDirectory)
    public var keepFiles = false

    /// Starts phoc and waits until its socket takes clients (at most `timeout` seconds).
    public init(_ options: Options = Options(), timeout: Double = 20) throws {
        self.options = options
        for tool in ["phoc", "grim"] where WestonSession.which(tool) == nil {
            throw HarnessError("\(tool) is not installed (scripts/setup installs phoc and grim)")
        }
        runtimeDirectory = try HarnessPaths.privateFolder("phoc")
        processes = SessionProcesses(directory: runtimeDirectory)
        let config = runtimeDirectory + "/phoc.ini"
        try """
            [core]
            xwayland=false
            [output:HEADLESS-1]
            mode=\(options.width * options.scale)x\(options.height * options.scale)
            scale=\(options.scale)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        var environment = HarnessPaths.environmentInEnglish
        for name in ["WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] { environment.removeValue(forKey: name) }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = runtimeDirectory
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        // The debug log names each new toplevel: how windows() finds them.
        environment["G_MESSAGES_DEBUG"] = "phoc-xdg-shell"
        phoc = try processes.startService("phoc", WestonSession.which("phoc")!, ["-C", config], environment: environment)
        do {
            try wait(for: "phoc's socket", deadline: Date().addingTimeInterval(timeout), process: phoc) {
                FileManager.default.fileExists(atPath: self.socketPath)
                    && self.phoc.standardOutput.contains("Running compositor")
            }
        } catch {
            let log = WestonSession.tail(phoc.stderrPath)
            stop()
            throw HarnessError("phoc did not start: \(error)\n--- phoc stderr ---\n\(log)")
        }
    }

    deinit { stop() }

    /// The environment a Wayland client of this session needs.
    public var clientEnvironment: [String: String] {
        HarnessPaths.clientEnvironment(runtimeDirectory: runtimeDirectory, socket: socketName)
    }

    /// The Wayland socket's full path, for clients that connect by path.
    public var socketPath: String { runtimeDirectory + "/" + socketName }

    /// Every toplevel phoc announced in its log ("new xdg toplevel: title=T, app_id=A"), each
    /// over the whole output.
    public func windows() throws -> [PhocWindow] {
        let log = phoc.standardError + phoc.standardOutput
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "new xdg toplevel: title=") else { return nil }
            let rest = line[range.upperBound...]
            guard let split = rest.range(of: ", app_id=") else { return nil }
            return PhocWindow(appID: String(rest[split.upperBound...]), title: String(rest[..<split.lowerBound]),
                              x: 0, y: 0, width: Double(options.width), height: Double(options.height))
        }
    }

    // MARK: Screenshots

    /// A screenshot of the whole output with grim (in pixels: points times the scale), saved in the
    /// runtime directory or at `path`.
    public func screenshot(to path: String? = nil) throws -> Screenshot {
        try shots.take(to: path, environment: clientEnvironment)
    }


    // MARK: Teardown

    public func stop() {
        processes.stop {
            for client in clients { client.stop() }
            phoc.stop()
        }
    }

    public var diagnostics: String { processes.diagnostics("--- phoc session in \(runtimeDirectory) ---", lines: 40) }
}
