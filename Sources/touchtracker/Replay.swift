// `touchtracker replay`: a recording or touchscreen trace played without a compositor, through the
// same window, view controller and input adapter as the live app, on a clock that follows the
// recording; then the whole drawing as a PNG and an SVG, and the window as the app showed it.
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
        let reading: InputReading
        do {
            reading = try readInputFiles(options)
        } catch {
            printError("touchtracker: \(error)")
            throw ExitStatus(1)
        }
        for warning in reading.warnings { printError("touchtracker: warning: \(warning)") }
        var entries = reading.entries
        // A device trace draws with the tool asked for; a recording brings its own settings.
        if reading.isTrace { entries.insert(.setting(name: "tool", value: Self.preferenceName(options.tool)), at: 0) }
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
        let strokesBefore = controller.drawView.drawing.strokes.count
        Replayer.playHeadless(entries, into: target, clock: clock, endOfTurn: paint)
        paint()
        // Said even when nothing was drawn: an empty picture is never a silent one.
        let drawn = max(controller.drawView.drawing.strokes.count - strokesBefore, 0)
        print(ReplaySummary(reading.entries, palms: reading.palms).line(strokesDrawn: drawn))
        do {
            if let png = options.png {
                try DrawingExporter.writePNG(controller.drawView.drawing.strokes, to: png)
                print("wrote \(png)")
            }
            if let png = options.windowPNG, let screen {
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

extension Replay {
    /// The preference value of a --tool name.
    static func preferenceName(_ tool: ReplayTool) -> String {
        switch tool {
        case .line: DrawView.Tool.line.rawValue
        case .free: DrawView.Tool.freehand.rawValue
        case .circle: DrawView.Tool.circle.rawValue
        }
    }

    /// The input named by `options`: one file, or an evemu description and its events. An error
    /// names the file and the line.
    func readInputFiles(_ options: ReplayOptions) throws -> InputReading {
        var trace = TraceOptions(width: options.width, height: options.height)
        if let r = options.axisRange, r.count == 4 {
            trace.axisRanges = [AxisRange(minimum: r[0], maximum: r[1]), AxisRange(minimum: r[2], maximum: r[3])]
        }
        let text = try inputText(options.input)
        guard let events = options.events else {
            do { return try readInput(text, options: trace) } catch { throw RecorderError("cannot replay \(options.input): \(error)") }
        }
        let description: DeviceDescription
        do { description = try EvemuTrace.description(text) } catch { throw RecorderError("cannot read \(options.input): \(error)") }
        let eventText = try inputText(events)
        do {
            return try EvemuTrace.reading(eventText, description: description, options: trace)
        } catch {
            throw RecorderError("cannot replay \(events): \(error)")
        }
    }
}

/// The text of a recording or trace file, at most `Limit.inputFileBytes`.
func inputText(_ path: String) throws -> String {
    let result: DrawingFile.ReadResult
    do {
        result = try DrawingFile.read(path, maxBytes: Limit.inputFileBytes)
    } catch {
        throw RecorderError("cannot replay \(path): \(error.message)")
    }
    guard case .bytes(let bytes) = result else { throw RecorderError("cannot replay \(path): no such file") }
    return String(decoding: bytes, as: UTF8.self)
}

/// The entries of a recording or trace file (a trace fitted inside `width` x `height` points),
/// for the live window; warnings go to standard error.
func inputEntries(_ path: String, width: Double, height: Double) throws -> [RecordingEntry] {
    let text = try inputText(path)
    let reading: InputReading
    do { reading = try readInput(text, options: TraceOptions(width: width, height: height)) } catch {
        throw RecorderError("cannot replay \(path): \(error)")
    }
    for warning in reading.warnings { printError("touchtracker: warning: \(warning)") }
    return reading.entries
}
