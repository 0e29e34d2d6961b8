import Testing
@testable import TouchKit

/// Records what a scroll view tells its delegate.
final class ScrollLog: ScrollViewDelegate {
    var calls: [String] = []
    func scrollViewDidScroll(_ scrollView: ScrollView) { if calls.last != "scroll" { calls.append("scroll") } }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { calls.append("willBeginDragging") }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        calls.append("didEndDragging(\(decelerate))")
    }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { calls.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { calls.append("didEndScrollingAnimation") }
}

/// A scroll view that answers the content questions as a test says.
final class AskingScrollView: ScrollView {
    var mayBegin = true
    var mayCancel: Bool?
    override func touchesShouldBegin(_ touches: Set<Touch>, with event: Event?, in view: View) -> Bool { mayBegin }
    override func touchesShouldCancel(in view: View) -> Bool { mayCancel ?? super.touchesShouldCancel(in: view) }
}

@Suite("Scroll view (S1-S9)")
struct ScrollViewTests {
    /// A 400 x 300 window filled by a scroll view over 1,000 x 800 points of content, with a
    /// recording view at the content's (500, 400).
    func setup(_ scroll: ScrollView = ScrollView()) -> (GestureHarness, ScrollView, RecordingView, ScrollLog) {
        let g = GestureHarness()
        scroll.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        scroll.contentSize = Size(width: 1_000, height: 800)
        g.window.addSubview(scroll)
        let content = g.addView("content", Rect(x: 500, y: 400, width: 100, height: 100), to: scroll)
        let log = ScrollLog()
        scroll.delegate = log
        return (g, scroll, content, log)
    }

    @Test("S1: the offset is the bounds' origin: the content stays put, a touch lands on what is shown there")
    func offsetMovesWhatIsShown() {
        let (g, scroll, content, _) = setup()
        defer { withExtendedLifetime(g) {} }
        #expect(g.window.hitTest(Point(x: 150, y: 150), with: nil) === scroll)
        scroll.contentOffset = Point(x: 400, y: 300)
        #expect(scroll.bounds.origin == Point(x: 400, y: 300))
        #expect(content.frame.origin == Point(x: 500, y: 400))
        #expect(g.window.hitTest(Point(x: 150, y: 150), with: nil) === content)
        #expect(content.convert(Point(x: 0, y: 0), to: nil) == Point(x: 100, y: 100))
    }

    @Test("S2: offsets rest between minus the insets and the content's far edges plus the insets, less the view's size")
    func range() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        #expect(scroll.offsetRange.min == Point(x: 0, y: 0) && scroll.offsetRange.max == Point(x: 600, y: 500))
        scroll.contentInset = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        #expect(scroll.offsetRange.min == Point(x: -20, y: -10) && scroll.offsetRange.max == Point(x: 640, y: 530))
        scroll.contentOffset = Point(x: 600, y: 500)
        scroll.contentSize = Size(width: 500, height: 200)
        #expect(scroll.contentOffset == Point(x: 140, y: -10), "a smaller content brings the offset back into range")
    }

    @Test("S3: a drag moves the content with the finger once past the pan's threshold, and the delegate hears of it")
    func dragScrolls() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.drag(1, from: Point(x: 300, y: 250), to: Point(x: 200, y: 150), at: 1, steps: 5, interval: 0.1, lift: false)
        #expect(scroll.contentOffset == Point(x: 100, y: 100))
        #expect(scroll.isDragging)
        g.up(1, at: 2)
        #expect(!scroll.isDragging)
        #expect(log.calls.prefix(2) == ["willBeginDragging", "scroll"])
        #expect(log.calls.last == "didEndDragging(false)", "\(log.calls)")
    }

    @Test("S3: isTracking from the finger landing until it lifts, dragging or not")
    func tracking() {
        let (g, scroll, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        #expect(!scroll.isTracking)
        g.down(1, 100, 100, at: 1)
        #expect(scroll.isTracking && !scroll.isDragging)
        g.move(1, 100, 50, at: 1.1)
        #expect(scroll.isTracking && scroll.isDragging)
        g.up(1, at: 1.2)
        #expect(!scroll.isTracking)
    }

    @Test("S3: only along an axis where the content is larger, unless alwaysBounce says so; not at all without isScrollEnabled")
    func axes() {
        let (g, scroll, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        scroll.contentSize = Size(width: 1_000, height: 300)
        g.drag(1, from: Point(x: 300, y: 250), to: Point(x: 250, y: 200), at: 1, steps: 5, interval: 0.1)
        #expect(scroll.contentOffset == Point(x: 50, y: 0))
        scroll.isScrollEnabled = false
        g.drag(2, from: Point(x: 300, y: 250), to: Point(x: 200, y: 250), at: 3, steps: 5, interval: 0.1)
        #expect(scroll.contentOffset == Point(x: 50, y: 0))
    }

    @Test("S4: a flick moves on, slowing down, and comes to rest; the delegate hears willDecelerate and the end")
    func flick() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.drag(1, from: Point(x: 300, y: 250), to: Point(x: 300, y: 150), at: 1, steps: 5, interval: 0.01)
        let lifted = scroll.contentOffset.y
        #expect(scroll.isDecelerating)
        #expect(log.calls.last == "didEndDragging(true)")
        g.wait(until: 1.2)
        let soon = scroll.contentOffset.y
        g.wait(until: 10)
        #expect(lifted < soon && soon < scroll.contentOffset.y, "\(lifted) \(soon) \(scroll.contentOffset.y)")
        #expect(!scroll.isDecelerating)
        #expect(log.calls.last == "didEndDecelerating")
        #expect(scroll.contentOffset.y <= scroll.offsetRange.max.y)
    }

    @Test("S4: with the fast rate a flick travels less far")
    func fastRate() {
        var travelled: [Double] = []
        for rate in [DecelerationRate.normal, .fast] {
            let (g, scroll, _, _) = setup()
            defer { withExtendedLifetime(g) {} }
            scroll.contentSize = Size(width: 400, height: 100_000)
            scroll.decelerationRate = rate
            g.drag(1, from: Point(x: 300, y: 250), to: Point(x: 300, y: 150), at: 1, steps: 5, interval: 0.01)
            g.wait(until: 20)
            travelled.append(scroll.contentOffset.y)
        }
        #expect(travelled[0] > travelled[1] * 2, "\(travelled)")
    }

    @Test("S5: past an edge the content follows less and less, never a view's size out, and springs back when released")
    func rubberBand() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.drag(1, from: Point(x: 200, y: 10), to: Point(x: 200, y: 290), at: 1, steps: 4, interval: 0.2, lift: false)
        let shown = -scroll.contentOffset.y
        #expect(shown > 0 && shown < 280 && shown < 300, "pulled 280 pt down, shows \(shown)")
        g.up(1, at: 2)
        #expect(scroll.isDecelerating)
        g.wait(until: 2 + ScrollMotion.springDuration + 0.05)
        #expect(scroll.contentOffset == .zero)
        #expect(log.calls.last == "didEndDecelerating")
    }

    @Test("S5: without bounces a drag stops at the edge")
    func noBounce() {
        let (g, scroll, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        scroll.bounces = false
        g.drag(1, from: Point(x: 200, y: 10), to: Point(x: 200, y: 290), at: 1, steps: 4, interval: 0.2, lift: false)
        #expect(scroll.contentOffset == .zero)
        g.up(1, at: 2)
        #expect(!scroll.isDecelerating)
    }

    @Test("S6: a touch held still on the content reaches it after the delay; one that drags at once never does")
    func delaysContentTouches() {
        let (g, scroll, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        scroll.contentOffset = Point(x: 400, y: 300)
        g.down(1, 150, 150, at: 1)
        #expect(g.log.entries.isEmpty, "held while a drag may begin")
        g.wait(until: 1 + ContentTouchDelay.delay + 0.01)
        #expect(g.log.summary == ["content.began(1)"])
        g.up(1, at: 1.5)
        g.log.clear()
        g.drag(2, from: Point(x: 150, y: 150), to: Point(x: 150, y: 100), at: 2, steps: 5, interval: 0.01)
        #expect(g.log.entries.isEmpty, "the drag had it: \(g.log.entries)")
        #expect(scroll.contentOffset.y > 300)
    }

    @Test("S6: a quick tap on the content reaches it at once, began and ended together, without waiting for the delay")
    func tapGoesThrough() {
        let (g, scroll, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        scroll.contentOffset = Point(x: 400, y: 300)
        g.tap(1, 150, 150, at: 1, duration: 0.05)
        #expect(g.log.entries.map(\.method) == [.began, .ended])
    }

    @Test("S6: without delaysContentTouches the content gets the touch as it lands; touchesShouldBegin false keeps it away")
    func noDelayAndRefusal() {
        let scroll = AskingScrollView()
        let (g, _, _, _) = setup(scroll)
        defer { withExtendedLifetime(g) {} }
        scroll.contentOffset = Point(x: 400, y: 300)
        scroll.delaysContentTouches = false
        g.down(1, 150, 150, at: 1)
        #expect(g.log.entries.map(\.method) == [.began])
        g.up(1, at: 1.1)
        g.log.clear()
        scroll.mayBegin = false
        g.tap(2, 150, 150, at: 2)
        g.wait(until: 3)
        #expect(g.log.entries.isEmpty, "\(g.log.entries)")
    }

    @Test("S7: a drag after the content got the touch cancels it there and scrolls; with canCancelContentTouches false it does not scroll")
    func cancelContentTouches() {
        for canCancel in [true, false] {
            let (g, scroll, _, _) = setup()
            defer { withExtendedLifetime(g) {} }
            scroll.contentOffset = Point(x: 400, y: 300)
            scroll.canCancelContentTouches = canCancel
            g.down(1, 150, 150, at: 1)
            g.wait(until: 1.3)
            for step in 1...5 { g.move(1, 150, 150 - Double(step) * 10, at: 1.3 + Double(step) * 0.02) }
            g.up(1, at: 1.5)
            let methods = g.log.entries.map(\.method)
            if canCancel {
                // Moves short of the pan's threshold still reach the content.
                #expect(methods.first == .began && methods.last == .cancelled && !methods.contains(.ended), "\(methods)")
                #expect(scroll.contentOffset.y > 300)
            } else {
                #expect(methods.first == .began && methods.last == .ended && !methods.contains(.cancelled), "\(methods)")
                #expect(scroll.contentOffset == Point(x: 400, y: 300))
            }
        }
    }

    @Test("S7: a control keeps its touch (touchesShouldCancel is false for it); a scroll view may say otherwise")
    func controlsKeepTheirTouch() {
        for mayCancel in [nil, true] as [Bool?] {
            let scroll = AskingScrollView()
            scroll.mayCancel = mayCancel
            let (g, _, _, _) = setup(scroll)
            defer { withExtendedLifetime(g) {} }
            let button = Button(frame: Rect(x: 100, y: 100, width: 100, height: 60))
            scroll.addSubview(button)
            g.down(1, 150, 130, at: 1)
            g.wait(until: 1.3)
            for step in 1...5 { g.move(1, 150, 130 - Double(step) * 10, at: 1.3 + Double(step) * 0.02) }
            g.up(1, at: 1.5)
            #expect((scroll.contentOffset.y > 0) == (mayCancel == true), "\(String(describing: mayCancel)): \(scroll.contentOffset)")
        }
    }

    @Test("S8: an animated offset glides there over a quarter of a second and says so; not animated, it is there at once")
    func animatedOffset() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        scroll.setContentOffset(Point(x: 200, y: 100), animated: true)
        #expect(scroll.contentOffset == .zero)
        g.wait(until: ScrollMotion.glideDuration / 2)
        #expect(scroll.contentOffset.x > 0 && scroll.contentOffset.x < 200)
        g.wait(until: ScrollMotion.glideDuration + 0.02)
        #expect(scroll.contentOffset == Point(x: 200, y: 100))
        #expect(log.calls.last == "didEndScrollingAnimation")
        scroll.setContentOffset(Point(x: 10, y: 10), animated: false)
        #expect(scroll.contentOffset == Point(x: 10, y: 10))
    }

    @Test("S9: a wheel scrolls the scroll view under the pointer at once, never past its edges; elsewhere it scrolls nothing")
    func wheel() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.input.scroll(by: Point(x: 0, y: 15), at: Point(x: 100, y: 100), time: 1, source: .wheel)
        #expect(scroll.contentOffset == Point(x: 0, y: 15))
        g.input.scroll(by: Point(x: 0, y: -100), at: Point(x: 100, y: 100), time: 1.1, source: .wheel)
        #expect(scroll.contentOffset == .zero)
        #expect(!scroll.isDecelerating && !scroll.isDragging)
        #expect(log.calls == ["scroll"])
        scroll.frame = Rect(x: 0, y: 0, width: 200, height: 300)
        g.input.scroll(by: Point(x: 0, y: 15), at: Point(x: 300, y: 100), time: 2, source: .wheel)
        #expect(scroll.contentOffset == .zero, "the pointer is beside it")
    }

    @Test("S9: nested scroll views: the innermost that scrolls the wheel's way takes it")
    func nested() {
        let (g, outer, _, _) = setup()
        defer { withExtendedLifetime(g) {} }
        let inner = ScrollView(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        inner.contentSize = Size(width: 900, height: 100)
        outer.addSubview(inner)
        g.input.scroll(by: Point(x: 0, y: 20), at: Point(x: 50, y: 50), time: 1, source: .wheel)
        #expect(inner.contentOffset == .zero && outer.contentOffset == Point(x: 0, y: 20), "vertical: the outer")
        outer.contentOffset = .zero
        g.input.scroll(by: Point(x: 30, y: 0), at: Point(x: 50, y: 50), time: 2, source: .wheel)
        #expect(inner.contentOffset == Point(x: 30, y: 0) && outer.contentOffset == .zero, "horizontal: the inner")
    }

    @Test("S9: a touchpad drags the content as fingers do, past an edge held back, and lifting moves it on or springs it back")
    func touchpad() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        for i in 1...10 { g.input.scroll(by: Point(x: 0, y: 8), at: Point(x: 100, y: 100), time: 1 + Double(i) * 0.01, source: .touchpad) }
        #expect(scroll.contentOffset == Point(x: 0, y: 80))
        #expect(scroll.isDragging)
        g.input.scrollEnded(time: 1.11)
        #expect(!scroll.isDragging && scroll.isDecelerating, "800 pt/s moves on")
        g.wait(until: 10)
        #expect(scroll.contentOffset.y > 200 && !scroll.isDecelerating, "\(scroll.contentOffset)")
        #expect(log.calls.first == "willBeginDragging" && log.calls.contains("didEndDragging(true)") && log.calls.last == "didEndDecelerating")
        scroll.contentOffset = .zero
        for i in 1...10 { g.input.scroll(by: Point(x: 0, y: -30), at: Point(x: 100, y: 100), time: 20 + Double(i) * 0.05, source: .touchpad) }
        let shown = -scroll.contentOffset.y
        #expect(shown > 0 && shown < 300, "300 pt past the top shows \(shown)")
        g.wait(until: 21)
        g.input.scrollEnded(time: 21)
        g.wait(until: 22)
        #expect(scroll.contentOffset == .zero, "sprung back")
    }
}
