// The touchtracker executable: command line, logging, and wiring the host to the app. Without a
// subcommand it runs the app; `touchtracker export` writes a drawing as PNG or SVG.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CShims
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
        usage: """
            touchtracker [--file <path>] [--trace] [--verbose] [--display <display>]
            touchtracker export [<drawing> | --file <path>] [--png <out>] [--svg <out>]
            """,
        discussion: """
            Runs on the Wayland compositor named by WAYLAND_DISPLAY (GNOME, Sway, Weston, ...). \
            Touch draws with any number of fingers; the left mouse button and a pen draw like one \
            finger. Double tap clears; tap a line to select it and get Delete; long-press a line \
            and drag to move it; swipe up with three fingers for the colours. The toolbar has \
            Undo, Redo, the Line, Free and Circle tools and the Angle, Speed and Fingers toggles.

            Keys: Delete or Backspace deletes the selected line, Escape deselects, Ctrl+Z undoes, \
            Ctrl+Shift+Z or Ctrl+Y redoes.

            Every finished line is saved at once to the drawing file (default: \
            $XDG_DATA_HOME/touchtracker/drawing.json, else ~/.local/share/touchtracker/drawing.json) \
            and restored on the next start. Ctrl+E exports the drawing as PNG and SVG next to its \
            file; Ctrl+Q quits. The window's app id is \(appID).
            """,
        version: version,
        subcommands: [Export.self, MeasureFile.self])

    @Flag(help: "Log every touch method call (phase, touch, location) to standard error.")
    var trace = false

    @Flag(help: "Log debugging detail (window sizes, buffers, saves) to standard error.")
    var verbose = false

    @Option(help: "The Wayland display to connect to (default: $WAYLAND_DISPLAY).")
    var display: String?

    @Flag(help: "Log, for every frame with input, input-to-commit and input-to-presentation times (wp_presentation) to standard error.")
    var latency = false

    @Option(help: ArgumentHelp("The drawing to open, created if missing (default: $XDG_DATA_HOME/touchtracker/drawing.json).",
                               valueName: "path"))
    var file: String?

    /// Seconds from a change to its autosave; tests make it long to check the saves on quitting.
    @Option(help: .hidden)
    var autosaveDelay = 0.2

    /// `--file` as given, for the subcommands: the root command parses its options wherever they
    /// stand, so `touchtracker export --file X` arrives here.
    nonisolated(unsafe) static var fileOption: String?

    func validate() throws {
        Self.fileOption = file
    }

    mutating func run() throws {
        let logger = bootstrapLogging(verbose: verbose)
        // Past `ulimit -f` a write then fails with EFBIG, reported like a full disk, instead of
        // the signal killing the app with the drawing unsaved.
        signal(SIGXFSZ, SIG_IGN)
        // A big drawing's file buffers (megabytes, while loading and saving whole) go back to the
        // system when freed instead of staying in the heap for the rest of the session.
        tt_return_big_blocks(512 * 1024)

        // One app per drawing, checked before any window appears.
        let drawingPath = file ?? DrawingLocation.defaultFile()
        let lock: DrawingLock?
        switch DrawingLock.acquire(for: drawingPath) {
        case .acquired(let acquired):
            lock = acquired
        case .held(let pid):
            printError("touchtracker: \(drawingPath) is open in another TouchTracker\(pid.map { " (process \($0))" } ?? ""); "
                       + "close that one first, or open another drawing with --file PATH")
            throw ExitCode(1)
        case .unavailable(let error):
            logger.warning("opening \(drawingPath) without a lock against a second TouchTracker: \(error.message)")
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }

        let host: WaylandHost
        do {
            host = try WaylandHost(title: "TouchTracker", appID: Self.appID, displayName: display, logger: logger,
                                   latencyLogger: latency ? Logger(label: "touchtracker.latency") : nil)
        } catch {
            printError("touchtracker: \(error)")
            throw ExitCode(1)
        }
        let document = DrawingDocument(opening: drawingPath, clock: host.application.clock,
                                       logger: logger, autosaveDelay: autosaveDelay)
        if let unreadable = document.unreadable { printError("touchtracker: \(unreadable.message)") }
        if let damaged = document.damagedJournal { printError("touchtracker: \(damaged.message)") }

        let controller = DrawViewController(drawing: document.drawing)
        if trace { controller.drawView.traceLogger = Logger(label: "touchtracker.trace") }
        host.window.rootViewController = controller
        document.install(over: controller.drawView)
        tt_release_free_memory()

        let keyCommands = KeyCommands([
            KeyCommand("q", modifiers: .control, "Quit") { [unowned host] in host.stop(.closed) },
            KeyCommand("e", modifiers: .control, "Export the drawing as PNG and SVG next to its file") {
                document.exportNextToFile(canvas: controller.drawView.bounds.size)
            },
            KeyCommand("delete", modifiers: [], "Delete the selected line") { controller.perform(.deleteSelection) },
            KeyCommand("backspace", modifiers: [], "Delete the selected line") { controller.perform(.deleteSelection) },
            KeyCommand("escape", modifiers: [], "Deselect the line and hide the menu") { controller.perform(.cancel) },
            KeyCommand("z", modifiers: .control, "Undo") { controller.perform(.undo) },
            KeyCommand("z", modifiers: [.control, .shift], "Redo") { controller.perform(.redo) },
            KeyCommand("y", modifiers: .control, "Redo") { controller.perform(.redo) },
        ])
        host.onKeyPress = { key in keyCommands.perform(key) }

        let reason = host.run()
        if case .compositorLost(let message) = reason {
            printError("touchtracker: lost the Wayland compositor: \(message)")
        }
        // Window closed, Ctrl+Q, SIGINT/SIGTERM/SIGHUP or a lost compositor: save what is not saved.
        if let problem = document.close() { printError("touchtracker: \(problem)") }
        if reason.exitStatus != 0 { throw ExitCode(reason.exitStatus) }
    }
}

/// Log lines to standard error; `verbose` adds debug detail.
func bootstrapLogging(verbose: Bool) -> Logger {
    let level: Logger.Level = verbose ? .debug : .info
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    return Logger(label: "touchtracker")
}

/// One line to standard error, unbuffered (the process may exit right after).
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
