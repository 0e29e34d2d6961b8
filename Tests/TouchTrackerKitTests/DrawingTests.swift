// The document model: strokes, hit-testing by true distance, undo and redo of every change.
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Drawing")
struct DrawingTests {
    func line(_ drawing: Drawing, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Stroke {
        drawing.add(.line(drawing.makeID(), from: Point(x: x1, y: y1), to: Point(x: x2, y: y2)))
    }

    @Test("A4: hit-testing measures the distance to the segment, not to sample points")
    func hitTestUsesSegmentDistance() {
        let drawing = Drawing()
        let long = line(drawing, 0, 0, 1000, 0)
        // 19 pt from the middle of a long line: 20 samples would be 50 pt apart and miss it.
        #expect(drawing.stroke(near: Point(x: 525, y: 19), within: 20)?.id == long.id)
        #expect(drawing.stroke(near: Point(x: 525, y: 21), within: 20) == nil)
        // Beyond the end, the distance is to the end point.
        #expect(drawing.stroke(near: Point(x: 1015, y: 0), within: 20)?.id == long.id)
        #expect(drawing.stroke(near: Point(x: 1015, y: 15), within: 20) == nil)
    }

    @Test("The nearest stroke wins; on a tie the top-most")
    func nearestWins() {
        let drawing = Drawing()
        let a = line(drawing, 0, 0, 100, 0)
        let b = line(drawing, 0, 10, 100, 10)
        #expect(drawing.stroke(near: Point(x: 50, y: 2), within: 20)?.id == a.id)
        #expect(drawing.stroke(near: Point(x: 50, y: 8), within: 20)?.id == b.id)
        let c = line(drawing, 0, 0, 100, 0)
        #expect(drawing.stroke(near: Point(x: 50, y: 0), within: 20)?.id == c.id)
    }

    @Test("Undo and redo every change: draw, delete, clear, move")
    func undoRedo() {
        let drawing = Drawing()
        let a = line(drawing, 0, 0, 10, 10)
        let b = line(drawing, 20, 20, 30, 30)
        drawing.remove(a.id)
        #expect(drawing.strokes.map(\.id) == [b.id])
        drawing.undoStack.undo()
        #expect(drawing.strokes.map(\.id) == [a.id, b.id], "undo of delete restores the paint order")
        drawing.update(b.id, actionName: "Move") { $0 = $0.translated(dx: 5, dy: 0) }
        #expect(drawing.stroke(b.id)?.points.first == Point(x: 25, y: 20))
        drawing.removeAll()
        #expect(drawing.strokes.isEmpty)
        drawing.undoStack.undo()
        #expect(drawing.strokes.count == 2)
        drawing.undoStack.undo()
        #expect(drawing.stroke(b.id)?.points.first == Point(x: 20, y: 20))
        drawing.undoStack.redo()
        #expect(drawing.stroke(b.id)?.points.first == Point(x: 25, y: 20))
        drawing.undoStack.redo()
        #expect(drawing.strokes.isEmpty)
        #expect(!drawing.undoStack.canRedo)
        drawing.undoStack.undo()
        drawing.undoStack.undo()
        // The delete was undone before the move, so the redo history it left was dropped: the
        // third undo takes back drawing b.
        drawing.undoStack.undo()
        #expect(drawing.strokes.map(\.id) == [a.id])
        // A new change clears the redo history.
        _ = line(drawing, 1, 1, 2, 2)
        #expect(!drawing.undoStack.canRedo)
    }

    @Test("P3: strokes added together, and removed together from between others, are one step each; undo puts each back in its place")
    func manyAtOnce() {
        let drawing = Drawing()
        let a = line(drawing, 0, 0, 100, 0)
        let pasted = drawing.add(contentsOf: [.line(a.id, from: Point(x: 0, y: 50), to: Point(x: 100, y: 50)),
                                              .line(StrokeID(99), from: Point(x: 0, y: 80), to: Point(x: 100, y: 80))])
        #expect(pasted.count == 2 && pasted[0].id != a.id && pasted[1].id == StrokeID(99), "only a taken id changes")
        let c = line(drawing, 0, 120, 100, 120)
        #expect(drawing.makeID().rawValue > 99, "ids continue past the pasted ones")
        drawing.remove([a.id, pasted[1].id], actionName: "Cut")
        #expect(drawing.strokes.map(\.id) == [pasted[0].id, c.id])
        #expect(drawing.stroke(near: Point(x: 50, y: 80), within: 5) == nil)
        drawing.undoStack.undo()
        #expect(drawing.strokes.map(\.id) == [a.id, pasted[0].id, pasted[1].id, c.id], "each back in its place")
        #expect(drawing.stroke(near: Point(x: 50, y: 80), within: 5)?.id == pasted[1].id)
        drawing.undoStack.redo()
        #expect(drawing.strokes.map(\.id) == [pasted[0].id, c.id])
        drawing.undoStack.undo()
        drawing.undoStack.undo()  // the line c
        drawing.undoStack.undo()  // the paste, in one step
        #expect(drawing.strokes.map(\.id) == [a.id])
        #expect(drawing.add(contentsOf: []).isEmpty && drawing.undoStack.undoActionName == "Draw", "an empty paste is no step")
    }

    @Test("Observers hear each change")
    func observers() {
        let drawing = Drawing()
        var changes: [Drawing.Change] = []
        drawing.observe { changes.append($0) }
        let a = line(drawing, 0, 0, 10, 10)
        drawing.remove(a.id)
        drawing.undoStack.undo()
        #expect(changes == [.added(a), .removed(a), .added(a)])
    }
}
