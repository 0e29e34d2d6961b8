import Testing
@testable import TouchKit

@Suite("Screen edge pan (G19)")
struct ScreenEdgePanTests {
    /// A 400 × 300 window whose canvas fills it, with an edge pan on the canvas.
    func setup(_ edges: ScreenEdgePanGestureRecognizer.Edges) -> (GestureHarness, ScreenEdgePanGestureRecognizer) {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = edges
        view.addGestureRecognizer(g.watch(pan, "edge"))
        return (g, pan)
    }

    @Test("G19: a pan from the left edge inwards begins, changes and ends")
    func fromLeftEdge() {
        let (g, _) = setup(.left)
        g.drag(1, from: Point(x: 5, y: 150), to: Point(x: 105, y: 150), at: 1, steps: 4)
        #expect(g.actions == ["edge.began", "edge.changed", "edge.changed", "edge.changed", "edge.ended"])
    }

    @Test("G19: a pan starting in the middle of the window fails")
    func fromMiddle() {
        let (g, pan) = setup(.all)
        var states: [GestureRecognizer.State] = []
        pan.stateObserver = { _, new in states.append(new) }
        g.down(1, 200, 150, at: 1)
        #expect(states == [.failed, .possible], "it gives up as the touch lands, and is reset (G3)")
        g.move(1, 300, 150, at: 1.02)
        g.up(1, at: 1.04)
        #expect(g.actions.isEmpty)
    }

    @Test("G19: a touch just beyond 20 pt from the edge is not at the edge")
    func margin() {
        let (g, _) = setup(.left)
        g.drag(1, from: Point(x: 21, y: 150), to: Point(x: 121, y: 150), at: 1)
        #expect(g.actions.isEmpty)
        g.drag(2, from: Point(x: 20, y: 150), to: Point(x: 120, y: 150), at: 2)
        #expect(g.actions.first == "edge.began")
    }

    @Test("G19: only the edges in `edges` count; with none set it never begins")
    func edgesRespected() {
        let (g, pan) = setup(.left)
        g.drag(1, from: Point(x: 395, y: 150), to: Point(x: 295, y: 150), at: 1)
        #expect(g.actions.isEmpty, "the right edge is not watched")
        pan.edges = []
        g.drag(2, from: Point(x: 5, y: 150), to: Point(x: 105, y: 150), at: 2)
        #expect(g.actions.isEmpty, "no edges, no edge pan")
        pan.edges = [.right, .bottom]
        g.drag(3, from: Point(x: 395, y: 150), to: Point(x: 295, y: 150), at: 3)
        g.drag(4, from: Point(x: 200, y: 296), to: Point(x: 200, y: 196), at: 4)
        #expect(g.actions.filter { $0.hasSuffix("began") }.count == 2)
    }

    @Test("G19: each of top, left, bottom and right with .all, each moving inwards")
    func allEdges() {
        let (g, _) = setup(.all)
        let strokes: [(Point, Point)] = [
            (Point(x: 200, y: 2), Point(x: 200, y: 80)),
            (Point(x: 2, y: 150), Point(x: 80, y: 150)),
            (Point(x: 200, y: 298), Point(x: 200, y: 220)),
            (Point(x: 398, y: 150), Point(x: 320, y: 150)),
        ]
        for (i, stroke) in strokes.enumerated() {
            g.drag(Int32(i + 1), from: stroke.0, to: stroke.1, at: Double(i + 1))
        }
        #expect(g.actions.filter { $0 == "edge.began" }.count == 4)
    }

    @Test("G19: a touch at the edge that runs along it, or off the window, fails")
    func alongTheEdge() {
        let (g, _) = setup(.left)
        g.drag(1, from: Point(x: 5, y: 50), to: Point(x: 10, y: 200), at: 1)
        #expect(g.actions.isEmpty, "along the edge")
        g.drag(2, from: Point(x: 15, y: 150), to: Point(x: -20, y: 150), at: 2)
        #expect(g.actions.isEmpty, "outwards")
        g.drag(3, from: Point(x: 5, y: 50), to: Point(x: 80, y: 110), at: 3)
        #expect(g.actions.first == "edge.began", "inwards at a slant")
    }

    @Test("G19: a second finger landing away from the edge before it began makes it fail")
    func secondFingerInside() {
        let (g, pan) = setup(.left)
        pan.minimumNumberOfTouches = 2
        let history = StateHistory(pan)
        g.down(1, 5, 100, at: 1)
        g.down(2, 200, 150, at: 1.01)
        #expect(history.outcome == .failed)
        g.up(1, at: 1.02)
        g.up(2, at: 1.03)
        #expect(pan.state == .possible)
    }

    @Test("G19: translation and velocity are a pan's (G13)")
    func translationAndVelocity() {
        let (g, pan) = setup(.left)
        var seen: [Point] = []
        pan.addHandler { seen.append($0.translation(in: nil)) }
        g.down(1, 4, 150, at: 1)
        for i in 1...10 {
            g.move(1, 4 + 6 * Double(i), 150 + Double(i), at: 1 + 0.01 * Double(i))
        }
        #expect(seen.first == Point(x: 12, y: 2), "measured from where the finger landed")
        #expect(pan.translation(in: nil) == Point(x: 60, y: 10))
        let v = pan.velocity(in: nil)
        #expect(abs(v.x - 600) < 1e-6 && abs(v.y - 100) < 1e-6)
        #expect(pan.location(in: nil) == Point(x: 64, y: 160))
        g.up(1, at: 1.12)
        #expect(g.actions.last == "edge.ended")
    }

    @Test("G19: the edge is the window's, not the view's: a view in the middle sees no edge pan")
    func windowEdges() {
        let g = GestureHarness()
        let view = g.addView("inner", Rect(x: 100, y: 100, width: 200, height: 100))
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = .all
        view.addGestureRecognizer(g.watch(pan, "edge"))
        g.drag(1, from: Point(x: 102, y: 150), to: Point(x: 180, y: 150), at: 1)
        #expect(g.actions.isEmpty)
    }
}
