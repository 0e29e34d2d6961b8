import Testing
@testable import TouchKit

/// A view that records the rects it is asked to draw.
final class DrawingView: View {
    var drawnRects: [Rect] = []
    override func draw(_ rect: Rect, in context: GraphicsContext) {
        drawnRects.append(rect)
        context.setStrokeColor(.red)
        context.move(to: Point(x: 0, y: 0))
        context.addLine(to: Point(x: 5, y: 5))
        context.strokePath()
    }
}

@Suite("Dirty tracking and rendering")
struct RenderingTests {
    @Test("setNeedsDisplay accumulates window-space rects; the handler fires once per clean→dirty")
    func dirtyTracking() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        var requests = 0
        window.needsDisplayHandler = { requests += 1 }
        _ = window.takeDirtyRegion().bounds
        let view = View(frame: Rect(x: 50, y: 20, width: 40, height: 40))
        window.addSubview(view)
        #expect(requests == 1)
        _ = window.takeDirtyRegion().bounds
        view.setNeedsDisplay(Rect(x: 0, y: 0, width: 10, height: 10))
        view.setNeedsDisplay(Rect(x: 30, y: 30, width: 10.5, height: 10))
        #expect(requests == 2)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 50, y: 20, width: 41, height: 40))
        #expect(window.takeDirtyRegion().bounds == nil, "taking clears")
        view.setNeedsDisplay(Rect(x: 140, y: 0, width: 100, height: 10))  // partly outside
        #expect(requests == 3)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 190, y: 20, width: 10, height: 10))
    }

    @Test("Moving a view dirties its old and new areas; views outside a window mark nothing")
    func movingDirties() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        view.setNeedsDisplay()
        window.addSubview(view)
        _ = window.takeDirtyRegion().bounds
        view.frame.origin = Point(x: 100, y: 50)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 0, width: 110, height: 60))
    }

    @Test("H1: a hidden view, and anything inside one, marks nothing when moved, zoomed or told to redraw; shown again, it is drawn where it is")
    func hiddenViewsMarkNothing() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let view = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let inside = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        view.addSubview(inside)
        window.addSubview(view)
        view.isHidden = true
        _ = window.takeDirtyRegion()
        view.frame.origin = Point(x: 100, y: 50)
        view.transform = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        inside.setNeedsDisplay()
        inside.setNeedsDisplay([Rect(x: 0, y: 0, width: 4, height: 4)])
        inside.frame.origin = Point(x: 20, y: 20)
        #expect(window.takeDirtyRegion().isEmpty)
        view.isHidden = false
        #expect(window.takeDirtyRegion().bounds == Rect(x: 80, y: 30, width: 80, height: 70))
        inside.setNeedsDisplay()
        #expect(window.takeDirtyRegion().bounds == Rect(x: 120, y: 70, width: 20, height: 20))
    }

    @Test("H8 S10: a view that clips to its bounds marks nothing past them: a subview zoomed or moved inside it (a scroll view's content, which clips by default) repaints only what shows, not the toolbar beside it")
    func clippingViewsMarkWithin() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 200, height: 70))
        #expect(scroll.clipsToBounds, "as UIScrollView")
        let toolbar = View(frame: Rect(x: 0, y: 70, width: 200, height: 30))
        let content = View(frame: Rect(x: 0, y: 0, width: 200, height: 70))
        scroll.addSubview(content)
        window.addSubview(scroll)
        window.addSubview(toolbar)
        _ = window.takeDirtyRegion()
        content.transform = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 0, width: 200, height: 70))
        content.frame.origin = Point(x: -40, y: 30)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 0, width: 200, height: 70))
        scroll.setNeedsDisplay([Rect(x: 0, y: 60, width: 10, height: 40), Rect(x: 20, y: 90, width: 10, height: 10)])
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 60, width: 10, height: 10))
        // A view that does not clip marks its subviews wherever they are: they show there.
        scroll.clipsToBounds = false
        content.transform = .identity
        content.frame = Rect(x: 0, y: 0, width: 200, height: 70)
        _ = window.takeDirtyRegion()
        content.frame.origin = Point(x: 0, y: 50)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test("render draws background, then each visible view translated and clipped, back to front")
    func renderOrder() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        window.backgroundColor = .white
        let a = DrawingView(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        a.backgroundColor = .blue
        let b = DrawingView(frame: Rect(x: 20, y: 5, width: 30, height: 30))
        a.addSubview(b)
        let hidden = DrawingView(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        hidden.isHidden = true
        window.addSubview(a)
        window.addSubview(hidden)
        let far = DrawingView(frame: Rect(x: 150, y: 0, width: 20, height: 20))
        window.addSubview(far)
        let ctx = RecordingContext()
        window.render(Rect(x: 0, y: 0, width: 100, height: 100), in: ctx)
        #expect(a.drawnRects == [Rect(x: 0, y: 0, width: 50, height: 50)])
        #expect(b.drawnRects == [Rect(x: 0, y: 0, width: 30, height: 30)])
        #expect(hidden.drawnRects.isEmpty)
        #expect(far.drawnRects.isEmpty, "outside the rendered area")
        #expect(ctx.deviceFills.map(\.0) == [Rect(x: 0, y: 0, width: 100, height: 100),
                                              Rect(x: 10, y: 10, width: 50, height: 50)])
        #expect(ctx.deviceFills.map(\.1) == [.white, .blue])
        #expect(ctx.calls.prefix(2) == [.save, .clip(Rect(x: 0, y: 0, width: 100, height: 100))])
        #expect(ctx.calls.contains(.translate(10, 10)))
        #expect(ctx.calls.contains(.clip(Rect(x: 0, y: 0, width: 50, height: 50))))
        let saves = ctx.calls.filter { $0 == .save }.count
        #expect(saves == ctx.calls.filter { $0 == .restore }.count)
    }

    @Test("An opaque view covering the dirty area hides what lies behind it: nothing there is drawn")
    func opaqueViewHidesWhatIsBehind() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        window.backgroundColor = .white
        let behind = DrawingView(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        behind.backgroundColor = .blue
        // A plain container (not opaque itself) holding an opaque canvas, as the app's controller does.
        let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        container.backgroundColor = .green
        let canvas = DrawingView(frame: Rect(x: 0, y: 0, width: 200, height: 80))
        canvas.isOpaque = true
        container.addSubview(canvas)
        let bar = DrawingView(frame: Rect(x: 0, y: 80, width: 200, height: 20))
        container.addSubview(bar)
        window.addSubview(behind)
        window.addSubview(container)

        let ctx = RecordingContext()
        window.render(Rect(x: 10, y: 10, width: 50, height: 50), in: ctx)
        #expect(canvas.drawnRects == [Rect(x: 10, y: 10, width: 50, height: 50)])
        #expect(behind.drawnRects.isEmpty, "under the opaque canvas")
        #expect(ctx.deviceFills.isEmpty, "no window, container or view background under the canvas")

        // Reaching past the canvas (into the bar), everything behind is drawn again.
        let wide = RecordingContext()
        window.render(Rect(x: 10, y: 60, width: 50, height: 30), in: wide)
        #expect(behind.drawnRects.count == 1)
        #expect(wide.deviceFills.map(\.1) == [.white, .blue, .green])
        #expect(bar.drawnRects.count == 1)

        // A translucent or hidden canvas hides nothing.
        canvas.alpha = 0.5
        let faded = RecordingContext()
        window.render(Rect(x: 10, y: 10, width: 50, height: 50), in: faded)
        #expect(behind.drawnRects.count == 2)
        #expect(faded.deviceFills.map(\.1) == [.white, .blue, .green])
    }

    @Test("render passes the dirty area in each view's coordinates, honouring bounds origin")
    func renderLocalRect() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let scroller = DrawingView(frame: Rect(x: 100, y: 0, width: 100, height: 100))
        scroller.bounds.origin = Point(x: 0, y: 500)
        window.addSubview(scroller)
        let ctx = RecordingContext()
        window.render(Rect(x: 120, y: 10, width: 20, height: 20), in: ctx)
        #expect(scroller.drawnRects == [Rect(x: 20, y: 510, width: 20, height: 20)])
    }

    @Test("resize sets the frame, lays out the root view and marks everything dirty")
    func resize() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let controller = ViewController()
        window.rootViewController = controller
        _ = window.takeDirtyRegion().bounds
        var requests = 0
        window.needsDisplayHandler = { requests += 1 }
        window.resize(to: Size(width: 640, height: 480))
        #expect(controller.view.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(requests == 1)
        #expect(window.takeDirtyRegion().bounds == Rect(x: 0, y: 0, width: 640, height: 480))
    }

    @Test("Layout: setNeedsLayout runs layoutSubviews once before the dirty rect is taken")
    func layoutPass() {
        final class Counting: View {
            var layouts = 0
            override func layoutSubviews() { layouts += 1 }
        }
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let v = Counting(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(v)
        _ = window.takeDirtyRegion().bounds
        #expect(v.layouts == 1)
        v.setNeedsLayout()
        v.setNeedsLayout()
        #expect(window.needsDisplay)
        _ = window.takeDirtyRegion().bounds
        #expect(v.layouts == 2)
    }
}
