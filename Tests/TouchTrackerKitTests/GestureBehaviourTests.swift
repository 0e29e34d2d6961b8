// The book's gestures on the real canvas, driven through TouchKit's input adapter with a manual
// clock: A3-A7 and the menu (M1).
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

/// Records what the menu presenter was asked to do.
final class RecordingPresenter: MenuPresenter {
    var shown: [(items: [MenuController.Item], rect: Rect)] = []
    var dismissals = 0
    func presentMenu(_ items: [MenuController.Item], pointingAt rect: Rect, in window: Window) {
        shown.append((items, rect))
    }
    func dismissMenu() { dismissals += 1 }
}

extension Canvas {
    /// A quick tap: down and up 50 ms apart, then time passes beyond the double-tap window.
    func tap(_ id: Int32, _ x: Double, _ y: Double, settle: Bool = true) {
        down(id, x, y)
        frame()
        clock.advance(by: 0.05)
        up(id)
        frame()
        if settle { clock.advance(by: 0.5) }
    }

    func drawLine(_ id: Int32, from a: Point, to b: Point) {
        down(id, a.x, a.y)
        frame()
        for step in 1...5 {
            let t = Double(step) / 5
            move(id, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            frame()
        }
        up(id)
        frame()
        clock.advance(by: 0.5)
    }

    var menu: MenuController { application.menuController }
}

@Suite("The book's gestures on the canvas")
struct GestureBehaviourTests {
    @Test("A3: a double tap clears every line and its taps leave no dots")
    func doubleTapClears() {
        let canvas = Canvas()
        canvas.drawLine(1, from: Point(x: 20, y: 20), to: Point(x: 300, y: 20))
        canvas.drawLine(2, from: Point(x: 20, y: 200), to: Point(x: 300, y: 200))
        #expect(canvas.drawView.drawing.strokes.count == 2)
        canvas.tap(3, 200, 120, settle: false)
        canvas.clock.advance(by: 0.1)
        canvas.tap(4, 201, 121, settle: false)
        #expect(canvas.drawView.drawing.strokes.isEmpty)
        #expect(canvas.drawView.strokesInProgress.isEmpty)
        canvas.clock.advance(by: 1)
        #expect(canvas.drawView.drawing.strokes.isEmpty, "no dots from the taps")
        let image = canvas.renderAll()
        #expect(image.color(x: 200, y: 120) == .white)
        // Clearing is undoable.
        canvas.drawView.drawing.undoStack.undo()
        #expect(canvas.drawView.drawing.strokes.count == 2)
    }

    @Test("A4 M1: a tap near a line selects it (green) and shows Delete at the tap once the double tap failed")
    func tapSelects() throws {
        let canvas = Canvas()
        let presenter = RecordingPresenter()
        canvas.menu.presenter = presenter
        canvas.drawLine(1, from: Point(x: 20, y: 100), to: Point(x: 380, y: 100))
        canvas.down(2, 200, 115)
        canvas.frame()
        canvas.clock.advance(by: 0.05)
        canvas.up(2)
        canvas.frame()
        // Still waiting: this might be the first tap of a double tap.
        #expect(canvas.drawView.selectedStrokeID == nil)
        canvas.clock.advance(by: 0.5)
        let selected = try #require(canvas.drawView.selectedStrokeID)
        #expect(selected == canvas.drawView.drawing.strokes[0].id)
        #expect(canvas.menu.isMenuVisible)
        #expect(presenter.shown.last?.items.map(\.title) == ["Delete"])
        #expect(presenter.shown.last?.rect.origin == Point(x: 200, y: 115))
        #expect(canvas.drawView.isFirstResponder)
        #expect(canvas.renderAll().color(x: 100, y: 100) == .green)
        // The tap left no dot.
        #expect(canvas.drawView.drawing.strokes.count == 1)
    }

    @Test("A4: a tap on empty space deselects and hides the menu")
    func tapElsewhereDeselects() {
        let canvas = Canvas()
        canvas.drawLine(1, from: Point(x: 20, y: 100), to: Point(x: 380, y: 100))
        canvas.tap(2, 200, 102)
        #expect(canvas.menu.isMenuVisible)
        canvas.tap(3, 200, 250)
        #expect(canvas.drawView.selectedStrokeID == nil)
        #expect(!canvas.menu.isMenuVisible)
        #expect(canvas.renderAll().color(x: 100, y: 100) == .black)
    }

    @Test("A5 M1: choosing Delete removes the selected line through the responder chain; undo brings it back")
    func deleteFromMenu() throws {
        let canvas = Canvas()
        canvas.drawLine(1, from: Point(x: 20, y: 100), to: Point(x: 380, y: 100))
        canvas.drawLine(2, from: Point(x: 20, y: 200), to: Point(x: 380, y: 200))
        canvas.tap(3, 200, 105)
        let item = try #require(canvas.menu.visibleItems.first)
        canvas.menu.choose(item)
        #expect(canvas.drawView.drawing.strokes.count == 1)
        #expect(canvas.drawView.drawing.strokes[0].points[0].y == 200)
        #expect(!canvas.menu.isMenuVisible)
        #expect(canvas.menu.visibleItems.isEmpty, "nothing selected: the chain cannot delete")
        canvas.drawView.drawing.undoStack.undo()
        #expect(canvas.drawView.drawing.strokes.count == 2)
    }

    @Test("A6: a long press selects a line, the pan drags it under the finger, release deselects")
    func longPressDrags() throws {
        let canvas = Canvas()
        canvas.drawLine(1, from: Point(x: 100, y: 100), to: Point(x: 300, y: 100))
        canvas.down(2, 200, 100)
        canvas.frame()
        canvas.clock.advance(by: 0.7)
        #expect(canvas.drawView.selectedStrokeID != nil)
        for step in 1...10 {
            canvas.move(2, 200 + Double(step) * 5, 100 + Double(step) * 10)
            canvas.frame()
        }
        // The selected line is drawn where the finger took it, in green.
        var image = canvas.renderAll()
        #expect(image.color(x: 250, y: 200) == .green)
        #expect(image.color(x: 150, y: 100) == .white)
        canvas.up(2)
        canvas.frame()
        #expect(canvas.drawView.selectedStrokeID == nil)
        let moved = canvas.drawView.drawing.strokes[0]
        #expect(moved.points == [Point(x: 150, y: 200), Point(x: 350, y: 200)])
        #expect(canvas.drawView.drawing.strokes.count == 1, "dragging drew no new line")
        image = canvas.renderAll()
        #expect(image.color(x: 250, y: 200) == .black)
        // The whole drag is one undo step.
        canvas.drawView.drawing.undoStack.undo()
        #expect(canvas.drawView.drawing.strokes[0].points == [Point(x: 100, y: 100), Point(x: 300, y: 100)])
    }

    @Test("A6: while the menu is visible the pan moves nothing, and a new line drawn then is kept (mysterious lines)")
    func menuBlocksDrag() {
        let canvas = Canvas()
        canvas.drawLine(1, from: Point(x: 100, y: 100), to: Point(x: 300, y: 100))
        canvas.tap(2, 200, 100)
        #expect(canvas.menu.isMenuVisible)
        canvas.drawLine(3, from: Point(x: 50, y: 250), to: Point(x: 350, y: 250))
        #expect(canvas.drawView.drawing.strokes.count == 2)
        #expect(canvas.drawView.drawing.strokes[0].points == [Point(x: 100, y: 100), Point(x: 300, y: 100)])
    }

    @Test("A7: with nothing selected, moving fingers draw lines although the pan recognizes")
    func panDoesNotSwallowDrawing() {
        let canvas = Canvas()
        canvas.down(1, 50, 50)
        canvas.down(2, 50, 150)
        canvas.frame()
        for step in 1...10 {
            canvas.move(1, 50 + Double(step) * 30, 50)
            canvas.move(2, 50 + Double(step) * 30, 150)
            canvas.frame()
        }
        #expect(canvas.drawView.moveRecognizer.state == .changed)
        #expect(canvas.drawView.strokesInProgress.count == 2)
        canvas.up(1)
        canvas.up(2)
        canvas.frame()
        #expect(canvas.drawView.drawing.strokes.count == 2)
    }
}
