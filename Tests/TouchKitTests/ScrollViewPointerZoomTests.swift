import Testing
@testable import TouchKit

@Suite("Scroll view zoom by the pointer and by the app (S13-S16)")
struct ScrollViewPointerZoomTests {
    /// The zoom tests' scene: a 400 x 300 scroll view filling the window, its content one
    /// 400 x 300 view, zoomable from 0.5 to 4.
    func setup() -> (GestureHarness, ScrollView, View, ZoomLog) {
        ScrollViewZoomTests().setup()
    }

    /// Where the content's `point` shows in the window.
    func shown(_ point: Point, of content: View) -> Point { content.convert(point, to: nil) }

    func near(_ a: Point, _ b: Point, within tolerance: Double = 0.01) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test("S13: a touchpad's pinch zooms about the pointer, which keeps its point of the content, and the delegate hears it begin, go on and end")
    func pinchZoomsAboutThePointer() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        scroll.zoomScale = 2
        log.calls = []
        let pointer = Point(x: 120, y: 90)
        let under = content.convert(pointer, from: nil)
        g.input.pinchBegan(at: pointer, time: 1)
        #expect(scroll.isZooming)
        g.input.pinchChanged(scale: 1.25, translation: .zero, time: 1.01)
        g.input.pinchChanged(scale: 1.5, translation: .zero, time: 1.02)
        #expect(abs(scroll.zoomScale - 3) < 1e-9, "twice as far apart at 1.5: 2 x 1.5")
        #expect(near(shown(under, of: content), pointer), "\(shown(under, of: content))")
        g.input.pinchEnded(time: 1.03, cancelled: false)
        #expect(!scroll.isZooming && !scroll.isZoomBouncing)
        #expect(log.calls == ["willBeginZooming", "zoom", "didEndZooming(3.0)"])
    }

    @Test("S13: the pinch's deltas move the content with the fingers' middle as it zooms")
    func pinchPansByTheDeltas() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        scroll.zoomScale = 2
        let pointer = Point(x: 200, y: 150)
        let under = content.convert(pointer, from: nil)
        g.input.pinchBegan(at: pointer, time: 1)
        g.input.pinchChanged(scale: 1, translation: Point(x: -30, y: -20), time: 1.01)
        g.input.pinchChanged(scale: 1.5, translation: Point(x: -10, y: -20), time: 1.02)
        #expect(near(shown(under, of: content), Point(x: 160, y: 110)), "\(shown(under, of: content))")
        g.input.pinchEnded(time: 1.03, cancelled: false)
        #expect(near(shown(under, of: content), Point(x: 160, y: 110)), "within range: nothing springs back")
    }

    @Test("S13 S12: a touchpad's pinch past the largest scale is held back and springs back to it when it ends, cancelled or not; without bouncesZoom it stops there")
    func pinchBouncesAtTheLimit() {
        for (bounces, cancelled) in [(true, false), (true, true), (false, false)] {
            let (g, scroll, _, log) = setup()
            defer { withExtendedLifetime((g, log)) {} }
            scroll.bouncesZoom = bounces
            scroll.zoomScale = 3
            g.input.pinchBegan(at: Point(x: 200, y: 150), time: 1)
            g.input.pinchChanged(scale: 8, translation: .zero, time: 1.01)
            if bounces {
                #expect(scroll.zoomScale > 4 && scroll.zoomScale < 24, "\(scroll.zoomScale)")
            } else {
                #expect(scroll.zoomScale == 4)
            }
            g.input.pinchEnded(time: 1.02, cancelled: cancelled)
            #expect(scroll.isZoomBouncing == bounces)
            g.wait(until: 2)
            #expect(scroll.zoomScale == 4 && !scroll.isZoomBouncing)
            #expect(log.calls.last == "didEndZooming(4.0)")
            let range = scroll.offsetRange
            #expect(scroll.contentOffset.x >= range.min.x && scroll.contentOffset.x <= range.max.x)
        }
    }

    @Test("S13: the pinch goes to the innermost scroll view under the pointer that can zoom, even with its pinch recognizer off; over none, nothing zooms")
    func pinchFindsTheZoomingScrollView() {
        let (g, outer, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        outer.pinchGestureRecognizer?.isEnabled = false
        // A scroll view inside that scrolls but cannot zoom.
        let inner = ScrollView(frame: Rect(x: 0, y: 0, width: 200, height: 150))
        inner.contentSize = Size(width: 400, height: 300)
        outer.addSubview(inner)
        g.input.pinchBegan(at: Point(x: 50, y: 50), time: 1)
        g.input.pinchChanged(scale: 2, translation: .zero, time: 1.01)
        g.input.pinchEnded(time: 1.02, cancelled: false)
        #expect(outer.zoomScale == 2 && inner.zoomScale == 1)

        let plain = ScrollViewZoomTests().setup()
        defer { withExtendedLifetime(plain) {} }
        // No view for zooming: the scroll view cannot zoom.
        plain.3.view = nil
        plain.0.input.pinchBegan(at: Point(x: 50, y: 50), time: 1)
        plain.0.input.pinchChanged(scale: 2, translation: .zero, time: 1.01)
        #expect(plain.1.zoomScale == 1 && !plain.1.isZooming && plain.3.calls.isEmpty)
    }

    @Test("S14: a wheel's notch with Ctrl zooms at once about the pointer, each notch a whole zoom for the delegate, never past a limit or an edge")
    func wheelZooms() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        let pointer = Point(x: 100, y: 80)
        g.input.zoom(by: 1.1, at: pointer, time: 1, source: .wheel)
        #expect(abs(scroll.zoomScale - 1.1) < 1e-9 && !scroll.isZooming)
        #expect(near(shown(pointer, of: content), pointer))
        #expect(log.calls == ["willBeginZooming", "zoom", "didEndZooming(1.1)"])
        for i in 0..<20 { g.input.zoom(by: 1.1, at: pointer, time: 1.1 + Double(i) / 10, source: .wheel) }
        #expect(scroll.zoomScale == 4)
        let calls = log.calls.count
        g.input.zoom(by: 1.1, at: pointer, time: 4, source: .wheel)
        #expect(log.calls.count == calls, "at the limit a notch in is nothing")
        // Out, by the window's bottom right: the content never shows past its edges.
        for i in 0..<30 { g.input.zoom(by: 1 / 1.1, at: Point(x: 390, y: 290), time: 5 + Double(i) / 10, source: .wheel) }
        #expect(scroll.zoomScale == 0.5 && !scroll.isZoomBouncing)
        #expect(scroll.contentOffset == scroll.offsetRange.min)
    }

    @Test("S15: a touchpad's scroll with Ctrl zooms about the pointer as a pinch does, until its fingers lift; past a limit it springs back")
    func touchpadScrollZooms() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        let pointer = Point(x: 300, y: 200)
        g.input.zoom(by: 1.5, at: pointer, time: 1, source: .touchpad)
        g.input.zoom(by: 1.5, at: pointer, time: 1.01, source: .touchpad)
        #expect(abs(scroll.zoomScale - 2.25) < 1e-9 && scroll.isZooming)
        #expect(near(shown(pointer, of: content), pointer))
        g.input.zoom(by: 4, at: pointer, time: 1.02, source: .touchpad)
        #expect(scroll.zoomScale > 4, "held back past the limit: \(scroll.zoomScale)")
        g.input.pinchEnded(time: 1.03, cancelled: false)
        #expect(scroll.isZooming, "a pinch's end does not end a scroll's zoom")
        g.input.scrollEnded(time: 1.04)
        #expect(!scroll.isZooming && scroll.isZoomBouncing)
        g.wait(until: 2)
        #expect(scroll.zoomScale == 4 && log.calls.first == "willBeginZooming" && log.calls.last == "didEndZooming(4.0)")
        #expect(log.calls.filter { $0 == "willBeginZooming" }.count == 1)
    }

    @Test("S16: zoom(by:about:animated:) scales within the limits keeping the point given where it is, or the middle of what is shown")
    func zoomByAFactor() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        scroll.zoom(by: 2, about: Point(x: 100, y: 60), animated: false)
        #expect(scroll.zoomScale == 2 && near(shown(Point(x: 100, y: 60), of: content), Point(x: 100, y: 60)))
        // The scroll view's own coordinates: with the content scrolled, the point is where it shows.
        let point = Point(x: scroll.contentOffset.x + 300, y: scroll.contentOffset.y + 200)
        let under = content.convert(point, from: scroll)
        scroll.zoom(by: 1.5, about: point, animated: false)
        #expect(scroll.zoomScale == 3 && near(shown(under, of: content), Point(x: 300, y: 200)))
        let middle = content.convert(Point(x: 200, y: 150), from: nil)
        scroll.zoom(by: 10, animated: false)
        #expect(scroll.zoomScale == 4 && near(shown(middle, of: content), Point(x: 200, y: 150)))
        #expect(!log.calls.contains("willBeginZooming"), "a zoom the app asks for is no gesture")
    }

    @Test("S16: an animated zoom by a factor glides there over a quarter of a second; with less motion it is there at once")
    func zoomByAFactorAnimated() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.wait(until: 1)
        scroll.zoom(by: 2, animated: true)
        #expect(scroll.zoomScale == 1)
        g.wait(until: 1.1)
        #expect(scroll.zoomScale > 1 && scroll.zoomScale < 2)
        g.wait(until: 1.4)
        #expect(scroll.zoomScale == 2)
        // Pressed twice in quick succession: the second goes on from where the first is going.
        scroll.zoom(by: 1.2, animated: true)
        g.wait(until: 1.45)
        scroll.zoom(by: 1.2, animated: true)
        g.wait(until: 2)
        #expect(abs(scroll.zoomScale - 2.88) < 1e-9)
        g.window.desktopAppearance = Appearance(reduceMotion: true)
        scroll.zoom(by: 0.25, animated: true)
        #expect(abs(scroll.zoomScale - 0.72) < 1e-9)
    }

    @Test("S16: an animated zoom completed at once (the app quitting halfway) is at the scale asked for, the same point in the middle, and goes no further")
    func zoomAnimationCompleted() {
        let (g, scroll, content, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        g.wait(until: 1)
        let middle = content.convert(Point(x: 200, y: 150), from: nil)
        scroll.zoom(by: 2, animated: true)
        g.wait(until: 1.1)
        #expect(scroll.zoomScale > 1 && scroll.zoomScale < 2)
        scroll.completeZoomAnimation()
        #expect(scroll.zoomScale == 2 && near(shown(middle, of: content), Point(x: 200, y: 150)))
        g.wait(until: 2)
        #expect(scroll.zoomScale == 2)
        // With none under way it does nothing.
        scroll.completeZoomAnimation()
        #expect(scroll.zoomScale == 2)
    }

    @Test("S13-S15: the pointer's zoom calls are recorded as they come, and none while another zooms or the app ignores input")
    func recordedAndIgnored() {
        let (g, scroll, _, log) = setup()
        defer { withExtendedLifetime((g, log)) {} }
        var recorded: [InputEvent] = []
        g.input.recorder = { recorded.append($0) }
        g.input.pinchBegan(at: Point(x: 10, y: 20), time: 1)
        g.input.pinchChanged(scale: 1.5, translation: Point(x: 1, y: 2), time: 1.1)
        g.input.pinchEnded(time: 1.2, cancelled: true)
        g.input.zoom(by: 1.1, at: Point(x: 5, y: 6), time: 2, source: .wheel)
        #expect(recorded == [.pinchBegan(at: Point(x: 10, y: 20), time: 1),
                             .pinchChanged(scale: 1.5, translation: Point(x: 1, y: 2), time: 1.1),
                             .pinchEnded(time: 1.2, cancelled: true),
                             .zoom(1.1, at: Point(x: 5, y: 6), time: 2, source: .wheel)])
        let scale = scroll.zoomScale
        g.app.beginIgnoringInteractionEvents()
        g.input.zoom(by: 1.1, at: Point(x: 5, y: 6), time: 3, source: .wheel)
        g.input.pinchBegan(at: Point(x: 10, y: 20), time: 4)
        g.input.pinchChanged(scale: 2, translation: .zero, time: 4.1)
        #expect(scroll.zoomScale == scale && !scroll.isZooming)
    }
}
