// A canvas covered with long, overlapping lines: selecting costs nothing in the line cache, and
// what a deletion or a change re-makes is spread over turns of the event loop, a time budget each,
// and ends in the picture a canvas drawn from scratch shows.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Dense drawings")
struct DenseDrawingTests {
    /// Long lines from anywhere to anywhere on a 400x300 canvas, the same every run.
    static func denseLines(_ count: Int) -> [Stroke] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ limit: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * limit
        }
        return (0..<count).map { i in
            .line(StrokeID(i + 1), from: Point(x: next(400), y: next(300)), to: Point(x: next(400), y: next(300)))
        }
    }

    /// The app's canvas on a clock that moves a millisecond each time it is read, so that a turn's
    /// time budget runs out after a few pieces of work, as it does in a dense drawing.
    final class TickingCanvas {
        var time = 100.0
        lazy var clock = EventLoopClock(now: { [unowned self] in
            self.time += 0.001
            return self.time
        })
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let controller: DrawViewController
        var application: Application!
        let screen = ImageSurface(width: 400, height: 300)

        init(drawing: Drawing) {
            controller = DrawViewController(drawing: drawing)
            application = Application(clock: clock)
            application.addWindow(window)
            window.rootViewController = controller
            render()
        }

        var drawView: DrawView { controller.drawView }

        func render() {
            guard let dirty = window.takeDirtyRect() else { return }
            window.paint(DirtyRegion([dirty]), into: screen, scale: 1)
        }

        /// Turns of the event loop (timers, then a paint) until the cache is whole; how many.
        @discardableResult
        func settle() -> Int {
            var turns = 0
            while drawView.isBuildingCache || drawView.isRepairingCache {
                clock.fireDueTimers()
                render()
                turns += 1
                if turns > 10_000 { break }
            }
            render()
            return turns
        }
    }

    func expectSame(_ a: ImageSurface, _ b: ImageSurface, _ what: String) {
        func close(_ p: Color?, _ q: Color?) -> Bool {
            guard let p, let q else { return p == q }
            return [p.red - q.red, p.green - q.green, p.blue - q.blue].allSatisfy { abs($0) <= 4.0 / 255 }
        }
        var differing = 0
        // Above the toolbar, whose Undo and Redo differ from a fresh canvas.
        for y in stride(from: 0, to: 200, by: 2) {
            for x in stride(from: 0, to: 400, by: 2) where !close(a.color(x: x, y: y), b.color(x: x, y: y)) {
                differing += 1
            }
        }
        #expect(differing == 0, "\(what): \(differing) pixels differ from a canvas drawn from scratch")
    }

    /// The same drawing, drawn at once.
    func fromScratch(_ strokes: [Stroke], selected: StrokeID? = nil) -> ImageSurface {
        let fresh = TickingCanvas(drawing: Drawing(strokes: strokes))
        if let selected { fresh.drawView.select(selected) }
        fresh.settle()
        return fresh.screen
    }

    @Test("A4: selecting and deselecting a line in a dense drawing re-makes nothing in the line cache")
    func selectionTouchesNoCache() {
        let lines = Self.denseLines(1_500)
        let canvas = TickingCanvas(drawing: Drawing(strokes: lines))
        canvas.settle()
        let chosen = lines[700].id
        canvas.drawView.select(chosen)
        #expect(!canvas.drawView.isRepairingCache)
        canvas.render()
        expectSame(canvas.screen, fromScratch(lines, selected: chosen), "selected")
        canvas.drawView.select(nil)
        #expect(!canvas.drawView.isRepairingCache)
        canvas.render()
        expectSame(canvas.screen, fromScratch(lines), "deselected")
        #expect(canvas.drawView.wholeCacheRenders == 1)
    }

    @Test("A5: deleting a line from a dense drawing is spread over turns, each within its budget, and ends as drawn from scratch")
    func deletionIsSpreadOverTurns() {
        let lines = Self.denseLines(1_500)
        let canvas = TickingCanvas(drawing: Drawing(strokes: lines))
        canvas.settle()
        // The longest line: the most pieces to re-make.
        let longest = lines.max { $0.bounds.width + $0.bounds.height < $1.bounds.width + $1.bounds.height }!
        canvas.drawView.select(longest.id)
        canvas.drawView.deleteSelectedLine()
        #expect(canvas.drawView.isRepairingCache, "re-made at once, in one turn")
        let turns = canvas.settle()
        #expect(turns >= 2)
        #expect(canvas.drawView.wholeCacheRenders == 1)
        // Some tiles hold more lines than a turn may draw: those were made aside over turns.
        #expect(canvas.drawView.cacheTilesMadeAside > 0)
        expectSame(canvas.screen, fromScratch(lines.filter { $0.id != longest.id }), "after the deletion")
    }

    @Test("A8: recolouring a line of a dense drawing keeps its place in the paint order once the cache is re-made")
    func changeKeepsPaintOrder() {
        let lines = Self.denseLines(800)
        let drawing = Drawing(strokes: lines)
        let canvas = TickingCanvas(drawing: drawing)
        canvas.settle()
        let id = lines[100].id
        drawing.update(id) { $0.color = .blue }
        canvas.settle()
        var expected = lines
        expected[100].color = .blue
        expectSame(canvas.screen, fromScratch(expected), "after the change")
    }

    @Test("A3: a clear and its undo in a dense drawing: the whole cache is drawn over several turns, none longer than its budget allows")
    func undoOfClearIsSliced() {
        let lines = Self.denseLines(1_500)
        let drawing = Drawing(strokes: lines)
        let canvas = TickingCanvas(drawing: drawing)
        canvas.settle()
        canvas.drawView.clearAll()
        canvas.settle()
        drawing.undoStack.undo()
        canvas.render()
        #expect(canvas.drawView.isBuildingCache, "the undo drew every line in one turn")
        #expect(canvas.settle() >= 2)
        expectSame(canvas.screen, fromScratch(lines), "after the undo")
    }

    @Test("A8: undoing the deletion of one line or of two puts them back at their places in the paint order, not on top")
    func undoOfDeletionKeepsPaintOrder() {
        // Every other line blue: where lines cross, the order decides the colour.
        var lines = Self.denseLines(800)
        for i in lines.indices where i % 2 == 0 { lines[i].color = .blue }
        let drawing = Drawing(strokes: lines)
        let canvas = TickingCanvas(drawing: drawing)
        canvas.settle()
        drawing.remove(lines[100].id)
        canvas.settle()
        drawing.undoStack.undo()
        canvas.settle()
        expectSame(canvas.screen, fromScratch(lines), "after undoing the deletion")
        drawing.remove([lines[200].id, lines[301].id], actionName: "Delete")
        canvas.settle()
        drawing.undoStack.undo()
        canvas.settle()
        expectSame(canvas.screen, fromScratch(lines), "after undoing the deletion of two lines")
    }
}
