import Testing
@testable import TouchKit

/// The book's TouchTracker canvas, recognizer for recognizer: lines keyed by touch,
/// a double tap that clears (delaysTouchesBegan), a tap that selects and waits for the double tap
/// to fail, a 0.6 s long press that selects, and a pan recognized together with the long press
/// that does not cancel the view's touches and drags the selected line.
final class TrackerView: View, GestureRecognizerDelegate {
    struct Line: Equatable {
        var begin: Point
        var end: Point
    }

    var linesInProgress: [ObjectIdentifier: Line] = [:]
    var finishedLines: [Line] = []
    var selectedIndex: Int?
    var touchesBeganCalls = 0
    var log: [String] = []

    let doubleTapRecognizer = TapGestureRecognizer()
    let tapRecognizer = TapGestureRecognizer()
    let pressRecognizer = LongPressGestureRecognizer()
    let moveRecognizer = PanGestureRecognizer()

    override init(frame: Rect) {
        super.init(frame: frame)
        isMultipleTouchEnabled = true

        doubleTapRecognizer.numberOfTapsRequired = 2
        doubleTapRecognizer.delaysTouchesBegan = true
        doubleTapRecognizer.addHandler { [unowned self] _ in doubleTap() }
        addGestureRecognizer(doubleTapRecognizer)

        tapRecognizer.delaysTouchesBegan = true
        tapRecognizer.require(toFail: doubleTapRecognizer)
        tapRecognizer.addHandler { [unowned self] in tap($0) }
        addGestureRecognizer(tapRecognizer)

        pressRecognizer.minimumPressDuration = 0.6
        pressRecognizer.addHandler { [unowned self] in longPress($0) }
        addGestureRecognizer(pressRecognizer)

        moveRecognizer.delegate = self
        moveRecognizer.cancelsTouchesInView = false
        moveRecognizer.addHandler { [unowned self] in moveLine($0) }
        addGestureRecognizer(moveRecognizer)
    }

    // MARK: Touches

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        touchesBeganCalls += 1
        for t in touches {
            let p = t.location(in: self)
            linesInProgress[ObjectIdentifier(t)] = Line(begin: p, end: p)
        }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        for t in touches {
            linesInProgress[ObjectIdentifier(t)]?.end = t.location(in: self)
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        for t in touches {
            if var line = linesInProgress.removeValue(forKey: ObjectIdentifier(t)) {
                line.end = t.location(in: self)
                finishedLines.append(line)
            }
        }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        for t in touches { linesInProgress[ObjectIdentifier(t)] = nil }
    }

    // MARK: Gestures

    func doubleTap() {
        log.append("doubleTap")
        linesInProgress.removeAll()
        finishedLines.removeAll()
        selectedIndex = nil
    }

    func tap(_ gr: GestureRecognizer) {
        log.append("tap")
        selectedIndex = lineIndex(at: gr.location(in: self))
    }

    func longPress(_ gr: GestureRecognizer) {
        log.append("press.\(gr.state)")
        if gr.state == .began {
            selectedIndex = lineIndex(at: gr.location(in: self))
            if selectedIndex != nil { linesInProgress.removeAll() }
        } else if gr.state == .ended {
            selectedIndex = nil
        }
    }

    func moveLine(_ gr: PanGestureRecognizer) {
        log.append("pan.\(gr.state)")
        guard let index = selectedIndex else { return }
        if gr.state == .changed {
            let t = gr.translation(in: self)
            finishedLines[index].begin = finishedLines[index].begin.offsetBy(dx: t.x, dy: t.y)
            finishedLines[index].end = finishedLines[index].end.offsetBy(dx: t.x, dy: t.y)
            gr.setTranslation(.zero, in: self)
        }
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        gestureRecognizer === moveRecognizer
    }

    /// The book's hit test: a point of the line within 20 pt.
    func lineIndex(at p: Point) -> Int? {
        for (i, line) in finishedLines.enumerated() {
            for step in 0...20 {
                let t = Double(step) / 20
                let q = Point(x: line.begin.x + t * (line.end.x - line.begin.x),
                              y: line.begin.y + t * (line.end.y - line.begin.y))
                if q.distance(to: p) < 20 { return i }
            }
        }
        return nil
    }
}

@Suite("TouchTracker's recognizers (as in the book)")
struct TouchTrackerRecognizerTests {
    func setup() -> (GestureHarness, TrackerView) {
        let g = GestureHarness()
        let view = TrackerView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        g.window.addSubview(view)
        return (g, view)
    }

    /// A slow horizontal stroke, the way a finger draws a line.
    func drawLine(_ g: GestureHarness, from a: Point, to b: Point, at time: Double) {
        g.drag(1, from: a, to: b, at: time, steps: 10, interval: 0.02)
    }

    @Test("A7, G5, G6: a stroke draws its line from its very first point while the pan is active")
    func drawingUnderPan() {
        let (g, view) = setup()
        drawLine(g, from: Point(x: 50, y: 50), to: Point(x: 250, y: 200), at: 1)
        #expect(view.finishedLines == [.init(begin: Point(x: 50, y: 50), end: Point(x: 250, y: 200))])
        #expect(view.log.first == "pan.began" && view.log.last == "pan.ended")
        #expect(view.pressRecognizer.state == .possible)
        #expect(g.isSettled)
    }

    @Test("A1, A7: two fingers draw two lines at once")
    func twoFingersDraw() {
        let (g, view) = setup()
        g.frame(at: 1) { input, t in
            input.down(.touch(1), at: Point(x: 50, y: 50), time: t)
            input.down(.touch(2), at: Point(x: 50, y: 250), time: t)
        }
        for i in 1...5 {
            g.frame(at: 1 + 0.02 * Double(i)) { input, t in
                input.motion(.touch(1), at: Point(x: 50 + 30 * Double(i), y: 50), time: t)
                input.motion(.touch(2), at: Point(x: 50 + 30 * Double(i), y: 250), time: t)
            }
        }
        g.frame(at: 1.2) { input, t in
            input.up(.touch(1), time: t)
            input.up(.touch(2), time: t)
        }
        #expect(Set(view.finishedLines.map(\.begin.y)) == [50, 250])
        #expect(view.finishedLines.allSatisfy { $0.begin.x == 50 && $0.end.x == 200 })
    }

    @Test("A3, G6: a double tap clears all lines; its taps leave no dots")
    func doubleTapClears() {
        let (g, view) = setup()
        drawLine(g, from: Point(x: 50, y: 50), to: Point(x: 250, y: 50), at: 1)
        drawLine(g, from: Point(x: 50, y: 150), to: Point(x: 250, y: 150), at: 2)
        #expect(view.finishedLines.count == 2)
        let beganBefore = view.touchesBeganCalls
        g.tap(1, 200, 250, at: 3)
        g.tap(1, 203, 251, at: 3.2)
        g.wait(until: 5)
        #expect(view.log.filter { !$0.hasPrefix("pan") } == ["doubleTap"])
        #expect(view.finishedLines.isEmpty)
        #expect(view.linesInProgress.isEmpty)
        #expect(view.touchesBeganCalls == beganBefore, "touchesBegan never reached the view")
    }

    @Test("A4, G8: a single tap selects a line only after the double tap failed, and leaves no dot")
    func tapWaitsForDoubleTap() {
        let (g, view) = setup()
        drawLine(g, from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        g.tap(1, 150, 110, at: 2)
        #expect(view.selectedIndex == nil, "the double tap may still recognize")
        #expect(!view.log.contains("tap"))
        g.wait(until: 2.05 + Touch.multiTapInterval + 0.01)
        #expect(view.log.last == "tap")
        #expect(view.selectedIndex == 0)
        #expect(view.finishedLines.count == 1, "no dot")
        g.tap(1, 150, 250, at: 3)  // empty space deselects
        g.wait(until: 4)
        #expect(view.selectedIndex == nil)
    }

    @Test("A6, G9, G12, G13: a 0.6 s long press selects, the pan drags the line under the finger; both report")
    func longPressThenPan() {
        let (g, view) = setup()
        drawLine(g, from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        view.log.removeAll()
        g.down(1, 150, 100, at: 2)
        g.wait(until: 2.59)
        #expect(view.log.isEmpty, "0.6 s, not 0.5")
        g.wait(until: 2.6)
        #expect(view.log == ["press.began"])
        #expect(view.selectedIndex == 0)
        for i in 1...6 {
            g.move(1, 150 + 3 * Double(i), 100 + 10 * Double(i), at: 2.6 + 0.02 * Double(i))
        }
        #expect(view.finishedLines[0] == .init(begin: Point(x: 68, y: 160), end: Point(x: 268, y: 160)),
                "the line moved exactly as far as the finger")
        g.up(1, at: 2.8)
        #expect(view.log.filter { $0.hasPrefix("press") }
                == ["press.began"] + Array(repeating: "press.changed", count: 6) + ["press.ended"])
        #expect(view.log.filter { $0.hasPrefix("pan") }
                == ["pan.began"] + Array(repeating: "pan.changed", count: 5) + ["pan.ended"])
        #expect(view.selectedIndex == nil, "release deselects")
        #expect(view.finishedLines.count == 1, "the drag drew no line")
        #expect(g.isSettled)
    }

    @Test("A6: with no line under the finger a long press and pan move nothing and draw nothing")
    func longPressOnEmptySpace() {
        let (g, view) = setup()
        drawLine(g, from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 1)
        g.down(1, 150, 250, at: 2)
        g.wait(until: 2.7)
        g.move(1, 200, 280, at: 2.8)
        g.up(1, at: 2.9)
        #expect(view.finishedLines == [.init(begin: Point(x: 50, y: 100), end: Point(x: 250, y: 100))])
        #expect(view.linesInProgress.isEmpty)
    }
}
