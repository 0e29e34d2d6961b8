import Graphics
import Testing
import TouchKit
import TouchTrackerKit
@testable import InputReplay

/// The app's canvas in a window, with the host's habits: turns that batch what was read, timers
/// fired between turns, and a recorder on the input adapter.
final class RecordedSession {
    var time = 50.0
    lazy var clock = EventLoopClock(now: { [unowned self] in self.time })
    let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let controller = DrawViewController()
    var application: Application!
    var input: TouchInput!
    var entries: [RecordingEntry] = []

    init() {
        application = Application(clock: clock)
        application.addWindow(window)
        window.rootViewController = controller
        // The session's gestures run where the zoom control sits in so small a window.
        controller.showsZoomControl = false
        input = TouchInput(application: application, window: window)
        input.recorder = { [unowned self] event in self.entries.append(.input(event)) }
        entries.append(.window(width: 400, height: 300, scale: 1, titleBar: false))
    }

    /// One turn at `t`: the events read, delivered in a batch.
    func turn(at t: Double, _ body: (TouchInput) -> Void) {
        time = t
        entries.append(.turn(t))
        input.beginBatch()
        body(input)
        input.endBatch()
    }

    /// The host's timers firing at `t`.
    func timers(at t: Double) {
        time = t
        entries.append(.timers(t))
        clock.fireDueTimers()
    }

    func image() -> ImageSurface {
        window.layoutIfNeeded()
        let image = ImageSurface(width: 400, height: 300)
        window.render(window.bounds, in: CairoContext(surface: image))
        return image
    }
}

@Suite("Replaying a recording")
struct ReplayTests {
    /// Three fingers drawing over several turns (their motion batched), a cancelled finger, a tap
    /// on a line (which selects it once the double tap has had its time), and a long press that
    /// picks a line up and drags it.
    static func session() -> RecordedSession {
        let s = RecordedSession()
        let p = { (x: Double, y: Double) in Point(x: x, y: y) }
        s.turn(at: 50.00) { i in
            i.down(.touch(0), at: p(20, 20), time: 50.0); i.down(.touch(1), at: p(20, 100), time: 50.0); i.frame()
        }
        for k in 1...6 {
            let t = 50.0 + Double(k) * 0.016
            s.turn(at: t) { i in
                // Two frames read in one turn: batched into one event.
                i.motion(.touch(0), at: p(20 + Double(k) * 40, 20), time: t - 0.008); i.frame()
                i.motion(.touch(0), at: p(25 + Double(k) * 40, 22), time: t); i.motion(.touch(1), at: p(20 + Double(k) * 30, 140), time: t); i.frame()
            }
        }
        s.turn(at: 50.12) { i in i.down(.touch(2), at: p(300, 250), time: 50.12); i.frame() }
        s.turn(at: 50.13) { i in i.cancel(source: .touchscreen) }
        s.turn(at: 50.20) { i in i.down(.touch(0), at: p(30, 200), time: 50.2); i.frame() }
        s.turn(at: 50.24) { i in i.motion(.touch(0), at: p(350, 220), time: 50.24); i.frame() }
        s.turn(at: 50.26) { i in i.up(.touch(0), time: 50.26); i.frame() }
        s.timers(at: 50.3)
        // A tap on the line from (30,200) to (350,220).
        s.turn(at: 51.0) { i in i.down(.touch(5), at: p(190, 210), time: 51.0); i.frame() }
        s.turn(at: 51.05) { i in i.up(.touch(5), time: 51.05); i.frame() }
        s.timers(at: 51.45)
        // A tap away from every line deselects; then a long press picks the line up and drags it.
        s.turn(at: 51.8) { i in i.down(.touch(7), at: p(380, 40), time: 51.8); i.frame() }
        s.turn(at: 51.85) { i in i.up(.touch(7), time: 51.85); i.frame() }
        s.timers(at: 51.95)
        s.turn(at: 52.0) { i in i.down(.touch(6), at: p(190, 210), time: 52.0); i.frame() }
        s.timers(at: 52.7)
        for k in 1...5 {
            let t = 52.7 + Double(k) * 0.02
            s.turn(at: t) { i in i.motion(.touch(6), at: p(190 + Double(k) * 5, 210 - Double(k) * 12), time: t); i.frame() }
        }
        s.turn(at: 52.9) { i in i.up(.touch(6), time: 52.9); i.frame() }
        s.timers(at: 53.5)
        return s
    }

    @Test("A1 A2 A4 A6 T2 T11: a recording replayed headless gives the same drawing, bit for bit, and the same picture")
    func replayReproducesTheSession() throws {
        let live = Self.session()
        #expect(live.controller.drawView.drawing.strokes.count == 1, "the cancel took two lines; the third was drawn")
        // Through the text format, as a file would carry it.
        let text = ([RecordingFormat.header] + live.entries.map(RecordingFormat.line)).joined(separator: "\n")
        let entries = try RecordingFormat.parse(text)
        #expect(entries == live.entries)

        let clock = ReplayClock(now: 0)
        let window = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let controller = DrawViewController()
        controller.showsZoomControl = false
        let application = Application(clock: clock)
        application.addWindow(window)
        window.rootViewController = controller
        var target = ReplayTarget(input: TouchInput(application: application, window: window))
        target.window = { width, height, _, _ in window.resize(to: Size(width: width, height: height)) }
        Replayer.playHeadless(entries, into: target, clock: clock, settle: 0)

        let recorded = live.controller.drawView.drawing.strokes, replayed = controller.drawView.drawing.strokes
        #expect(replayed == recorded)
        #expect(replayed.first.map { $0.points[0] != Point(x: 30, y: 200) } == true, "the line was dragged")
        let a = live.image(), b = ImageSurface(width: 400, height: 300)
        window.layoutIfNeeded()
        window.render(window.bounds, in: CairoContext(surface: b))
        var differing = 0
        for y in 0..<300 { for x in 0..<400 where a.color(x: x, y: y) != b.color(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
    }

    @Test("A live replay's schedule keeps each turn's entries together, at its offset from the first")
    func turnsForALiveReplay() {
        let turns = Replayer.turns(Self.session().entries)
        #expect(turns.first?.offset == 0)
        #expect(turns.map(\.offset) == turns.map(\.offset).sorted())
        #expect(turns.allSatisfy { !$0.entries.isEmpty })
        #expect(turns.contains { $0.entries.first == .input(.beginBatch) && $0.entries.last == .input(.endBatch) })
    }
}
