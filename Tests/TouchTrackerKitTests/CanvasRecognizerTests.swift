// The book's four recognizers on the real canvas, one by one: a double tap that clears
// (delaysTouchesBegan), a tap that selects and waits for the double tap to fail, a 0.6 s long press
// that selects, and a pan recognized together with the long press that does not cancel the view's
// touches and drags the selected line. The set-up is DrawView's own; the tests only watch it.
import Logging
import Testing
@testable import TouchKit
import TouchTrackerKit

/// A DrawView alone in a window, fed through TouchKit's input adapter at given times on a manual
/// clock. Its recognizers' actions are logged as "doubleTap", "tap", "press.<state>" and
/// "pan.<state>", and the touchesBegan calls it gets are counted through its trace logger.
final class RecognizerStage {
    let clock = ManualClock(now: 0)
    let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let view = DrawView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let input: TouchInput
    let trace = LogRecorder()
    var log: [String] = []

    init() {
        let application = Application(clock: clock)
        application.addWindow(window)
        window.addSubview(view)
        input = TouchInput(application: application, window: window)
        view.traceLogger = Logger(label: "trace") { [trace] _ in trace }
        view.doubleTapRecognizer.addHandler { [unowned self] _ in log.append("doubleTap") }
        view.tapRecognizer.addHandler { [unowned self] _ in log.append("tap") }
        view.longPressRecognizer.addHandler { [unowned self] in log.append("press.\($0.state)") }
        view.moveRecognizer.addHandler { [unowned self] in log.append("pan.\($0.state)") }
    }

    /// One frame of input at `time`, after the timers due by then have fired.
    func frame(at time: Double, _ changes: (TouchInput, Double) -> Void) {
        clock.advance(to: time)
        changes(input, time)
        input.frame()
    }

    func wait(until time: Double) { clock.advance(to: time) }

    /// A quick tap: down, and up 50 ms later.
    func tap(_ id: Int32, _ x: Double, _ y: Double, at time: Double) {
        frame(at: time) { input, t in input.down(.touch(id), at: Point(x: x, y: y), time: t) }
        frame(at: time + 0.05) { input, t in input.up(.touch(id), time: t) }
    }

    /// A slow straight stroke, the way a finger draws a line: ten moves 20 ms apart, then a lift.
    func drawLine(from a: Point, to b: Point, at time: Double) {
        frame(at: time) { input, t in input.down(.touch(1), at: a, time: t) }
        for step in 1...10 {
            let f = Double(step) / 10
            frame(at: time + 0.02 * Double(step)) { input, t in
                input.motion(.touch(1), at: Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f), time: t)
            }
        }
        frame(at: time + 0.22) { input, t in input.up(.touch(1), time: t) }
    }

    /// The finished lines, each as its two ends.
    var lines: [[Point]] { view.drawing.strokes.map { Array($0.points) } }

    var touchesBeganCalls: Int { trace.lines.filter { $0.contains("touchesBegan") }.count }

    /// Whether no recognizer is engaged and no delivery is held.
    var isSettled: Bool { window.gestureEnvironment.isIdle }
}

@Suite("TouchTracker's recognizers (as in the book)")
struct CanvasRecognizerTests {
    @Test("A7, G5, G6: a stroke draws its line from its very first point while the pan is active")
    func drawingUnderPan() {
        let stage = RecognizerStage()
        stage.drawLine(from: Point(x: 50, y: 50), to: Point(x: 250, y: 200), at: 1)
        #expect(stage.lines == [[Point(x: 50, y: 50), Point(x: 250, y: 200)]])
        #expect(stage.log.first == "pan.began" && stage.log.last == "pan.ended")
        #expect(stage.view.longPressRecognizer.state == .possible)
        #expect(stage.isSettled)
    }

    @Test("A1, A7: two fingers draw two lines at once")
    func twoFingersDraw() {
        let stage = RecognizerStage()
        stage.frame(at: 1) { input, t in
            input.down(.touch(1), at: Point(x: 50, y: 50), time: t)
            input.down(.touch(2), at: Point(x: 50, y: 250), time: t)
        }
        for i in 1...5 {
            stage.frame(at: 1 + 0.02 * Double(i)) { input, t in
                input.motion(.touch(1), at: Point(x: 50 + 30 * Double(i), y: 50), time: t)
                input.motion(.touch(2), at: Point(x: 50 + 30 * Double(i), y: 250), time: t)
            }
        }
        stage.frame(at: 1.2) { input, t in
            input.up(.touch(1), time: t)
            input.up(.touch(2), time: t)
        }
        #expect(Set(stage.lines.map(\.[0].y)) == [50, 250])
        #expect(stage.lines.allSatisfy { $0[0].x == 50 && $0[1].x == 200 })
    }

    @Test("A3, G6: a double tap clears all lines; its taps leave no dots")
    func doubleTapClears() {
        let stage = RecognizerStage()
        stage.drawLine(from: Point(x: 50, y: 50), to: Point(x: 250, y: 50), at: 1)
        stage.drawLine(from: Point(x: 50, y: 150), to: Point(x: 250, y: 150), at: 2)
        #expect(stage.lines.count == 2)
        let beganBefore = stage.touchesBeganCalls
        #expect(beganBefore == 2, "each stroke's touchesBegan is counted")
        stage.tap(1, 200, 250, at: 3)
        stage.tap(1, 203, 251, at: 3.2)
        stage.wait(until: 5)
        #expect(stage.log.filter { !$0.hasPrefix("pan") } == ["doubleTap"])
        #expect(stage.lines.isEmpty)
        #expect(stage.view.strokesInProgress.isEmpty)
        #expect(stage.touchesBeganCalls == beganBefore, "touchesBegan never reached the view")
    }

    @Test("A4, G8: a single tap selects a line only after the double tap failed, and leaves no dot")
    func tapWaitsForDoubleTap() {
        let stage = RecognizerStage()
        stage.drawLine(from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        stage.tap(1, 150, 110, at: 2)
        #expect(stage.view.selectedStrokeID == nil, "the double tap may still recognize")
        #expect(!stage.log.contains("tap"))
        stage.wait(until: 2.05 + Touch.multiTapInterval + 0.01)
        #expect(stage.log.last == "tap")
        #expect(stage.view.selectedStrokeID == stage.view.drawing.strokes.first?.id)
        #expect(stage.view.selectedStrokeID != nil)
        #expect(stage.lines.count == 1, "no dot")
        stage.tap(1, 150, 250, at: 3)  // empty space deselects
        stage.wait(until: 4)
        #expect(stage.view.selectedStrokeID == nil)
    }

    @Test("A6, G9, G12, G13: a 0.6 s long press selects, the pan drags the line under the finger; both report")
    func longPressThenPan() {
        let stage = RecognizerStage()
        stage.drawLine(from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        stage.log.removeAll()
        stage.frame(at: 2) { input, t in input.down(.touch(1), at: Point(x: 150, y: 100), time: t) }
        stage.wait(until: 2.59)
        #expect(stage.log.isEmpty, "0.6 s, not 0.5")
        stage.wait(until: 2.6)
        #expect(stage.log == ["press.began"])
        #expect(stage.view.selectedStrokeID == stage.view.drawing.strokes.first?.id)
        #expect(stage.view.selectedStrokeID != nil)
        for i in 1...6 {
            stage.frame(at: 2.6 + 0.02 * Double(i)) { input, t in
                input.motion(.touch(1), at: Point(x: 150 + 3 * Double(i), y: 100 + 10 * Double(i)), time: t)
            }
        }
        stage.frame(at: 2.8) { input, t in input.up(.touch(1), time: t) }
        // The canvas commits the drag as one move when it ends.
        #expect(stage.lines == [[Point(x: 68, y: 160), Point(x: 268, y: 160)]],
                "the line moved exactly as far as the finger")
        #expect(stage.log.filter { $0.hasPrefix("press") }
                == ["press.began"] + Array(repeating: "press.changed", count: 6) + ["press.ended"])
        #expect(stage.log.filter { $0.hasPrefix("pan") }
                == ["pan.began"] + Array(repeating: "pan.changed", count: 5) + ["pan.ended"])
        #expect(stage.view.selectedStrokeID == nil, "release deselects")
        #expect(stage.lines.count == 1, "the drag drew no line")
        #expect(stage.isSettled)
    }

    @Test("A6: with no line under the finger a long press and pan move nothing and draw nothing")
    func longPressOnEmptySpace() {
        let stage = RecognizerStage()
        stage.drawLine(from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        stage.frame(at: 2) { input, t in input.down(.touch(1), at: Point(x: 150, y: 250), time: t) }
        stage.wait(until: 2.7)
        stage.frame(at: 2.8) { input, t in input.motion(.touch(1), at: Point(x: 200, y: 280), time: t) }
        stage.frame(at: 2.9) { input, t in input.up(.touch(1), time: t) }
        #expect(stage.lines == [[Point(x: 50, y: 100), Point(x: 250, y: 100)]])
        #expect(stage.view.strokesInProgress.isEmpty)
    }

    @Test("A10, G3: a finger landing while another draws is neither a long press nor a tap; both draw")
    func secondFingerWhileDrawing() {
        let stage = RecognizerStage()
        // A line to long-press: the second finger rests on it.
        stage.drawLine(from: Point(x: 50, y: 250), to: Point(x: 350, y: 250), at: 1)
        stage.log.removeAll()
        stage.frame(at: 2) { input, t in input.down(.touch(1), at: Point(x: 50, y: 50), time: t) }
        for i in 1...5 {
            stage.frame(at: 2 + 0.02 * Double(i)) { input, t in
                input.motion(.touch(1), at: Point(x: 50 + 20 * Double(i), y: 50), time: t)
            }
        }
        // The recognizers that failed on the first finger are reset by now (G3); the second
        // finger rests on the line well past the long press's 0.6 s.
        stage.frame(at: 2.2) { input, t in input.down(.touch(2), at: Point(x: 200, y: 250), time: t) }
        stage.wait(until: 3.2)
        stage.frame(at: 3.3) { input, t in input.motion(.touch(1), at: Point(x: 200, y: 100), time: t) }
        #expect(stage.view.strokesInProgress.count == 2, "both fingers still draw")
        stage.frame(at: 3.4) { input, t in input.up(.touch(2), time: t) }
        // A quick tap by another finger while the first still draws selects nothing.
        stage.tap(3, 300, 250, at: 3.5)
        stage.wait(until: 4.2)
        stage.frame(at: 4.3) { input, t in input.up(.touch(1), time: t) }
        #expect(!stage.log.contains { $0.hasPrefix("press.") || $0 == "tap" || $0 == "doubleTap" },
                "\(stage.log)")
        #expect(stage.lines.contains([Point(x: 50, y: 50), Point(x: 200, y: 100)]))
        #expect(stage.lines.first == [Point(x: 50, y: 250), Point(x: 350, y: 250)])
        #expect(stage.isSettled)
    }
}
