import Testing
@testable import TouchKit

/// Names a view for zooming and records the zoom calls.
final class ZoomLog: ScrollViewDelegate {
    var view: View?
    var calls: [String] = []
    func viewForZooming(in scrollView: ScrollView) -> View? { view }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) { calls.append("willBeginZooming") }
    func scrollViewDidZoom(_ scrollView: ScrollView) { if calls.last != "zoom" { calls.append("zoom") } }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        calls.append("didEndZooming(\(scale))")
    }
}

@Suite("Scroll view zoom (S10-S12)")
struct ScrollViewZoomTests {
    /// A 400 x 300 window filled by a scroll view whose content is one 400 x 300 view, zoomable
    /// from 0.5 to 4.
    func setup() -> (GestureHarness, ScrollView, View, ZoomLog) {
        let g = GestureHarness()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        g.window.addSubview(scroll)
        let content = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        scroll.addSubview(content)
        scroll.contentSize = content.bounds.size
        scroll.minimumZoomScale = 0.5
        scroll.maximumZoomScale = 4
        let log = ZoomLog()
        log.view = content
        scroll.delegate = log
        return (g, scroll, content, log)
    }

    /// Two fingers from `a` and `b` moving to `a2` and `b2` in `steps`, then lifting.
    func pinch(_ g: GestureHarness, _ a: Point, _ b: Point, to a2: Point, _ b2: Point, at time: Double, steps: Int = 6, lift: Bool = true) {
        g.frame(at: time) { input, t in
            input.down(.touch(1), at: a, time: t)
            input.down(.touch(2), at: b, time: t)
        }
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            g.frame(at: time + Double(i) * 0.02) { input, t in
                input.motion(.touch(1), at: Point(x: a.x + (a2.x - a.x) * f, y: a.y + (a2.y - a.y) * f), time: t)
                input.motion(.touch(2), at: Point(x: b.x + (b2.x - b.x) * f, y: b.y + (b2.y - b.y) * f), time: t)
            }
        }
        guard lift else { return }
        g.frame(at: time + Double(steps + 1) * 0.02) { input, t in
            input.up(.touch(1), time: t)
            input.up(.touch(2), time: t)
        }
    }

    @Test("S10: the zoom scale is the zoom view's transform, the content size follows it, and the limits hold")
    func zoomScale() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        // The window and the delegate are held weakly by the views.
        defer { withExtendedLifetime((g, log)) {} }
        #expect(scroll.zoomScale == 1 && scroll.pinchGestureRecognizer != nil)
        scroll.zoomScale = 2
        #expect(content.transform == AffineTransform(scaleX: 2, y: 2))
        #expect(scroll.contentSize == Size(width: 800, height: 600))
        #expect(content.frame == Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(scroll.contentOffset == Point(x: 200, y: 150), "about the middle of what was shown")
        scroll.zoomScale = 10
        #expect(scroll.zoomScale == 4)
        scroll.zoomScale = 0.1
        #expect(scroll.zoomScale == 0.5 && scroll.contentOffset == .zero)
    }

    @Test("S10: zoom(to:) fits a rectangle of the zoom view, centred; equal limits leave no pinch, no delegate view no zoom")
    func zoomToRect() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime(g) {} }
        scroll.zoom(to: Rect(x: 100, y: 75, width: 100, height: 75), animated: false)
        #expect(scroll.zoomScale == 4)
        #expect(scroll.contentOffset == Point(x: 400, y: 300), "\(scroll.contentOffset) \(content.frame) \(scroll.bounds)")
        #expect(content.convert(Point(x: 150, y: 112.5), to: nil) == Point(x: 200, y: 150))
        scroll.maximumZoomScale = 0.5
        #expect(scroll.pinchGestureRecognizer == nil)
        log.view = nil
        scroll.setZoomScale(3, animated: false)
        #expect(scroll.zoomScale == 1)
    }

    @Test("S11: a pinch zooms about the point between the fingers, which stays under them, and the delegate hears it")
    func pinchZooms() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        pinch(g, Point(x: 150, y: 100), Point(x: 250, y: 100), to: Point(x: 100, y: 100), Point(x: 300, y: 100), at: 1, lift: false)
        #expect(abs(scroll.zoomScale - 2) < 0.01, "\(scroll.zoomScale)")
        let under = content.convert(Point(x: 200, y: 100), from: nil)
        #expect(abs(under.x - 200) < 0.5 && abs(under.y - 100) < 0.5, "the content's (200, 100) stays between the fingers: \(under)")
        #expect(scroll.isZooming)
        g.frame(at: 2) { input, t in input.up(.touch(1), time: t); input.up(.touch(2), time: t) }
        #expect(!scroll.isZooming)
        #expect(log.calls.first == "willBeginZooming" && log.calls.contains("zoom") && log.calls.last?.hasPrefix("didEndZooming(") == true)
    }

    @Test("S11: two fingers moving together while they pinch move the content with them")
    func pinchPans() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime(log) {} }
        scroll.zoomScale = 2
        let before = content.convert(Point(x: 200, y: 150), from: nil)
        pinch(g, Point(x: 150, y: 150), Point(x: 250, y: 150), to: Point(x: 110, y: 110), Point(x: 210, y: 110), at: 1, lift: false)
        let after = content.convert(Point(x: 160, y: 110), from: nil)
        #expect(abs(after.x - before.x) < 1 && abs(after.y - before.y) < 1, "what was between the fingers still is: \(before) \(after)")
    }

    @Test("S12: past the largest scale the zoom is held back and springs back to it; without bouncesZoom it stops there")
    func bounceZoom() {
        for bounces in [true, false] {
            let (g, scroll, _, log) = setup()
            defer { withExtendedLifetime((g, log)) {} }
            scroll.bouncesZoom = bounces
            scroll.zoomScale = 3
            // Fingers 50 pt apart to 400: eight times.
            pinch(g, Point(x: 175, y: 150), Point(x: 225, y: 150), to: Point(x: 0, y: 150), Point(x: 400, y: 150), at: 1, lift: false)
            if bounces {
                #expect(scroll.zoomScale > 4 && scroll.zoomScale < 8, "\(scroll.zoomScale)")
            } else {
                #expect(scroll.zoomScale == 4)
            }
            g.frame(at: 2) { input, t in input.up(.touch(1), time: t); input.up(.touch(2), time: t) }
            #expect(scroll.isZoomBouncing == bounces)
            g.wait(until: 3)
            #expect(scroll.zoomScale == 4 && !scroll.isZoomBouncing)
            #expect(log.calls.last == "didEndZooming(4.0)")
            let range = scroll.offsetRange
            #expect(scroll.contentOffset.x >= range.min.x && scroll.contentOffset.x <= range.max.x)
        }
    }

    @Test("S10 S12: while a zoom animates (a spring back, an animated setZoomScale), the view knows the very scale and offset it ends at; none once it has")
    func zoomAnimationTarget() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        #expect(scroll.zoomAnimationTarget == nil)
        scroll.zoomScale = 3
        pinch(g, Point(x: 175, y: 150), Point(x: 225, y: 150), to: Point(x: 0, y: 150), Point(x: 400, y: 150), at: 1, lift: false)
        #expect(scroll.zoomAnimationTarget == nil, "a pinch is no animation")
        g.frame(at: 2) { input, t in input.up(.touch(1), time: t); input.up(.touch(2), time: t) }
        let bounce = scroll.zoomAnimationTarget
        #expect(bounce?.zoomScale == 4 && scroll.zoomScale > 4)
        g.wait(until: 3)
        #expect(bounce?.zoomScale == scroll.zoomScale && bounce?.contentOffset == scroll.contentOffset,
                "ended at \(scroll.zoomScale) \(scroll.contentOffset), expected \(String(describing: bounce))")
        #expect(scroll.zoomAnimationTarget == nil)
        // An animated zoom out to the smallest scale: where the offset is clamped into range.
        scroll.setZoomScale(0.5, animated: true)
        g.wait(until: 3.05)
        let out = scroll.zoomAnimationTarget
        #expect(out?.zoomScale == 0.5 && scroll.zoomScale > 0.5)
        g.wait(until: 4)
        #expect(out?.zoomScale == scroll.zoomScale && out?.contentOffset == scroll.contentOffset,
                "ended at \(scroll.zoomScale) \(scroll.contentOffset), expected \(String(describing: out))")
    }

    @Test("S12: when the desktop asks for less motion, a pinch past the limit is at the limit as the fingers lift")
    func reduceMotion() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime(log) {} }
        g.window.desktopAppearance = Appearance(reduceMotion: true)
        scroll.zoomScale = 3
        pinch(g, Point(x: 175, y: 150), Point(x: 225, y: 150), to: Point(x: 0, y: 150), Point(x: 400, y: 150), at: 1)
        #expect(scroll.zoomScale == 4 && !scroll.isZoomBouncing)
        #expect(log.calls.last == "didEndZooming(4.0)")
    }
}
