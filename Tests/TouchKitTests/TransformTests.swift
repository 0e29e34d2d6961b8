#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TouchKit

@Suite("A view's transform and clipsToBounds (H8)")
struct TransformTests {
    func close(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    @Test("H8: a transform turns about the view's centre: convert(_:to:) and convert(_:from:) follow it")
    func conversions() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let view = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        window.addSubview(view)
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        // The top-left corner turns a quarter clockwise about the centre (150, 150).
        #expect(close(view.convert(Point(x: 0, y: 0), to: nil), Point(x: 200, y: 100)))
        #expect(close(view.convert(Point(x: 200, y: 100), from: nil), Point(x: 0, y: 0)))
        #expect(view.center == Point(x: 150, y: 150), "the centre stays")
        view.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(view.frame == Rect(x: 50, y: 50, width: 200, height: 200), "frame: the box of the scaled view")
        #expect(view.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil) == Rect(x: 50, y: 50, width: 20, height: 20))
        let child = View(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        view.addSubview(child)
        #expect(close(child.convert(Point(x: 0, y: 0), to: nil), Point(x: 70, y: 70)), "through every ancestor")
        #expect(close(child.convert(Point(x: 70, y: 70), from: nil), .zero))
    }

    @Test("H8: hit-testing and touch locations follow a rotated and a scaled view")
    func hitTestingAndLocations() throws {
        let h = Harness()
        let view = h.addView("turned", Rect(x: 100, y: 100, width: 100, height: 100))
        view.transform = AffineTransform(rotationAngle: .pi / 4)
        // The untransformed corner is outside the turned square; the turned square's top vertex
        // pokes out above the untransformed frame.
        #expect(h.window.hitTest(Point(x: 104, y: 104), with: nil) === h.window)
        #expect(h.window.hitTest(Point(x: 150, y: 85), with: nil) === view)
        view.transform = AffineTransform(scaleX: 2, y: 1)
        #expect(h.window.hitTest(Point(x: 60, y: 150), with: nil) === view)
        h.tapDown(1, 60, 150, at: 1)
        let touch = try #require(h.log.entries.first?.touches.first)
        #expect(close(touch.location(in: view), Point(x: 5, y: 50)))
        #expect(close(touch.location(in: nil), Point(x: 60, y: 150)))
    }

    @Test("H3, H8: a subview outside its superview's bounds gets no touches, whether the superview clips or not")
    func outsideBoundsIgnoresClipping() {
        let h = Harness()
        let parent = h.addView("parent", Rect(x: 0, y: 0, width: 100, height: 100))
        let child = h.addView("child", Rect(x: 80, y: 80, width: 100, height: 100), to: parent)
        for clips in [false, true] {
            parent.clipsToBounds = clips
            #expect(h.window.hitTest(Point(x: 150, y: 150), with: nil) === h.window)
            #expect(h.window.hitTest(Point(x: 90, y: 90), with: nil) === child)
        }
    }

    @Test("H8: drawing goes through the transform; clipsToBounds decides whether subviews show past the bounds")
    func drawing() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let parent = DrawingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = DrawingView(frame: Rect(x: 80, y: 80, width: 100, height: 100))
        parent.addSubview(child)
        window.addSubview(parent)
        let outside = Rect(x: 150, y: 150, width: 10, height: 10)
        window.render(outside, in: RecordingContext())
        #expect(child.drawnRects == [Rect(x: 70, y: 70, width: 10, height: 10)], "shown past the parent (UIKit's default)")
        #expect(parent.drawnRects.isEmpty, "its own drawing stays inside its bounds")
        child.drawnRects = []
        parent.clipsToBounds = true
        window.render(outside, in: RecordingContext())
        #expect(child.drawnRects.isEmpty, "clipped away")

        let turned = DrawingView(frame: Rect(x: 200, y: 100, width: 100, height: 100))
        turned.transform = AffineTransform(rotationAngle: .pi / 2)
        window.addSubview(turned)
        let ctx = RecordingContext()
        window.render(Rect(x: 200, y: 100, width: 100, height: 100), in: ctx)
        #expect(ctx.calls.contains(.concat(turned.transformToSuperview)))
        #expect(turned.drawnRects.count == 1)
    }

    @Test("H8: changing a transform repaints the old and the new area")
    func transformDirties() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let view = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        window.addSubview(view)
        _ = window.takeDirtyRegion()
        view.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 50, y: 50, width: 200, height: 200))
    }
}

@Suite("A pan in a transformed view (H8, G13)")
struct TransformedPanTests {
    @Test("H8, G13: translation(in:) and velocity(in:) are in the given view's turned and scaled coordinates")
    func panTranslation() {
        let g = GestureHarness()
        let view = g.addView("turned", Rect(x: 100, y: 100, width: 200, height: 100))
        view.transform = AffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.addGestureRecognizer(pan)
        g.down(1, 200, 150, at: 1)
        g.move(1, 200, 190, at: 1.1)  // 40 pt down the window: 20 pt along the view's +x
        let t = pan.translation(in: view)
        #expect(abs(t.x - 20) < 1e-9 && abs(t.y) < 1e-9)
        #expect(pan.translation(in: nil) == Point(x: 0, y: 40))
        #expect(pan.velocity(in: view).x > 0 && abs(pan.velocity(in: view).y) < 1e-9)
        pan.setTranslation(Point(x: 5, y: 0), in: view)
        #expect(pan.translation(in: nil) == Point(x: 0, y: 10))
        g.up(1, at: 1.2)
    }
}

@Suite("A pen's azimuth in a transformed view (H8, T13)")
struct TransformedAzimuthTests {
    @Test("H8, T13: azimuthAngle(in:) turns with the view: a pen leaning down the window leans along a quarter-turned view's +x")
    func azimuthInTurnedView() throws {
        let h = Harness()
        let view = h.addView("turned", Rect(x: 100, y: 100, width: 100, height: 100))
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        let pen = TouchInput.ID(source: .tablet, number: 0)
        h.input.report(pen, .tilt(xDegrees: 0, yDegrees: 30))
        h.input.down(pen, at: Point(x: 150, y: 150), time: 1, kind: .pencil, force: 0.5)
        h.input.frame()
        let touch = try #require(h.log.entries.first?.touches.first)
        #expect(abs(touch.azimuthAngle(in: nil) - .pi / 2) < 1e-9)
        #expect(abs(touch.azimuthAngle(in: view)) < 1e-9)
        let v = touch.azimuthUnitVector(in: view)
        #expect(abs(v.dx - 1) < 1e-9 && abs(v.dy) < 1e-9)
    }
}
