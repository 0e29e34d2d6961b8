// The canvas through the real input adapter and responder chain, rendered with Cairo.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

/// A window of the app's size holding the canvas, fed by TouchKit's input adapter.
final class Canvas {
    let clock = ManualClock(now: 100)
    let application: Application
    let window: Window
    let controller: DrawViewController
    let input: TouchInput

    /// A window of `width` points: below 700 the toolbar is narrow, New and the toggles in its
    /// More menu. The zoom control, over the canvas's bottom right corner, is hidden unless
    /// `zoomControl`: the canvas's tests draw across the whole of a small canvas.
    init(drawing: Drawing = Drawing(), width: Double = 400, zoomControl: Bool = false) {
        window = Window(frame: Rect(x: 0, y: 0, width: width, height: 300))
        controller = DrawViewController(drawing: drawing)
        controller.showsZoomControl = zoomControl
        application = Application(clock: clock)
        application.addWindow(window)
        window.rootViewController = controller
        input = TouchInput(application: application, window: window)
    }

    var drawView: DrawView { controller.drawView }

    func down(_ id: Int32, _ x: Double, _ y: Double) { input.down(.touch(id), at: Point(x: x, y: y), time: clock.now) }
    func move(_ id: Int32, _ x: Double, _ y: Double) { input.motion(.touch(id), at: Point(x: x, y: y), time: clock.now) }
    func up(_ id: Int32) { input.up(.touch(id), time: clock.now) }
    func frame() {
        input.frame()
        clock.advance(by: 0.016)
    }

    /// Renders what the window says is dirty into `image` (as the host does) and returns it.
    @discardableResult
    func render(into image: ImageSurface) -> Rect? {
        guard let dirty = window.takeDirtyRect() else { return nil }
        window.paint(DirtyRegion([dirty]), into: image, scale: 1)
        return dirty
    }

    /// One finger drawing a straight line: down, one move, up, each in its own frame.
    func drawLine(_ id: Int32, from a: (Double, Double), to b: (Double, Double)) {
        down(id, a.0, a.1)
        frame()
        move(id, b.0, b.1)
        frame()
        up(id)
        frame()
    }

    /// A first paint of everything, laid out as the host would.
    func laidOutRender() -> ImageSurface {
        let image = ImageSurface(width: 400, height: 300)
        render(into: image)
        return image
    }

    func renderAll() -> ImageSurface {
        let image = ImageSurface(width: 400, height: 300)
        window.render(window.bounds, in: CairoContext(surface: image))
        return image
    }
}

@Suite("DrawView")
struct DrawViewTests {
    @Test("A1: each finger draws its own red line while down; lines turn black when lifted")
    func linesPerFinger() throws {
        let canvas = Canvas()
        canvas.down(1, 50, 50)
        canvas.down(2, 300, 50)
        canvas.frame()
        canvas.move(1, 50, 250)
        canvas.move(2, 350, 250)
        canvas.frame()
        #expect(canvas.drawView.strokesInProgress.count == 2)
        var image = canvas.renderAll()
        #expect(image.color(x: 50, y: 150) == .red)
        #expect(image.color(x: 325, y: 150) == .red)
        #expect(image.color(x: 200, y: 150) == .white)

        canvas.up(1)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.map(\.points) == [[Point(x: 50, y: 50), Point(x: 50, y: 250)]])
        #expect(canvas.drawView.drawing.strokes.first?.color == .black)
        image = canvas.renderAll()
        #expect(image.color(x: 50, y: 150) == .black)
        #expect(image.color(x: 325, y: 150) == .red)
    }

    @Test("A1: lines are 10 px wide with round caps")
    func lineShape() throws {
        let canvas = Canvas()
        canvas.drawLine(1, from: (100, 100), to: (300, 100))
        let image = canvas.renderAll()
        #expect(image.color(x: 200, y: 96) == .black)
        #expect(image.color(x: 200, y: 104) == .black)
        #expect(image.color(x: 200, y: 107) == .white)
        #expect(image.color(x: 200, y: 93) == .white)
        // Round cap: the line extends 5 px beyond its end on the axis, not at the corners.
        #expect(image.color(x: 303, y: 100) == .black)
        #expect(image.color(x: 304, y: 104) == .white)
    }

    @Test("A2: a cancelled touch removes its line in progress; finished lines stay")
    func cancelRemovesInProgress() throws {
        let canvas = Canvas()
        canvas.drawLine(1, from: (20, 20), to: (380, 20))
        canvas.down(2, 20, 100)
        canvas.frame()
        canvas.move(2, 380, 100)
        canvas.frame()
        canvas.input.cancel()
        #expect(canvas.drawView.strokesInProgress.isEmpty)
        #expect(canvas.drawView.drawing.strokes.count == 1)
        let image = canvas.renderAll()
        #expect(image.color(x: 200, y: 20) == .black)
        #expect(image.color(x: 200, y: 100) == .white)
    }

    @Test("Damage covers only the moving line, and incremental repaints match a full repaint")
    func damageIsLocal() throws {
        let canvas = Canvas()
        let screen = ImageSurface(width: 400, height: 300)
        #expect(canvas.render(into: screen) != nil)  // first paint: everything
        for i in 0..<5 {
            canvas.drawLine(Int32(i), from: (30 + Double(i) * 70, 30), to: (40 + Double(i) * 70, 200))
            canvas.render(into: screen)
        }
        canvas.down(9, 10, 230)
        canvas.frame()
        canvas.render(into: screen)
        canvas.move(9, 60, 230)
        canvas.frame()
        let dirty = try #require(canvas.render(into: screen))
        #expect(dirty.width < 80 && dirty.height < 30, "damage \(dirty)")
        let full = canvas.renderAll()
        for y in stride(from: 0, to: 300, by: 3) {
            for x in stride(from: 0, to: 400, by: 3) where screen.color(x: x, y: y) != full.color(x: x, y: y) {
                Issue.record("pixel \(x),\(y) differs: incremental \(String(describing: screen.color(x: x, y: y))) full \(String(describing: full.color(x: x, y: y)))")
                return
            }
        }
    }
}

@Suite("Selection repaints")
struct SelectionRepaintTests {
    /// Crossing lines, so the selected one's rectangle holds parts of the others.
    static let lines: [Stroke] = (0..<12).map { i in
        .line(StrokeID(i + 1), from: Point(x: 20 + Double(i) * 25, y: 20), to: Point(x: 300 - Double(i) * 20, y: 220))
    }

    /// Every third pixel of `a` and `b` above `rows` agrees, to within 4/255 per channel
    /// (antialiased edges re-made inside a clip may round a step differently).
    func expectSame(_ a: ImageSurface, _ b: ImageSurface, _ what: String, rows: Int = 300) {
        func close(_ p: Color?, _ q: Color?) -> Bool {
            guard let p, let q else { return p == q }
            return [p.red - q.red, p.green - q.green, p.blue - q.blue, p.alpha - q.alpha].allSatisfy { abs($0) <= 4.0 / 255 }
        }
        for y in stride(from: 0, to: rows, by: 3) {
            for x in stride(from: 0, to: 400, by: 3) where !close(a.color(x: x, y: y), b.color(x: x, y: y)) {
                Issue.record("\(what): pixel \(x),\(y) is \(String(describing: a.color(x: x, y: y))), drawn from scratch \(String(describing: b.color(x: x, y: y)))")
                return
            }
        }
    }

    @Test("A4: selecting and deselecting a line repaints only around it, and the canvas matches one drawn from scratch")
    func selectionIsLocal() throws {
        let canvas = Canvas(drawing: Drawing(strokes: Self.lines))
        let screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        let chosen = Self.lines[5]
        canvas.drawView.select(chosen.id)
        let dirty = try #require(canvas.render(into: screen))
        #expect(dirty.width <= chosen.bounds.width + 2 && dirty.height <= chosen.bounds.height + 2, "damage \(dirty)")
        let fresh = Canvas(drawing: Drawing(strokes: Self.lines))
        fresh.drawView.select(chosen.id)
        expectSame(screen, fresh.laidOutRender(), "selected")
        #expect(screen.color(x: Int(chosen.points[0].x + chosen.points[1].x) / 2, y: 120) == DrawView.selectedColor)

        canvas.drawView.select(Self.lines[2].id)
        canvas.render(into: screen)
        canvas.drawView.select(nil)
        canvas.render(into: screen)
        #expect(canvas.drawView.wholeCacheRenders == 1, "selecting re-made the whole line cache")
        expectSame(screen, Canvas(drawing: Drawing(strokes: Self.lines)).laidOutRender(), "deselected")
    }
}

@Suite("Lifting fingers")
struct LiftTests {
    @Test("A1: ten lines finished together show black in that frame, drawn live; the line cache takes them on the next turn and then matches a canvas drawn from scratch")
    func finishedLinesReachTheCacheAfterTheirFrame() {
        let canvas = Canvas()
        let screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        let lines = (0..<10).map { i in (x: 20 + Double(i) * 38, top: 30.0, bottom: 250.0) }
        for (i, line) in lines.enumerated() { canvas.down(Int32(i), line.x, line.top) }
        canvas.frame()
        for (i, line) in lines.enumerated() { canvas.move(Int32(i), line.x, line.bottom) }
        canvas.frame()
        canvas.render(into: screen)
        for i in lines.indices { canvas.up(Int32(i)) }
        canvas.input.frame()
        canvas.render(into: screen)
        #expect(canvas.drawView.linesAwaitingCache == 10)
        for line in lines {
            #expect(screen.color(x: Int(line.x), y: 140) == .black, "the line at x \(line.x) is not black yet")
        }
        // The next turn of the event loop draws them into the cache; a full repaint from it then
        // looks as if the drawing had been opened.
        canvas.clock.advance(by: 0.001)
        #expect(canvas.drawView.linesAwaitingCache == 0)
        canvas.drawView.setNeedsDisplay()
        canvas.render(into: screen)
        let scratch = Canvas(drawing: Drawing(strokes: canvas.drawView.drawing.strokes)).laidOutRender()
        SelectionRepaintTests().expectSame(screen, scratch, "after the lines went into the cache", rows: 240)  // above the toolbar, whose Undo differs
        #expect(canvas.drawView.wholeCacheRenders == 1)
    }
}

extension LiftTests {
    /// The green levels of the partly covered pixels in a band of rows (a red or black line on
    /// white paper: green falls with coverage).
    private func edgeLevels(_ image: ImageSurface, rows: ClosedRange<Int>) -> Set<Int> {
        var levels = Set<Int>()
        for y in rows {
            for x in 0..<400 {
                guard let g = image.color(x: x, y: y)?.green else { continue }
                let level = Int((g * 255).rounded())
                if level > 0, level < 255 { levels.insert(level) }
            }
        }
        return levels
    }

    @Test("A1: a straight line under a finger is drawn smooth as rows of pixels (as cheap as Cairo's coarse smoothing was), in the same place and with the same ink as Cairo's smooth line; lifted, it is smooth")
    func liveLinesAreSmoothRows() throws {
        let canvas = Canvas()
        let screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        // A shallow slope: long runs of partly covered pixels along both edges.
        canvas.down(1, 40, 60)
        canvas.frame()
        canvas.move(1, 360, 110)
        canvas.frame()
        canvas.render(into: screen)

        let smooth = ImageSurface(width: 400, height: 300)
        let context = CairoContext(surface: smooth)
        context.setFillColor(DrawView.paperColor)
        context.fill(Rect(x: 0, y: 0, width: 400, height: 300))
        // Cairo's own smooth stroke, for reference.
        context.setStrokeColor(DrawView.inProgressColor)
        context.setLineWidth(DrawView.lineWidth)
        context.setLineCap(.round)
        context.move(to: Point(x: 40, y: 60))
        context.addLine(to: Point(x: 360, y: 110))
        context.strokePath()
        // Same place and weight: no pixel off by a third of full coverage and the same ink
        // within 1%.
        var worst = 0.0, ink = 0.0, smoothInk = 0.0
        for y in 40..<130 {
            for x in 0..<400 {
                let a = try #require(screen.color(x: x, y: y)), b = try #require(smooth.color(x: x, y: y))
                worst = max(worst, abs(a.green - b.green), abs(a.red - b.red), abs(a.blue - b.blue))
                ink += 1 - a.green
                smoothInk += 1 - b.green
            }
        }
        #expect(worst < 1.0 / 3, "the live line lies where the smooth one does (worst pixel \(worst))")
        #expect(abs(ink - smoothInk) <= smoothInk / 100, "ink \(ink) against \(smoothInk)")
        let live = edgeLevels(screen, rows: 40...130), fine = edgeLevels(smooth, rows: 40...130)
        #expect(live.count > 17, "coverage in fine steps while the finger moves: \(live.sorted())")
        #expect(fine.count > 17)

        canvas.up(1)
        canvas.frame()
        canvas.drawView.setNeedsDisplay()
        canvas.render(into: screen)
        #expect(edgeLevels(screen, rows: 40...130).count > 17, "the finished line is smooth")
    }
}

@Suite("Resizing the canvas")
struct ResizeRepaintTests {
    @Test("Shrinking and growing the window re-makes only the newly shown strips of the line cache, matching a canvas drawn from scratch")
    func resizeKeepsTheCache() throws {
        let canvas = Canvas(drawing: Drawing(strokes: SelectionRepaintTests.lines))
        var screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        canvas.window.resize(to: Size(width: 250, height: 180))
        canvas.render(into: ImageSurface(width: 250, height: 180))
        canvas.window.resize(to: Size(width: 400, height: 300))
        screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        #expect(canvas.drawView.wholeCacheRenders == 1, "a resize re-made the whole line cache")
        SelectionRepaintTests().expectSame(screen, Canvas(drawing: Drawing(strokes: SelectionRepaintTests.lines)).laidOutRender(),
                                           "after shrinking and growing")
    }
}

@Suite("A big drawing opens in steps")
struct ProgressiveCacheTests {
    static let lines: [Stroke] = (0..<60).map { i in
        .line(StrokeID(i + 1), from: Point(x: 10 + Double(i % 20) * 19, y: 15 + Double(i / 20) * 70),
              to: Point(x: 30 + Double(i % 20) * 19, y: 70 + Double(i / 20) * 70))
    }

    /// Turns of the event loop: due timers fire, and what changed is painted.
    func turn(_ canvas: Canvas, _ screen: ImageSurface) {
        canvas.clock.advance(by: 0.001)
        canvas.render(into: screen)
    }

    func inked(_ screen: ImageSurface, _ line: Stroke) -> Bool {
        let p = Point(x: (line.points[0].x + line.points[1].x) / 2, y: (line.points[0].y + line.points[1].y) / 2)
        return screen.color(x: Int(p.x), y: Int(p.y)) == .black
    }

    @Test("The lines appear a slice per turn of the event loop, and the finished canvas matches one drawn at once")
    func appearsInSlices() {
        let canvas = Canvas(drawing: Drawing(strokes: Self.lines))
        canvas.drawView.cacheBuildSlice = 20
        let screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        #expect(canvas.drawView.isBuildingCache)
        #expect(inked(screen, Self.lines[0]) && !inked(screen, Self.lines[59]), "the first slice only")
        turn(canvas, screen)
        turn(canvas, screen)
        #expect(!canvas.drawView.isBuildingCache)
        #expect(Self.lines.allSatisfy { inked(screen, $0) })
        #expect(canvas.drawView.wholeCacheRenders == 1)
        SelectionRepaintTests().expectSame(screen, Canvas(drawing: Drawing(strokes: Self.lines)).laidOutRender(), "built in slices")
    }

    @Test("A line finished while the drawing is still appearing shows at once and stays on top; a deletion starts the build again")
    func changesDuringTheBuild() {
        let drawing = Drawing(strokes: Self.lines)
        let canvas = Canvas(drawing: drawing)
        canvas.drawView.cacheBuildSlice = 20
        let screen = ImageSurface(width: 400, height: 300)
        canvas.render(into: screen)
        // A line across the last rows, which are not drawn yet.
        canvas.drawLine(1, from: (5, 180), to: (390, 180))
        canvas.render(into: screen)
        #expect(drawing.strokes.count == 61)
        #expect(screen.color(x: 200, y: 180) == .black, "the new line shows before the build reaches its place")
        while canvas.drawView.isBuildingCache { turn(canvas, screen) }
        canvas.render(into: screen)
        #expect(screen.color(x: 200, y: 180) == .black, "and stays once it is in the cache")
        let reference = Canvas(drawing: Drawing(strokes: drawing.strokes))
        // The canvas only: the toolbar's Undo is enabled here and not in the reference.
        let canvasRows = Int(canvas.drawView.convert(canvas.drawView.bounds, to: nil).maxY)
        SelectionRepaintTests().expectSame(screen, reference.laidOutRender(), "with a line added mid-build", rows: canvasRows)

        // Undo of the clear that follows rebuilds in steps; deleting a line meanwhile starts over.
        drawing.removeAll()
        canvas.render(into: screen)
        drawing.undoStack.undo()
        canvas.render(into: screen)
        #expect(canvas.drawView.isBuildingCache)
        drawing.remove(Self.lines[0].id)
        canvas.render(into: screen)  // the build starts again with the next paint
        #expect(canvas.drawView.isBuildingCache)
        while canvas.drawView.isBuildingCache { turn(canvas, screen) }
        canvas.render(into: screen)
        SelectionRepaintTests().expectSame(screen, Canvas(drawing: Drawing(strokes: drawing.strokes)).laidOutRender(),
                                           "after a deletion mid-build", rows: canvasRows)
    }
}

@Suite("Pen and fingers")
struct PenTests {
    @Test("A pen's pressure sets its line's width; the firmest moment wins")
    func pressureSetsWidth() {
        let canvas = Canvas()
        let pen = TouchInput.ID(source: .tablet, number: 0)
        canvas.input.down(pen, at: Point(x: 50, y: 50), time: canvas.clock.now, kind: .pencil, force: 0.1)
        canvas.frame()
        canvas.input.motion(pen, at: Point(x: 150, y: 50), time: canvas.clock.now, force: 0.9)
        canvas.frame()
        canvas.input.motion(pen, at: Point(x: 250, y: 50), time: canvas.clock.now, force: 0.2)
        canvas.frame()
        canvas.input.up(pen, time: canvas.clock.now)
        canvas.frame()
        let stroke = canvas.drawView.drawing.strokes.first
        #expect(stroke?.width == DrawView.penWidth(force: 0.9))
        let image = canvas.renderAll()
        // 3 + 17 * 0.9 = 18.3 pt wide: black 8 pt off the centre line, white at 11.
        #expect(image.color(x: 150, y: 58) == .black)
        #expect(image.color(x: 150, y: 61) == .white)
    }

    @Test("With finger drawing off, fingers draw nothing while the pen and the mouse still draw")
    func penOnly() {
        let canvas = Canvas()
        canvas.drawView.drawsWithFingers = false
        canvas.drawLine(1, from: (20, 20), to: (200, 20))
        #expect(canvas.drawView.drawing.strokes.isEmpty)
        let mouse = TouchInput.ID(source: .pointer, number: 0)
        canvas.input.down(mouse, at: Point(x: 20, y: 100), time: canvas.clock.now, kind: .indirectPointer)
        canvas.frame()
        canvas.input.motion(mouse, at: Point(x: 200, y: 100), time: canvas.clock.now)
        canvas.frame()
        canvas.input.up(mouse, time: canvas.clock.now)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.count == 1)
    }
}
