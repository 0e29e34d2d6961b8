// The canvas in its scroll view: lines drawn, shown, selected and dragged at any zoom and offset
// keep the drawing's coordinates and width; fingers draw or navigate by the touch mode (A14); a
// scroll moves the raster of lines instead of drawing it again, a zoom draws it again at the new
// size while the older raster stands in (A15).
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

extension Canvas {
    /// One finger's tap at (x, y), and the double tap's wait after it: a single tap's action done.
    func tap(_ x: Double, _ y: Double) {
        down(1, x, y)
        frame()
        up(1)
        frame()
        clock.advance(by: 0.4)
        frame()
    }
}

@Suite("The canvas zoomed and scrolled")
struct ZoomedCanvasTests {
    /// A canvas laid out and painted once, showing the drawing through `viewport`.
    static func canvas(_ drawing: Drawing = Drawing(), viewport: CanvasViewport, zoomControl: Bool = false) -> Canvas {
        let canvas = Canvas(drawing: drawing, zoomControl: zoomControl)
        _ = canvas.laidOutRender()
        canvas.controller.scrollView.viewport = viewport
        return canvas
    }

    @Test("A15: at 200 % a finger's line is stored in the drawing's points with the drawing's width, and shows twice as wide where the finger drew it")
    func drawingAtTwoHundredPercent() {
        let canvas = Self.canvas(viewport: CanvasViewport(origin: Point(x: 100, y: 50), zoom: 2))
        #expect(canvas.drawView.viewport == CanvasViewport(origin: Point(x: 100, y: 50), zoom: 2))
        canvas.drawLine(1, from: (100, 100), to: (300, 100))
        let stroke = canvas.drawView.drawing.strokes.first
        #expect(stroke?.points.map { $0 } == [Point(x: 150, y: 100), Point(x: 250, y: 100)])
        #expect(stroke?.width == DrawView.lineWidth)
        let image = canvas.renderAll()
        // 20 pt wide on screen: black 9 pt off the centre line, white at 12.
        #expect(image.color(x: 200, y: 91) == .black)
        #expect(image.color(x: 200, y: 109) == .black)
        #expect(image.color(x: 200, y: 112) == .white)
        #expect(image.color(x: 200, y: 88) == .white)
    }

    @Test("A15: a tap selects a line at 50 % where it shows, and the menu points there; a long press and a drag move it by the drawing's distance")
    func selectAndDragZoomedOut() {
        let line = Stroke.line(StrokeID(1), from: Point(x: 200, y: 200), to: Point(x: 600, y: 200))
        let canvas = Self.canvas(Drawing(strokes: [line]), viewport: CanvasViewport(origin: .zero, zoom: 0.5))
        // The line shows from (100, 100) to (300, 100).
        canvas.tap(200, 103)
        #expect(canvas.drawView.selectedStrokeID == line.id)
        let menu = canvas.application.menuController
        #expect(menu.isMenuVisible)
        // In the window's points, where the tap was.
        let target = menu.targetRect
        #expect(abs(target.midX - 201) < 2 && abs(target.midY - 104) < 2, "\(target)")
        menu.setMenuVisible(false)
        // Picked up and dragged 20 pt down the screen: 40 pt in the drawing.
        canvas.down(2, 150, 100)
        canvas.frame()
        canvas.clock.advance(by: 0.7)
        canvas.frame()
        canvas.move(2, 150, 120)
        canvas.frame()
        canvas.up(2)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.first?.points.map { $0 } == [Point(x: 200, y: 240), Point(x: 600, y: 240)])
    }

    @Test("A15: a tap selects a line as near it on screen at 10 % as at 100 %, and anywhere on it at 800 %")
    func selectionReachFollowsTheZoom() {
        let line = Stroke.line(StrokeID(1), from: Point(x: 0, y: 1000), to: Point(x: 3000, y: 1000))
        // At 10 %, 15 screen points off the line are 150 in the drawing.
        var canvas = Self.canvas(Drawing(strokes: [line]), viewport: CanvasViewport(origin: Point(x: 0, y: 0), zoom: 0.1))
        canvas.tap(150, 115)
        #expect(canvas.drawView.selectedStrokeID == line.id)
        // At 800 % the line is 80 screen points wide: a tap 35 points off its centre is on it.
        canvas = Self.canvas(Drawing(strokes: [line]), viewport: CanvasViewport(origin: Point(x: 0, y: 990), zoom: 8))
        canvas.tap(150, 80 + 35)
        #expect(canvas.drawView.selectedStrokeID == line.id)
    }

    @Test("A15: scrolling moves the raster of lines by whole pixels and draws only what is newly shown; the lines show where the drawing has them")
    func scrollingShiftsTheRaster() {
        let lines = (0..<20).map { i in
            Stroke.line(StrokeID(i + 1), from: Point(x: 20, y: 10 + Double(i) * 20), to: Point(x: 380, y: 10 + Double(i) * 20))
        }
        let canvas = Self.canvas(Drawing(strokes: lines), viewport: .identity)
        let builds = canvas.drawView.wholeCacheRenders
        canvas.controller.scrollView.viewport = CanvasViewport(origin: Point(x: 0, y: 15), zoom: 1)
        var image = canvas.renderAll()
        #expect(canvas.drawView.wholeCacheRenders == builds)
        // The line at y 30 shows at 15, the one at 50 at 35; between them paper.
        #expect(image.color(x: 200, y: 15) == .black)
        #expect(image.color(x: 200, y: 35) == .black)
        #expect(image.color(x: 200, y: 25) == .white)
        // Scrolled on past what the raster held: the newly shown lines come in over turns.
        canvas.controller.scrollView.viewport = CanvasViewport(origin: Point(x: 0, y: 200), zoom: 1)
        for _ in 0..<5 { canvas.frame() }
        image = canvas.renderAll()
        #expect(canvas.drawView.wholeCacheRenders == builds)
        #expect(image.color(x: 200, y: 190) == .black, "the line at y 390")
        #expect(image.color(x: 200, y: 10) == .black, "the line at y 210")
        #expect(image.color(x: 200, y: 0) == .white)
    }

    @Test("A15 H1: a scroll or a zoom repaints where the lines were and where they are, nothing of an empty drawing; what that repaint leaves on screen is the whole picture, pixel for pixel, and with a line under a finger the whole canvas is shown again")
    func navigationRepaintsWhereLinesAre() throws {
        let lines = [Stroke.line(StrokeID(1), from: Point(x: 100, y: 100), to: Point(x: 160, y: 130)),
                     Stroke.line(StrokeID(2), from: Point(x: 120, y: 140), to: Point(x: 150, y: 100))]
        let canvas = Self.wholeCanvas(Drawing(strokes: lines), viewport: .identity)
        let scroll = canvas.controller.scrollView
        let kept = canvas.renderAll()
        _ = canvas.window.takeDirtyRegion()
        /// Paints what is marked into `kept` (as the host paints a buffer), the turns after too
        /// until the raster is whole; the area the first frame marked.
        func paintMarked() -> Rect? {
            let first = canvas.window.takeDirtyRegion()
            canvas.window.paint(first, into: kept, scale: 1)
            for _ in 0..<200 where canvas.drawView.isBuildingCache || canvas.drawView.isRepairingCache {
                canvas.frame()
                canvas.window.paint(canvas.window.takeDirtyRegion(), into: kept, scale: 1)
            }
            canvas.window.paint(canvas.window.takeDirtyRegion(), into: kept, scale: 1)
            return first.bounds
        }
        let shown = canvas.drawView.convert(canvas.drawView.bounds, to: nil)
        // Scrolls, and zooms about the middle (a zoom key's).
        let steps: [(ScrollView) -> Void] = [{ $0.contentOffset.x += 30 }, { $0.setZoomScale(2, animated: false) },
                                             { $0.contentOffset.y -= 50 }, { $0.setZoomScale(0.5, animated: false) },
                                             { $0.contentOffset.x -= 100 }, { $0.setZoomScale(4, animated: false) }]
        for step in steps {
            let was = scroll.viewport
            step(scroll)
            let viewport = scroll.viewport
            let marked = try #require(paintMarked(), "at \(viewport)")
            // The lines' box (their width and smoothing) where it was and where it is, no more
            // (a point of room for the pixel the view is snapped to, and marks kept on whole ones).
            let reach = Rect(x: 93, y: 93, width: 74, height: 54)
            let expected = was.canvasRect(reach).union(viewport.canvasRect(reach)).insetBy(dx: -3, dy: -3)
                .offsetBy(dx: shown.minX, dy: shown.minY).intersection(shown)
            #expect(expected.contains(marked), "at \(viewport): \(marked) marked, the lines reach \(expected)")
            let whole = canvas.renderAll()
            let differing = (0..<kept.height).reduce(0) { sum, y in
                sum + (0..<kept.width).count { x in kept.color(x: x, y: y) != whole.color(x: x, y: y) }
            }
            #expect(differing == 0, "at \(viewport): \(differing) pixels differ from the whole picture")
        }
        // A line under a finger stays under it: everything is shown again.
        canvas.down(3, 300, 200)
        canvas.frame()
        canvas.move(3, 320, 220)
        canvas.frame()
        _ = paintMarked()
        scroll.viewport = CanvasViewport(origin: Point(x: 10, y: 10), zoom: 1)
        #expect(canvas.window.takeDirtyRegion().bounds == shown)
        canvas.up(3)
        canvas.frame()
        // An empty drawing: paper at every view, nothing to repaint.
        let empty = Self.wholeCanvas(Drawing(), viewport: .identity)
        _ = empty.window.takeDirtyRegion()
        for viewport in [CanvasViewport(origin: Point(x: 30, y: 20), zoom: 1), CanvasViewport(origin: Point(x: 5, y: 6), zoom: 3)] {
            empty.controller.scrollView.viewport = viewport
            #expect(empty.window.takeDirtyRegion().isEmpty, "at \(viewport)")
        }
    }

    @Test("A15: each step of a pinch draws the raster over where the last step's lines were, not all of it, cut off mid-build or whole, in the same raster or the spare, and after the style changes the paper: once whole, it is the raster a new window makes at that view, pixel for pixel",
          arguments: [false, true])
    func pinchStepsLeaveNoOlderLines(restyled: Bool) throws {
        let lines = Self.pinchLines
        let canvas = Self.wholeCanvas(Drawing(strokes: lines), viewport: .identity)
        // A few strokes a turn: a step's build is cut off by the next, at its paper or its lines.
        canvas.drawView.cacheBuildSlice = 60
        let scroll = canvas.controller.scrollView
        var restarts = 0
        for (step, zoom) in [1.3, 2.2, 1.7, 2.5, 1.2, 0.7, 0.5].enumerated() {
            scroll.setZoomScale(zoom, animated: false)
            scroll.contentOffset.x += 7
            let builds = canvas.drawView.wholeCacheRenders
            _ = canvas.renderAll()
            if canvas.drawView.wholeCacheRenders > builds, step > 0 { restarts += 1 }
            // A slice or two of it drawn (the clock here would run the whole build at once).
            for _ in 0..<step % 3 { canvas.drawView.cache.continueBuild() }
        }
        #expect(restarts >= 5)
        if restyled { canvas.window.desktopAppearance = AppearanceTests.dark }
        /// The picture once whole, against a new window's at the same view.
        func differing() throws -> (count: Int, shown: ImageSurface) {
            // The frame asking for the new zoom starts its build (the older raster stands in).
            var shown = canvas.renderAll()
            for _ in 0..<200 where canvas.drawView.isBuildingCache { canvas.frame(); shown = canvas.renderAll() }
            let fresh = Self.canvas(Drawing(strokes: lines), viewport: scroll.viewport)
            if restyled { fresh.window.desktopAppearance = AppearanceTests.dark }
            var expected = fresh.renderAll()
            for _ in 0..<200 where fresh.drawView.isBuildingCache { fresh.frame(); expected = fresh.renderAll() }
            try #require(fresh.drawView.viewport == canvas.drawView.viewport)
            let count = (0..<shown.height).reduce(0) { sum, y in
                sum + (0..<shown.width).count { x in shown.color(x: x, y: y) != expected.color(x: x, y: y) }
            }
            return (count, shown)
        }
        var (count, shown) = try differing()
        #expect(count == 0, "\(count) pixels differ from a new window's at \(scroll.viewport)")
        // Steps whose builds end before the next: each new zoom draws into the spare, the
        // raster of the zoom before last.
        for zoom in [1.8, 2.6, 1.4, 0.6, 0.9] {
            scroll.setZoomScale(zoom, animated: false)
            (count, shown) = try differing()
            #expect(count == 0, "\(count) pixels differ from a new window's at \(scroll.viewport)")
        }
        // Not paper alone: the lines show.
        let area = canvas.drawView.convert(canvas.drawView.bounds, to: nil)
        let paper = shown.color(x: Int(area.minX), y: Int(area.minY))
        let inked = (Int(area.minY)..<Int(area.maxY)).reduce(0) { sum, y in
            sum + (Int(area.minX)..<Int(area.maxX)).count { x in shown.color(x: x, y: y) != paper }
        }
        #expect(inked > 500, "\(inked) pixels of lines")
    }

    @Test("A15: a small drawing's new zoom is sharp in the frame asking for it when a raster drawn before is at hand (a pinch's steps); a raster made now, whose memory is touched for the first time, is drawn in the turns after while the older one stands in")
    func smallDrawingSharpAtOnceWithTheSpare() {
        let lines = (0..<30).map { i in
            Stroke.line(StrokeID(i + 1), from: Point(x: 150 + Double(i) * 3, y: 100), to: Point(x: 250 - Double(i) * 2, y: 180))
        }
        let canvas = Self.wholeCanvas(Drawing(strokes: lines), viewport: .identity)
        let scroll = canvas.controller.scrollView
        // A second later the raster of the zoom before is gone: the first step makes one.
        canvas.clock.advance(by: 1.5)
        scroll.setZoomScale(1.4, animated: false)
        _ = canvas.renderAll()
        #expect(canvas.drawView.isBuildingCache, "a raster made now: drawn in the turns after")
        canvas.frame()
        _ = canvas.renderAll()
        #expect(!canvas.drawView.isBuildingCache, "whole by the next frame")
        for zoom in [1.9, 1.2, 0.8] {
            scroll.setZoomScale(zoom, animated: false)
            let image = canvas.renderAll()
            #expect(!canvas.drawView.isBuildingCache, "at \(zoom): drawn into the spare in the frame asking for it")
            let fresh = Self.wholeCanvas(Drawing(strokes: lines), viewport: scroll.viewport)
            let expected = fresh.renderAll()
            let differing = (0..<image.height).reduce(0) { sum, y in
                sum + (0..<image.width).count { x in image.color(x: x, y: y) != expected.color(x: x, y: y) }
            }
            #expect(differing == 0, "at \(zoom): \(differing) pixels differ from a new window's")
            canvas.frame()
        }
    }

    @Test("A15: while a pinch moves the zoom fast, the build each step starts over waits most of a frame before its first slice (the next step would throw it away); a slowing pinch's last step starts its build at once; either way the picture is then whole")
    func fastPinchBuildsWait() {
        let canvas = Self.wholeCanvas(Drawing(strokes: Self.pinchLines), viewport: .identity)
        let scroll = canvas.controller.scrollView
        /// Strokes the build under way has looked at, over its bands.
        func looked() -> Int { canvas.drawView.cache.build?.bands.reduce(0) { $0 + $1.binned } ?? 0 }
        var zoom = 1.0
        /// A step of the pinch: the zoom `by` times what it was, the frame asking for it painted.
        /// (This clock runs a begun build whole at its next move.)
        func step(by factor: Double) {
            zoom *= factor
            scroll.setZoomScale(zoom, animated: false)
            _ = canvas.renderAll()
        }
        // The first step's build is under way when the next comes, 15 % on (over eight times the
        // zoom a second), and the next before the wait is over: each restarted build waits.
        let between = LineCache.settleWait * 0.8
        step(by: 1.15)
        for _ in 0..<3 {
            step(by: 1.15)
            canvas.clock.advance(by: between)
            #expect(canvas.drawView.isBuildingCache && looked() == 0, "a fast step's build drew a slice")
        }
        // The fingers stop at once: the build begins once the wait is over, and is whole.
        canvas.clock.advance(by: LineCache.settleWait)
        _ = canvas.renderAll()
        canvas.frame()
        #expect(!canvas.drawView.isBuildingCache, "no step came, yet the build waits")
        // The fingers slow to a stop: the last step, 1 % on, starts its build at once.
        step(by: 1.15)
        step(by: 1.15)
        canvas.clock.advance(by: between)
        step(by: 1.01)
        canvas.clock.advance(by: 0.001)
        #expect(!canvas.drawView.isBuildingCache, "the slow last step's build waits")
        _ = canvas.renderAll()
        canvas.frame()
        #expect(!canvas.drawView.isBuildingCache)
    }

    @Test("A15: the raster a zoom left aside is kept a second for the next step, then given back to the system (on another thread: freeing a 4K raster's pages took a turn of the event loop 6 to 8 ms)")
    func spareRasterGoes() async throws {
        let lines = (0..<30).map { i in
            Stroke.line(StrokeID(i + 1), from: Point(x: 150 + Double(i) * 3, y: 100), to: Point(x: 250 - Double(i) * 2, y: 180))
        }
        let canvas = Self.wholeCanvas(Drawing(strokes: lines), viewport: .identity)
        canvas.controller.scrollView.setZoomScale(1.5, animated: false)
        for _ in 0..<10 { canvas.frame(); _ = canvas.renderAll() }
        weak let spare = canvas.drawView.cache.spare?.image
        #expect(spare != nil, "the older zoom's raster kept for the next step")
        canvas.clock.advance(by: 1.1)
        #expect(canvas.drawView.cache.spare == nil)
        for _ in 0..<200 where spare != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(spare == nil, "given back")
    }

    /// 3,000 lines from (10, 100) to x 190, y 100 to 106: a band whose raster takes turns to make.
    static let band = (0..<3000).map { i in
        Stroke.line(StrokeID(i + 1), from: Point(x: 10, y: 100), to: Point(x: 190, y: 100 + Double(i % 7)))
    }

    /// A canvas showing `drawing` through `viewport`, its raster whole.
    /// Enough lines that a new zoom's raster is not made in the frame asking for it.
    static let pinchLines = (0..<450).map { (i: Int) -> Stroke in
        Stroke.line(StrokeID(i + 1), from: Point(x: 150 + Double(i % 13) * 8, y: 100 + Double(i % 7)),
                    to: Point(x: 250 - Double(i % 11) * 5, y: 180 - Double(i % 5)))
    }

    static func wholeCanvas(_ drawing: Drawing, viewport: CanvasViewport) -> Canvas {
        let canvas = Self.canvas(drawing, viewport: viewport)
        _ = canvas.renderAll()
        for _ in 0..<200 where canvas.drawView.isBuildingCache { canvas.frame(); _ = canvas.renderAll() }
        return canvas
    }

    @Test("A15: with no lines (a new drawing, or one just cleared) a scroll, a zoom and an animated zoom build nothing and show nothing scaled, paper at once; the next line lands at the new zoom, as wide as it should be",
          arguments: [false, true])
    func blankCanvasNavigatesWithoutBuilds(cleared: Bool) {
        let first = Stroke.line(StrokeID(1), from: Point(x: 50, y: 50), to: Point(x: 350, y: 250))
        let canvas = Self.wholeCanvas(Drawing(strokes: cleared ? [first] : []), viewport: .identity)
        if cleared {
            canvas.drawView.clearAll()
            _ = canvas.renderAll()
            for _ in 0..<50 where canvas.drawView.isBuildingCache { canvas.frame(); _ = canvas.renderAll() }
        }
        let builds = canvas.drawView.wholeCacheRenders
        let scroll = canvas.controller.scrollView
        for viewport in [CanvasViewport(origin: Point(x: 100, y: 50), zoom: 2), CanvasViewport(origin: Point(x: -30, y: 10), zoom: 0.5),
                         CanvasViewport(origin: Point(x: 40, y: -20), zoom: 0.5), CanvasViewport(origin: .zero, zoom: 1.6)] {
            scroll.viewport = viewport
            let image = canvas.renderAll()
            #expect(!canvas.drawView.isBuildingCache && image.color(x: 200, y: 150) == .white, "at \(viewport)")
        }
        canvas.controller.perform(.zoomIn)
        for _ in 0..<100 where scroll.zoomAnimationTarget != nil {
            _ = canvas.renderAll()
            #expect(!canvas.drawView.isBuildingCache)
            canvas.frame()
        }
        #expect(abs(scroll.zoomScale - 2) < 1e-9)
        #expect(canvas.drawView.wholeCacheRenders == builds, "\(canvas.drawView.wholeCacheRenders - builds) builds of a blank raster")
        canvas.drawLine(2, from: (100, 100), to: (300, 100))
        // The finished line drawn into the raster (in the turns after its frame).
        for _ in 0..<3 { canvas.frame() }
        let image = canvas.renderAll()
        #expect(canvas.drawView.wholeCacheRenders == builds, "the raster kept its view: the line went into it, nothing built")
        // 20 pt wide on screen at 200 %: black 9 pt off the centre line, white at 12.
        #expect(image.color(x: 200, y: 91) == .black && image.color(x: 200, y: 109) == .black)
        #expect(image.color(x: 200, y: 112) == .white && image.color(x: 200, y: 88) == .white)
        // The very pixels of the raster drawn again whole at this view.
        canvas.drawView.cache.invalidate()
        canvas.drawView.setNeedsDisplay()
        var expected = canvas.renderAll()
        for _ in 0..<50 where canvas.drawView.isBuildingCache { canvas.frame(); expected = canvas.renderAll() }
        let differing = (0..<image.height).reduce(0) { sum, y in
            sum + (0..<image.width).count { x in image.color(x: x, y: y) != expected.color(x: x, y: y) }
        }
        #expect(differing == 0, "\(differing) pixels differ from the raster made again at \(canvas.drawView.viewport)")
    }

    @Test("A15: a blank canvas's frame lays its paper as the raster holds it, pixel for pixel, through a clip of boxes, at scales 1, 1.25 and 2, and nothing outside the clip",
          arguments: [1.0, 1.25, 2.0])
    func paperLaidAsTheRasterHoldsIt(scale: Double) throws {
        // At 1.25 every fourth point is a whole pixel.
        let boxes = [Rect(x: 0, y: 0, width: 16, height: 8), Rect(x: 8, y: 12, width: 24, height: 16)]
        for color in [Appearance(scheme: .dark).paper, Color.white, Color(red: 0.3, green: 0.55, blue: 0.8)] {
            let (width, height) = (Int(40 * scale), Int(32 * scale))
            let raster = ImageSurface(width: width, height: height)
            raster.fill(rows: 0..<height, with: color)
            let frame = ImageSurface(width: width, height: height)
            let context = CairoContext(surface: frame)
            context.scaleBy(x: scale, y: scale)
            context.clip(toUnionOf: boxes)
            context.fillOpaque(Rect(x: 0, y: 0, width: 40, height: 32), with: color)
            let laid = frame.pixelWords(), held = raster.pixelWords()
            try #require(laid.count == held.count)
            var wrong = 0
            for y in 0..<height {
                for x in 0..<width {
                    let point = Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
                    let inside = boxes.contains { $0.contains(point) }
                    if laid[y * width + x] != (inside ? held[y * width + x] : 0) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(color) at scale \(scale): \(wrong) pixels")
        }
    }

    @Test("A15: a new zoom draws the lines again at it, crisp; until the new raster is whole the older one shows scaled, never blank paper")
    func zoomRedrawsCrisp() {
        let canvas = Self.wholeCanvas(Drawing(strokes: Self.band), viewport: .identity)
        #expect(!canvas.drawView.isBuildingCache)
        let builds = canvas.drawView.wholeCacheRenders
        canvas.drawView.cacheBuildSlice = 50
        canvas.controller.scrollView.viewport = CanvasViewport(origin: Point(x: 0, y: 50), zoom: 2)
        var image = canvas.renderAll()
        #expect(canvas.drawView.wholeCacheRenders == builds + 1)
        #expect(canvas.drawView.isBuildingCache)
        // The band of lines (drawing y 95...111) shows at canvas y 90...122, scaled meanwhile.
        #expect(image.color(x: 100, y: 110) == .black)
        #expect(image.color(x: 100, y: 60) == .white)
        for _ in 0..<400 where canvas.drawView.isBuildingCache { canvas.frame(); _ = canvas.renderAll() }
        #expect(!canvas.drawView.isBuildingCache)
        image = canvas.renderAll()
        #expect(image.color(x: 100, y: 110) == .black)
        // Crisp: the band's top edge goes from paper to black within two pixels, as a line drawn
        // at this size does (a raster scaled up blurs it over four).
        let top = (80...100).first { image.color(x: 100, y: $0) != .white }
        #expect(top.map { image.color(x: 100, y: $0 + 2) == .black } == true)
    }

    @Test("A15 S10: an animated zoom makes the raster for where it ends while it runs, once; every frame on the way shows the lines, and the frame it ends on is crisp")
    func animatedZoomEndsSharp() {
        let canvas = Self.wholeCanvas(Drawing(strokes: Self.band), viewport: .identity)
        #expect(!canvas.drawView.isBuildingCache)
        let builds = canvas.drawView.wholeCacheRenders
        // A build of several turns, fewer than the zoom's frames.
        canvas.drawView.cacheBuildSlice = 500
        let scroll = canvas.controller.scrollView
        canvas.controller.perform(.zoomIn)
        var frames = 0
        while scroll.zoomAnimationTarget != nil, frames < 100 {
            let image = canvas.renderAll()
            // The band's middle line (drawing y 103) where this frame shows it.
            let middle = canvas.drawView.canvasPoint(Point(x: 100, y: 103))
            #expect(image.color(x: Int(middle.x), y: Int(middle.y)) == .black, "frame \(frames) at \(scroll.zoomScale)")
            // And at the canvas's left edge, which the raster for the zoom's end (zoomed further
            // in) does not reach: the older raster shows there.
            let edge = canvas.drawView.visibleDrawingRect.minX
            if edge > 12 {
                let left = canvas.drawView.canvasPoint(Point(x: edge + 1, y: 100.5))
                #expect(image.color(x: Int(left.x), y: Int(left.y)) == .black, "the left edge, frame \(frames) at \(scroll.zoomScale)")
            }
            canvas.frame()
            frames += 1
        }
        #expect(frames > 5 && abs(scroll.zoomScale - 1.25) < 1e-9)
        // The frame the zoom ends on shows the raster made for it, whole, made once.
        let image = canvas.renderAll()
        #expect(!canvas.drawView.isBuildingCache, "the raster for the zoom's end was not whole when it ended")
        #expect(canvas.drawView.wholeCacheRenders == builds + 1, "the raster was made \(canvas.drawView.wholeCacheRenders - builds) times")
        // The very pixels a canvas opened at that view shows once its raster is whole.
        let expected = Self.wholeCanvas(Drawing(strokes: Self.band), viewport: canvas.drawView.viewport).renderAll()
        let differing = (0..<image.height).reduce(0) { sum, y in
            sum + (0..<image.width).count { x in image.color(x: x, y: y) != expected.color(x: x, y: y) }
        }
        #expect(differing == 0, "\(differing) pixels differ from the canvas opened at \(canvas.drawView.viewport)")
    }
}

@Suite("Touch modes")
struct TouchModeTests {
    @Test("A14: with Fingers on, one finger draws and the view stays; with Fingers off, one finger moves the drawing and draws nothing")
    func fingersDrawOrPan() {
        let canvas = ZoomedCanvasTests.canvas(viewport: .identity)
        canvas.drawLine(1, from: (100, 100), to: (200, 150))
        #expect(canvas.drawView.drawing.strokes.count == 1)
        #expect(canvas.drawView.viewport == .identity)
        canvas.drawView.drawsWithFingers = false
        canvas.down(2, 200, 150)
        canvas.frame()
        for step in 1...5 {
            canvas.move(2, 200 - Double(step) * 10, 150 - Double(step) * 6)
            canvas.frame()
        }
        canvas.up(2)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.count == 1)
        #expect(canvas.drawView.viewport.origin.x > 40 && canvas.drawView.viewport.origin.y > 20,
                "\(canvas.drawView.viewport)")
    }

    @Test("A14: after a pen draws, a finger moves the drawing instead of drawing, until the pen has rested five seconds")
    func penMakesFingersNavigate() {
        let canvas = ZoomedCanvasTests.canvas(viewport: .identity)
        let pen = TouchInput.ID(source: .tablet, number: 0)
        canvas.input.down(pen, at: Point(x: 50, y: 50), time: canvas.clock.now, kind: .pencil, force: 0.5)
        canvas.frame()
        canvas.input.motion(pen, at: Point(x: 150, y: 50), time: canvas.clock.now, force: 0.5)
        canvas.frame()
        canvas.input.up(pen, time: canvas.clock.now)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.count == 1)
        #expect(canvas.drawView.fingersNavigate)
        canvas.down(1, 200, 150)
        canvas.frame()
        for step in 1...5 {
            canvas.move(1, 200 - Double(step) * 10, 150)
            canvas.frame()
        }
        canvas.up(1)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.count == 1)
        #expect(canvas.drawView.viewport.origin.x > 40)
        canvas.clock.advance(by: DrawView.penGrace)
        canvas.frame()
        #expect(!canvas.drawView.fingersNavigate)
        canvas.drawLine(2, from: (100, 100), to: (200, 150))
        #expect(canvas.drawView.drawing.strokes.count == 2)
    }

    @Test("A14: with Fingers off, two fingers spreading zoom in about the point between them")
    func pinchZooms() {
        let canvas = ZoomedCanvasTests.canvas(viewport: .identity)
        canvas.drawView.drawsWithFingers = false
        canvas.down(1, 150, 100)
        canvas.down(2, 250, 100)
        canvas.frame()
        for step in 1...10 {
            canvas.move(1, 150 - Double(step) * 5, 100)
            canvas.move(2, 250 + Double(step) * 5, 100)
            canvas.frame()
        }
        let viewport = canvas.drawView.viewport
        canvas.up(1)
        canvas.up(2)
        canvas.frame()
        #expect(viewport.zoom > 1.8 && viewport.zoom < 2.2, "\(viewport)")
        // The point between the fingers stays under them.
        let middle = viewport.drawingPoint(Point(x: 200, y: 100))
        #expect(abs(middle.x - 200) < 2 && abs(middle.y - 100) < 2, "\(middle)")
        #expect(canvas.drawView.drawing.strokes.isEmpty)
    }
}

@Suite("Zoom commands")
struct ZoomCommandTests {
    @Test("A15: zoom in and out step by a quarter about the middle, 100 % comes back, fit shows a drawing far bigger than the window whole")
    func commands() {
        let line = Stroke.line(StrokeID(1), from: Point(x: -1300, y: 40), to: Point(x: 1700, y: 600))
        let canvas = ZoomedCanvasTests.canvas(Drawing(strokes: [line]), viewport: .identity)
        let scroll = canvas.controller.scrollView
        let middle = canvas.drawView.drawingPoint(Point(x: scroll.bounds.width / 2, y: scroll.bounds.height / 2))
        canvas.controller.perform(.zoomIn)
        canvas.clock.advance(by: 0.5)
        canvas.frame()
        #expect(abs(canvas.drawView.viewport.zoom - 1.25) < 1e-9)
        let after = canvas.drawView.drawingPoint(Point(x: scroll.bounds.width / 2, y: scroll.bounds.height / 2))
        #expect(abs(after.x - middle.x) < 1 && abs(after.y - middle.y) < 1)
        canvas.controller.perform(.actualSize)
        canvas.clock.advance(by: 0.5)
        canvas.frame()
        #expect(canvas.drawView.viewport.zoom == 1)
        canvas.controller.perform(.fitDrawing)
        canvas.clock.advance(by: 0.5)
        canvas.frame()
        #expect(canvas.drawView.visibleDrawingRect.contains(line.bounds), "\(canvas.drawView.visibleDrawingRect)")
        #expect(canvas.drawView.viewport.zoom < 0.2)
        // Zoomed out no further than the limit.
        for _ in 0..<30 { canvas.controller.perform(.zoomOut) }
        canvas.clock.advance(by: 0.5)
        canvas.frame()
        #expect(canvas.drawView.viewport.zoom >= CanvasScrollView.zoomRange.lowerBound - 1e-9)
    }
}

@Suite("The zoom control")
struct ZoomControlTests {
    /// A tap at the middle of `view`, in window points.
    static func tap(_ canvas: Canvas, _ view: View) {
        let centre = view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil)
        canvas.tap(centre.x, centre.y)
    }

    @Test("A1 A15: while fingers draw the zoom control steps aside, so the window draws their lines in one piece over the whole canvas; it stays aside between strokes written one after another and is back once they have rested")
    func controlStepsAsideWhileDrawing() throws {
        let canvas = Canvas(zoomControl: true)
        _ = canvas.laidOutRender()
        let control = canvas.controller.zoomControl
        let delay = DrawViewController.zoomControlReturnDelay
        #expect(!control.isHidden)
        for i in 0..<3 { canvas.down(Int32(i), 20 + Double(i) * 40, 20) }
        canvas.frame()
        _ = canvas.window.takeDirtyRegion()
        #expect(control.isHidden)
        for step in 1...3 {
            for i in 0..<3 { canvas.move(Int32(i), 390 - Double(i) * 40, 20 + Double(step) * 70) }
            canvas.frame()
            _ = canvas.window.takeDirtyRegion()
        }
        let placed = try #require(canvas.window.liveLines.first)
        #expect(placed.drawable, "the lines are painted through the views every frame")
        #expect(placed.clip == [Rect(x: 0, y: 0, width: 400, height: canvas.controller.toolbar.frame.minY)])
        for i in 0..<3 { canvas.up(Int32(i)) }
        canvas.frame()
        #expect(control.isHidden, "still aside just after the lift")
        // Strokes a moment apart, as handwriting's: the control does not come back between them,
        // so the canvas's corner does not blink, however long the writing goes on.
        for stroke in 0..<4 {
            canvas.clock.advance(by: delay * 0.8)
            #expect(control.isHidden, "aside between strokes (before stroke \(stroke))")
            canvas.down(5, 20, 20)
            canvas.frame()
            canvas.move(5, 60, 40)
            canvas.frame()
            canvas.up(5)
            canvas.frame()
        }
        canvas.clock.advance(by: delay * 0.9)
        #expect(control.isHidden)
        canvas.clock.advance(by: delay * 0.2)
        #expect(!control.isHidden, "back once the writing has rested")
        // Opaque: the window goes on drawing the next lines itself beside it.
        #expect(control.backgroundColor?.alpha == 1)
    }

    @Test("A15: a palette opened while the zoom control waits to come back keeps it aside; closed after, the control is back")
    func controlWaitsOutThePalette() {
        let canvas = Canvas(zoomControl: true)
        _ = canvas.laidOutRender()
        let control = canvas.controller.zoomControl
        canvas.down(1, 20, 20)
        canvas.frame()
        canvas.up(1)
        canvas.frame()
        canvas.controller.isPaletteVisible = true
        canvas.clock.advance(by: DrawViewController.zoomControlReturnDelay * 2)
        #expect(control.isHidden, "the palette lies over the control's corner")
        canvas.controller.isPaletteVisible = false
        #expect(!control.isHidden)
    }

    @Test("A14: where the toolbar is narrow (its Fingers toggle under More), the zoom control leads with that toggle, lit while fingers draw; a wide window has it in the toolbar only")
    func fingersToggleOnNarrowWindows() {
        let canvas = ZoomedCanvasTests.canvas(viewport: .identity, zoomControl: true)
        let control = canvas.controller.zoomControl
        #expect(canvas.controller.toolbar.isNarrow && control.showsFingers && !control.fingersButton.isHidden)
        #expect(control.fingersButton.isOn)
        ZoomControlTests.tap(canvas, control.fingersButton)
        #expect(!canvas.drawView.drawsWithFingers && !control.fingersButton.isOn)
        #expect(canvas.controller.preferences.drawsWithFingers == false)
        ZoomControlTests.tap(canvas, control.fingersButton)
        #expect(canvas.drawView.drawsWithFingers && control.fingersButton.isOn)
        let wide = Canvas(width: 800, zoomControl: true)
        wide.window.layoutIfNeeded()
        #expect(!wide.controller.zoomControl.showsFingers && wide.controller.zoomControl.fingersButton.isHidden)
    }

    @Test("A15: the control in the canvas's corner zooms in and out by a step and shows the zoom; its middle shows 100 %, and at 100 % the whole drawing")
    func controlZooms() {
        let line = Stroke.line(StrokeID(1), from: Point(x: 0, y: 0), to: Point(x: 2400, y: 1500))
        let canvas = ZoomedCanvasTests.canvas(Drawing(strokes: [line]), viewport: .identity, zoomControl: true)
        let control = canvas.controller.zoomControl
        #expect(canvas.controller.scrollView.frame.contains(control.frame))
        Self.tap(canvas, control.zoomInButton)
        #expect(abs(canvas.drawView.viewport.zoom - 1.25) < 1e-9)
        #expect(control.levelButton.title == "125 %")
        #expect(canvas.drawView.drawing.strokes.count == 1, "a tap on the control draws nothing")
        Self.tap(canvas, control.zoomOutButton)
        Self.tap(canvas, control.zoomOutButton)
        #expect(abs(canvas.drawView.viewport.zoom - 0.8) < 1e-9)
        Self.tap(canvas, control.levelButton)
        #expect(canvas.drawView.viewport.zoom == 1)
        Self.tap(canvas, control.levelButton)
        #expect(canvas.drawView.visibleDrawingRect.contains(line.bounds))
        #expect(control.levelButton.accessibilityLabel == "Zoom \(Int((canvas.drawView.viewport.zoom * 100).rounded())) %")
    }
}
