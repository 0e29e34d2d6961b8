// The touchtracker executable: command line, logging, and wiring the host to the app. Without a
// subcommand it runs the app; `touchtracker export` writes a drawing as PNG or SVG.
#if canImport(Glibc)
import Glibc
#endif
import AccessibilityBridge
import AppCommandLine
import CShims
import Graphics
import InputReplay
import Logging
import TouchKit
import TouchTrackerKit
import WaylandHost

@main
enum TouchTracker {
    static let appID = "org.touchtracker.TouchTracker"
    static let commandLine = TouchTrackerCommandLine(version: "0.1.0", appID: appID)

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if IconRendererService.isRequested(by: arguments) { IconRendererService.serve() }
        // Before any string is shown: the user's language for the window's words.
        let localization = Localization.start()
        let invocation: Invocation
        do {
            invocation = try commandLine.parse(arguments)
        } catch {
            printError(commandLine.report(error), newline: false)
            exit(UsageError.exitStatus)
        }
        do {
            switch invocation {
            case .help(let text): print(text, terminator: "")
            case .version(let version): print(version)
            case .runApp(let options): try App(options: options, localization: localization).run()
            case .export(let options): try Export(options: options).run()
            case .measureFile(let options): try MeasureFile(options: options).run()
            case .replay(let options): try Replay(options: options).run()
            }
        } catch let failure as ExitStatus {
            exit(failure.status)
        } catch {
            printError("touchtracker: \(error)")
            exit(1)
        }
    }
}

/// Ends the process with `status`; what went wrong has been said on standard error already.
struct ExitStatus: Error {
    let status: Int32

    init(_ status: Int32) { self.status = status }
}

/// The app itself: a window drawing with touch, until it is closed.
struct App {
    let options: AppOptions
    let localization: Localization.Setup

    func run() throws {
        let logger = bootstrapLogging(verbose: options.verbose)
        logger.debug("language: locale \(localization.locale), LANGUAGE \(getenv("LANGUAGE").map { String(cString: $0) } ?? "unset"), catalogues in \(localization.directory ?? "glibc's default folder")")
        // Past `ulimit -f` a write then fails with EFBIG, reported like a full disk, instead of
        // the signal killing the app with the drawing unsaved.
        signal(SIGXFSZ, SIG_IGN)
        // A big drawing's file buffers (megabytes, while loading and saving whole) go back to the
        // system when freed instead of staying in the heap for the rest of the session.
        tt_return_big_blocks(512 * 1024)
        // Icons are drawn by a process of their own, started from this same executable (whatever
        // name started it, and still this version if a newer one is installed meanwhile).
        IconRendererService.drawIcons(with: "/proc/self/exe")

        // One app per drawing, checked before any window appears. With no file named, the drawing
        // the last such session ended on (after New, the newest), else the default drawing.
        let drawingPath = options.file ?? NewDrawing.drawingToOpen()
        var lock: DrawingLock?
        // Locked by the path saves go to (links and relative names resolved): one drawing, one lock,
        // whatever name opened it.
        switch DrawingLock.acquire(for: DrawingFile.absolute(drawingPath)) {
        case .acquired(let acquired):
            lock = acquired
        case .held(let pid):
            printError("touchtracker: \(drawingPath) is open in another TouchTracker\(pid.map { " (process \($0))" } ?? ""); "
                       + "close that one first, or open another drawing with --file PATH")
            throw ExitStatus(1)
        case .unavailable(let error):
            logger.warning("opening \(drawingPath) without a lock against a second TouchTracker: \(error.message)")
            lock = nil
        }

        let host: WaylandHost
        do {
            host = try WaylandHost(title: Strings.appName, appID: TouchTracker.appID, displayName: options.display, logger: logger,
                                   latencyLogger: options.latency ? Logger(label: "touchtracker.latency") : nil)
        } catch {
            printError("touchtracker: \(error)")
            throw ExitStatus(1)
        }
        host.predictsTouches = options.prediction
        let document = DrawingDocument(opening: drawingPath, clock: host.application.clock,
                                       logger: logger, autosaveDelay: options.autosaveDelay)
        // The document holds the lock from here on, and moves it to the new file on New.
        document.lock = lock
        lock = nil
        if options.file == nil {
            document.onNewFile = { path in
                do throws(FileIOError) {
                    try NewDrawing.remember(path)
                } catch {
                    logger.warning("the next start opens the older drawing: \(error.message)")
                }
            }
        }
        if let unreadable = document.unreadable { printError("touchtracker: \(unreadable.message)") }
        if let damaged = document.damagedJournal { printError("touchtracker: \(damaged.message)") }

        let controller = DrawViewController(drawing: document.drawing)
        if options.trace { controller.drawView.traceLogger = Logger(label: "touchtracker.trace") }
        // The tool, toggles and colour as they were left; a broken file costs its settings, not the start.
        let preferencesFile = Preferences.defaultFile()
        let (preferences, problems) = Preferences.load(preferencesFile)
        for problem in problems { logger.warning("preferences ignored: \(problem)") }
        controller.preferences = preferences
        controller.onPreferencesChange = { changed in
            do throws(FileIOError) {
                try changed.save(to: preferencesFile)
            } catch {
                logger.warning("cannot keep the preferences: \(error.message)")
            }
        }
        controller.onNewDrawing = { document.startNew() }
        // A session recorded or replayed starts at the drawing's origin at 100 %, as `touchtracker
        // replay` does, so the two show the same; otherwise the drawing opens as it was left.
        let views = options.replay == nil && options.record == nil
            ? ViewKeeper(document: document, scrollView: controller.scrollView, clock: host.application.clock, logger: logger) : nil
        host.window.rootViewController = controller
        WaylandHost.setTitleBarRightToLeft(LayoutDirection.current == .rightToLeft, of: host.window)
        WaylandHost.setTitleBarButtonNames(close: Strings.closeWindow, maximize: Strings.maximizeWindow,
                                           minimize: Strings.minimizeWindow, of: host.window)
        let desktopStyle = DesktopStyle(host: host, logger: logger)
        defer { withExtendedLifetime(desktopStyle) {} }
        // Screen readers and other assistive tools, over the desktop's accessibility bus.
        let accessibility = AccessibilityBridge(
            window: host.window, applicationName: Strings.appName, menuName: Strings.editMenu, clock: host.application.clock,
            environment: { name in getenv(name).map { String(cString: $0) } },
            watch: { [unowned host] fd, handler in host.watchReadable(fd, handler) }, log: { logger.debug("\($0)") })
        defer { withExtendedLifetime(accessibility) {} }
        document.noticeDisplay = controller
        // What copy and paste have to say (a paste declined or damaged) goes in the banner.
        controller.drawView.onNotice = { text, style in
            logger.notice("\(text)")
            document.showNotice(text, style: style, seconds: style == .error ? 8 : 5)
        }
        tt_release_free_memory()

        let exportAs = ExportAs(document: document, clock: host.application.clock, logger: logger)
        host.onKeyPress = { [unowned host] press in
            KeyCommand.perform(press, on: controller, quit: { host.stop(.closed) },
                               export: { document.startExport(canvas: controller.drawView.bounds.size) },
                               exportAs: { exportAs.run(canvas: controller.drawView.bounds.size) })
        }

        var recorder: Recorder?
        if let path = options.record {
            do {
                let opened = try Recorder(path: path, logger: logger)
                for (name, value) in controller.preferences.settings { opened.record(.setting(name: name, value: value)) }
                host.recorder = { [unowned opened] entry in opened.record(entry) }
                recorder = opened
            } catch {
                printError("touchtracker: \(error)")
                throw ExitStatus(1)
            }
        }
        defer { withExtendedLifetime(recorder) {} }
        // A paste is recorded with what it received, and a replay pastes that (P3).
        if recorder != nil {
            controller.drawView.onPasteArrived = { [unowned host] result in host.recordPaste(result) }
        }
        host.onReplayedPaste = { result in controller.drawView.pasteArrived(result) }
        if let path = options.replay {
            let size = host.window.bounds.size
            do {
                host.replay(try inputEntries(path, width: size.width, height: size.height), speed: options.replaySpeed)
            } catch {
                printError("touchtracker: \(error)")
                throw ExitStatus(1)
            }
        }

        let reason = host.run()
        if case .compositorLost(let message) = reason {
            printError("touchtracker: lost the Wayland compositor: \(message)")
        }
        // Window closed, Ctrl+Q, SIGINT/SIGTERM/SIGHUP or a lost compositor: save what is not saved.
        // Quitting during a zoom's animation keeps the zoom asked for.
        controller.scrollView.completeZoomAnimation()
        views?.flush()
        document.finishExporting()
        if let problem = document.close() { printError("touchtracker: \(problem)") }
        if reason.exitStatus != 0 { throw ExitStatus(reason.exitStatus) }
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

/// A line to standard error, unbuffered (the process may exit right after).
func printError(_ message: String, newline: Bool = true) {
    let line = Array((newline ? message + "\n" : message).utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
