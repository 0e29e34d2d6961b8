import Testing
@testable import TouchKit

@Suite("Hover (G20)")
struct HoverTests {
    static let pointer = TouchInput.ID(source: .pointer, number: 0)
    static let pen = TouchInput.ID(source: .tablet, number: 1)

    /// A canvas filling the 400 × 300 window with a 100 × 100 pad at (200, 100) in it; a hover
    /// recognizer on the pad.
    func setup() -> (GestureHarness, RecordingView, HoverGestureRecognizer) {
        let g = GestureHarness()
        let canvas = g.addView("canvas")
        let pad = g.addView("pad", Rect(x: 200, y: 100, width: 100, height: 100), to: canvas)
        let hover = HoverGestureRecognizer()
        pad.addGestureRecognizer(g.watch(hover, "hover"))
        return (g, pad, hover)
    }

    func hover(_ g: GestureHarness, _ x: Double, _ y: Double, at t: Double, by id: TouchInput.ID = pointer) {
        g.clock.advance(to: t)
        g.input.hover(id, at: Point(x: x, y: y), time: t)
    }

    @Test("G20: began on entering the view, changed while moving over it, ended on leaving it")
    func enterMoveLeave() {
        let (g, _, hover) = setup()
        self.hover(g, 100, 150, at: 1)
        #expect(g.actions.isEmpty, "outside the pad")
        self.hover(g, 210, 150, at: 1.01)
        self.hover(g, 220, 160, at: 1.02)
        self.hover(g, 350, 160, at: 1.03)
        #expect(g.actions == ["hover.began", "hover.changed", "hover.ended"])
        #expect(hover.state == .possible, "reset once the hover ended (G3)")
    }

    @Test("G20: location(in:) is the hovering point in the given view's coordinates")
    func location() {
        let (g, pad, hover) = setup()
        var seen: [Point] = []
        hover.addHandler { seen.append($0.location(in: pad)) }
        self.hover(g, 210, 150, at: 1)
        #expect(hover.location(in: nil) == Point(x: 210, y: 150))
        #expect(hover.location(in: pad) == Point(x: 10, y: 50))
        #expect(hover.numberOfTouches == 1 && hover.location(ofTouch: 0, in: pad) == Point(x: 10, y: 50))
        self.hover(g, 250, 120, at: 1.01)
        g.input.hoverEnded(Self.pointer, time: 1.02)
        #expect(seen == [Point(x: 10, y: 50), Point(x: 50, y: 20), Point(x: 50, y: 20)],
                "the ended action sees the last place")
        #expect(hover.numberOfTouches == 0)
    }

    @Test("G20: hoverEnded (the pointer left the window, the pen went out of range) ends it")
    func endedByHost() {
        let (g, _, _) = setup()
        self.hover(g, 250, 150, at: 1, by: Self.pen)
        g.input.hoverEnded(Self.pen, time: 1.1)
        g.input.hoverEnded(Self.pen, time: 1.2)
        #expect(g.actions == ["hover.began", "hover.ended"], "a second end is ignored")
    }

    @Test("G20: the recognizers of the view under the point and its ancestors hover, others not")
    func ancestors() {
        let (g, pad, _) = setup()
        let outer = g.watch(HoverGestureRecognizer(), "outer")
        pad.superview?.addGestureRecognizer(outer)
        self.hover(g, 100, 150, at: 1)
        self.hover(g, 250, 150, at: 1.01)
        self.hover(g, 100, 150, at: 1.02)
        #expect(g.actions == ["outer.began", "hover.began", "outer.changed", "hover.ended", "outer.changed"],
                "the view left hears of it first, then those still hovered; the nearest view first")
    }

    @Test("G20: a hover delivers nothing to views and leaves touch delivery alone")
    func touchesUndisturbed() {
        let (g, _, _) = setup()
        let pan = g.watch(PanGestureRecognizer(), "pan")
        g.window.subviews.first?.addGestureRecognizer(pan)
        self.hover(g, 250, 150, at: 1)
        #expect(g.summary.isEmpty)
        g.drag(1, from: Point(x: 250, y: 150), to: Point(x: 300, y: 150), at: 1.1, steps: 2)
        #expect(g.actions == ["hover.began", "pan.began", "pan.changed", "pan.ended"])
        #expect(g.summary == ["pad.began(1)", "pad.cancelled(1)"])
        self.hover(g, 260, 150, at: 1.3)
        #expect(g.actions.last == "hover.changed")
    }

    @Test("G20: one device at a time: a second one over the view is not followed")
    func oneDevice() {
        let (g, _, hover) = setup()
        self.hover(g, 250, 150, at: 1, by: Self.pointer)
        self.hover(g, 260, 160, at: 1.01, by: Self.pen)
        #expect(hover.location(in: nil) == Point(x: 250, y: 150))
        g.input.hoverEnded(Self.pen, time: 1.02)
        #expect(g.actions == ["hover.began"])
        g.input.hoverEnded(Self.pointer, time: 1.03)
        self.hover(g, 260, 160, at: 1.04, by: Self.pen)
        #expect(g.actions == ["hover.began", "hover.ended", "hover.began"])
    }

    @Test("G20: a delegate that refuses keeps it from beginning; disabling it mid-hover cancels it (G16)")
    func vetoAndDisable() {
        let (g, _, hover) = setup()
        let delegate = TestDelegate()
        delegate.shouldBegin = { _ in false }
        hover.delegate = delegate
        self.hover(g, 250, 150, at: 1)
        self.hover(g, 255, 150, at: 1.01)
        #expect(g.actions.isEmpty)
        g.input.hoverEnded(Self.pointer, time: 1.02)
        delegate.shouldBegin = { _ in true }
        self.hover(g, 250, 150, at: 1.1)
        hover.isEnabled = false
        self.hover(g, 255, 150, at: 1.11)
        #expect(g.actions == ["hover.began", "hover.cancelled"])
    }

    @Test("G20: removing it from its view mid-hover cancels it (G16) and it hears no more of that hover")
    func removed() {
        let (g, pad, hover) = setup()
        self.hover(g, 250, 150, at: 1)
        pad.removeGestureRecognizer(hover)
        #expect(g.actions == ["hover.began", "hover.cancelled"])
        self.hover(g, 255, 150, at: 1.01)
        g.input.hoverEnded(Self.pointer, time: 1.02)
        #expect(g.actions == ["hover.began", "hover.cancelled"])
    }

    @Test("G20: a hover recognizer takes no touches")
    func noTouches() {
        let (g, _, hover) = setup()
        g.drag(1, from: Point(x: 250, y: 150), to: Point(x: 280, y: 150), at: 1)
        #expect(g.actions.isEmpty && hover.state == .possible)
    }

    @Test("G20: hover calls are recorded like the others, and replay the same")
    func recorded() {
        let (g, _, _) = setup()
        var recorded: [InputEvent] = []
        g.input.recorder = { recorded.append($0) }
        self.hover(g, 250, 150, at: 1)
        g.input.hoverEnded(Self.pointer, time: 1.1)
        #expect(recorded == [.hover(Self.pointer, Point(x: 250, y: 150), time: 1), .hoverEnded(Self.pointer, time: 1.1)])
        g.input.recorder = nil
        for event in recorded { g.input.apply(event) }
        #expect(g.actions == ["hover.began", "hover.ended", "hover.began", "hover.ended"])
    }
}
