// `touchtracker replay`: a recording or touchscreen trace played without a compositor, through the
// same window, view controller and input adapter as the live app, on a clock that follows the
// recording; then the window as a PNG and the drawing as an SVG.
import AppCommandLine
import Graphics
import InputReplay
import Limits
import Logging
import TouchKit
import TouchTrackerKit
import WaylandHost

struct Replay {
    let options: ReplayOptions

    func run() throws {
        let entries: [RecordingEntry]
        do {
            entries = try inputEntries(options.input, width: options.width, height: options.height)
        } catch {
            printError("touchtracker: cannot replay \(options.input): \(error)")
            throw ExitStatus(1)
        }
        var strokes: [Stroke] = []
        if let drawing = options.drawing {
            do {
                strokes = try DrawingFile.load(drawing)
            } catch {
                printError("touchtracker: \(error.message)")
                throw ExitStatus(1)
            }
        }
        // The live window's first geometry, if the recording has it; a trace gets --size.
        var size = Size(width: options.width, height: options.height)
        var scale = 1.0
        var titleBar = false
        if let first = entries.lazy.compactMap({ entry -> (Size, Double, Bool)? in
            if case let .window(w, h, s, t) = entry { return (Size(width: w, height: h), s, t) }
            return nil
        }).first {
            (size, scale, titleBar) = first
        }
        let start = entries.lazy.compactMap { entry -> Double? in
            if case .turn(let t) = entry { return t } else { return nil }
        }.first ?? 0
        let clock = ReplayClock(now: start)
        let application = Application(clock: clock)
        let window = WaylandHost.offscreenWindow(title: Strings.appName, size: size, showsTitleBar: titleBar)
        application.addWindow(window)
        let controller = DrawViewController(drawing: Drawing(strokes: strokes))
        if options.trace { controller.drawView.traceLogger = Logger(label: "touchtracker.trace") }
        window.rootViewController = controller

        var target = ReplayTarget(input: TouchInput(application: application, window: window))
        target.window = { width, height, newScale, shows in
            scale = newScale
            WaylandHost.setShowsTitleBar(shows, of: window)
            window.resize(to: Size(width: width, height: height))
        }
        // The preferences the recorded app started with (a trace has none: the defaults).
        var settings = ""
        target.setting = { name, value in
            settings += "\(name) = \(value)\n"
            controller.preferences = Preferences.parse(settings).preferences
        }
        target.key = { keysym, modifiers, name in
            KeyCommand.perform(KeyPress(keysym: keysym, modifiers: KeyPress.Modifiers(rawValue: modifiers), name: name),
                               on: controller, quit: {}, export: {}, exportAs: {})
        }
        // No clipboard here: a recorded paste brings what the live app received (P3).
        target.paste = { result in controller.drawView.pasteArrived(result) }
        // Painted where the live app painted, as it did: its line cache then takes the same path.
        var screen: ImageSurface?
        func paint() { window.paintOffscreen(into: &screen, scale: scale) }
        paint()
        Replayer.playHeadless(entries, into: target, clock: clock, endOfTurn: paint)
        paint()
        do {
            if let png = options.png, let screen {
                try screen.writePNG(to: png)
                print("wrote \(png)")
            }
            if let svg = options.svg {
                try DrawingExporter.writeSVG(controller.drawView.drawing.strokes, to: svg)
                print("wrote \(svg)")
            }
        } catch {
            printError("touchtracker: \(error)")
            throw ExitStatus(1)
        }
    }
}

/// The entries of a recording or trace file (a trace scaled onto `width` x `height` points).
func inputEntries(_ path: String, width: Double, height: Double) throws -> [RecordingEntry] {
    let result: DrawingFile.ReadResult
    do {
        result = try DrawingFile.read(path, maxBytes: Limit.inputFileBytes)
    } catch {
        throw RecorderError(error.message)
    }
    guard case .bytes(let bytes) = result else { throw RecorderError("no such file") }
    return try readInputFile(String(decoding: bytes, as: UTF8.self), width: width, height: height)
}
