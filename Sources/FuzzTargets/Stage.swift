// The app without a compositor, as `touchtracker replay` builds it (Sources/touchtracker/Replay.swift):
// the canvas's view controller in a window, the input adapter and a clock that follows the input,
// painted into an image where the live app painted. What a target hands a parsed input to, so
// that a value the parser let through but the canvas cannot take shows up as a crash here.
// Leaves out what only the executable has: key commands and the title bar.
import Graphics
import InputReplay
import TouchKit
import TouchTrackerKit

final class Stage {
    let clock: ReplayClock
    let application: Application
    let window: Window
    let controller: DrawViewController
    /// The banners the canvas asked for, in order.
    private(set) var notices: [(text: String, style: BannerView.Style)] = []
    private var scale = 1.0
    private var screen: ImageSurface?

    /// The app's window at the size a trace replay uses by default.
    static let size = Size(width: 400, height: 300)
    /// A device trace fitted inside that window.
    static let traceOptions = TraceOptions(width: size.width, height: size.height)

    init(strokes: [Stroke] = [], now: Double = 0) {
        clock = ReplayClock(now: now)
        application = Application(clock: clock)
        window = Window(frame: Rect(origin: .zero, size: Self.size))
        application.addWindow(window)
        controller = DrawViewController(drawing: Drawing(strokes: strokes))
        window.rootViewController = controller
        controller.drawView.onNotice = { [unowned self] text, style in self.notices.append((text, style)) }
    }

    var drawView: DrawView { controller.drawView }
    var drawing: Drawing { controller.drawView.drawing }

    /// Paints what changed, as the host does each frame: into an image of the window's size.
    func paint() { window.paintOffscreen(into: &screen, scale: scale) }

    /// Plays `entries` headless, as `touchtracker replay` does, painting at the end of each turn.
    func replay(_ entries: [RecordingEntry]) {
        let input = TouchInput(application: application, window: window)
        var target = ReplayTarget(input: input)
        target.window = { [unowned self] width, height, scale, _ in
            self.scale = scale
            self.window.resize(to: Size(width: width, height: height))
        }
        var settings = ""
        target.setting = { [unowned self] name, value in
            settings += "\(name) = \(value)\n"
            self.controller.preferences = Preferences.parse(settings).preferences
        }
        target.paste = { [unowned self] result in self.drawView.pasteArrived(result) }
        paint()
        Replayer.playHeadless(entries, into: target, clock: clock, endOfTurn: paint)
        // Fingers still down are cancelled: a touch and its recognizers hold each other until it
        // ends, and would outlive the stage (a leak to LeakSanitizer).
        for source in [TouchInput.Source.touchscreen, .pointer, .tablet] { input.cancel(source: source) }
        clock.fire(at: clock.now + 1)
        paint()
    }

    /// Throws unless every line on the canvas is one a drawing file can hold: what is drawn must
    /// be what is saved.
    func requireSavable(_ what: String) throws(FuzzFailure) {
        for stroke in drawing.strokes {
            if let problem = DrawingFormat.problem(with: stroke) {
                throw FuzzFailure("\(what) left a line the file format refuses (\(problem)): it would be lost at the next save")
            }
        }
    }
}

/// The strokes as the file format writes them: equal bytes mean equal strokes, bit for bit (where
/// `==` takes -0.0 for 0.0).
func canonical(_ strokes: [Stroke]) -> [UInt8] {
    DrawingFormat.encode(strokes).bytes
}
