// The touchtracker executable: command line, logging, and wiring the host to the app.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Logging
import TouchKit
import TouchTrackerKit
import WaylandHost

@main
struct TouchTracker: ParsableCommand {
    static let appID = "org.touchtracker.TouchTracker"
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "touchtracker",
        abstract: "A multi-touch drawing app for Wayland: every finger draws its own line.",
        discussion: """
            Runs on the Wayland compositor named by WAYLAND_DISPLAY (GNOME, Sway, Weston, ...).
            Touch draws with any number of fingers; the left mouse button draws like one finger.
            Ctrl+Q quits. The window's app id is \(appID).
            """,
        version: version)

    @Flag(help: "Log every touch method call (phase, touch, location) to standard error.")
    var trace = false

    @Flag(help: "Log debugging detail (window sizes, buffers) to standard error.")
    var verbose = false

    @Option(help: "The Wayland display to connect to (default: $WAYLAND_DISPLAY).")
    var display: String?

    mutating func run() throws {
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "touchtracker")

        let host: WaylandHost
        do {
            host = try WaylandHost(title: "TouchTracker", appID: Self.appID, displayName: display, logger: logger)
        } catch {
            printError("touchtracker: \(error)")
            throw ExitCode(1)
        }
        let controller = DrawViewController()
        if trace { controller.drawView.traceLogger = Logger(label: "touchtracker.trace") }
        host.window.rootViewController = controller
        host.onKeyPress = { [unowned host] key in
            if key.modifiers.contains(.control), key.name.lowercased() == "q" { host.stop(.closed) }
        }

        let reason = host.run()
        switch reason {
        case .compositorLost(let message):
            printError("touchtracker: lost the Wayland compositor: \(message)")
        case .signal, .closed:
            break
        }
        if reason.exitStatus != 0 { throw ExitCode(reason.exitStatus) }
    }
}

/// One line to standard error, unbuffered (the process may exit right after).
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
