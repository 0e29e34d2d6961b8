// The draw board (A8) and the book's end-of-chapter challenges on the canvas: tools, toggles, palette,
// undo through controls with target-action.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

extension Canvas {
    /// Taps a control the way a finger would: down and up on its centre.
    func press(_ control: Control, id: Int32 = 90) {
        window.layoutIfNeeded()
        let centre = control.convert(Point(x: control.bounds.midX, y: control.bounds.midY), to: nil)
        down(id, centre.x, centre.y)
        frame()
        up(id)
        frame()
        clock.advance(by: 0.5)
    }
}

@Suite("Tools and toolbar")
struct ToolTests {
    @Test("A8: the freehand tool keeps every sample of the finger as one stroke")
    func freehand() {
        let canvas = Canvas()
        canvas.press(canvas.controller.toolbar.freehandButton)
        #expect(canvas.drawView.tool == .freehand)
        canvas.down(1, 50, 50)
        canvas.frame()
        for step in 1...20 {
            canvas.move(1, 50 + Double(step) * 10, 50 + (step % 2 == 0 ? 0 : 30))
            canvas.frame()
        }
        canvas.up(1)
        canvas.frame()
        let stroke = canvas.drawView.drawing.strokes.first
        #expect(stroke?.kind == .freehand)
        #expect((stroke?.points.count ?? 0) >= 21)
        // A zigzag, not a straight line: the middle of a segment lies off the first-to-last line.
        #expect(canvas.renderAll().color(x: 65, y: 65) == .black)
    }

    @Test("A8: two fingers span a circle with the circle tool; lifting one finishes it")
    func circleTool() throws {
        let canvas = Canvas()
        canvas.press(canvas.controller.toolbar.circleButton)
        canvas.down(1, 100, 50)
        canvas.down(2, 300, 200)
        canvas.frame()
        canvas.move(2, 300, 210)
        canvas.frame()
        canvas.up(1)
        canvas.up(2)
        canvas.frame()
        let circle = try #require(canvas.drawView.drawing.strokes.first)
        #expect(circle.kind == .circle)
        #expect(canvas.drawView.drawing.strokes.count == 1)
        let image = canvas.renderAll()
        // The ellipse in the box (100,50)-(300,210): its leftmost point and its centre.
        #expect(image.color(x: 100, y: 130) == .black)
        #expect(image.color(x: 200, y: 130) == .white)
    }

    @Test("A8: the palette's colour becomes the pen's, and recolours the selected line (undoable)")
    func paletteColours() throws {
        let canvas = Canvas()
        canvas.press(canvas.controller.toolbar.paletteButton)
        #expect(canvas.controller.isPaletteVisible)
        let blue = PaletteView.colors[5]
        canvas.press(canvas.controller.palette.swatches[5])
        #expect(!canvas.controller.isPaletteVisible)
        canvas.drawLine(1, from: Point(x: 20, y: 50), to: Point(x: 300, y: 50))
        #expect(canvas.drawView.drawing.strokes.first?.color == blue)
        // Select it, pick red: it turns red; undo turns it back.
        canvas.tap(2, 150, 52)
        #expect(canvas.drawView.selectedStrokeID != nil)
        canvas.press(canvas.controller.toolbar.paletteButton)
        canvas.press(canvas.controller.palette.swatches[1])
        #expect(canvas.drawView.drawing.strokes.first?.color == PaletteView.colors[1])
        canvas.drawView.drawing.undoStack.undo()
        #expect(canvas.drawView.drawing.strokes.first?.color == blue)
    }

    @Test("A8: the Undo and Redo buttons undo and redo, and are disabled when there is nothing to do")
    func undoButtons() {
        let canvas = Canvas()
        let toolbar = canvas.controller.toolbar
        #expect(!toolbar.undoButton.isEnabled)
        canvas.drawLine(1, from: Point(x: 20, y: 50), to: Point(x: 300, y: 50))
        #expect(toolbar.undoButton.isEnabled && !toolbar.redoButton.isEnabled)
        canvas.press(toolbar.undoButton)
        #expect(canvas.drawView.drawing.strokes.isEmpty)
        #expect(toolbar.redoButton.isEnabled)
        canvas.press(toolbar.redoButton)
        #expect(canvas.drawView.drawing.strokes.count == 1)
    }

    @Test("Book challenge: with colour by angle, a line's colour follows its direction")
    func colourByAngle() {
        // Wide: the toggles are on the bar.
        let canvas = Canvas(width: 800)
        canvas.press(canvas.controller.toolbar.angleButton)
        canvas.drawLine(1, from: Point(x: 20, y: 50), to: Point(x: 300, y: 50))  // 0 rad: red
        canvas.drawLine(2, from: Point(x: 100, y: 20), to: Point(x: 100, y: 200))  // pi/2: cyan-green side
        let colours = canvas.drawView.drawing.strokes.map(\.color)
        #expect(colours[0] == DrawView.color(forAngle: 0))
        #expect(colours[0] == Color(red: 1, green: 0, blue: 0))
        #expect(colours[1] == DrawView.color(forAngle: Double.pi / 2))
        #expect(colours[0] != colours[1])
    }

    @Test("Book challenge: with width by speed, a fast finger draws a thicker line than a slow one")
    func widthBySpeed() {
        // Wide: the toggles are on the bar.
        let canvas = Canvas(width: 800)
        canvas.press(canvas.controller.toolbar.speedButton)
        // Slow: 280 pt in 5 frames of 0.2 s.
        canvas.down(1, 20, 50)
        canvas.frame()
        for step in 1...5 {
            canvas.clock.advance(by: 0.2)
            canvas.move(1, 20 + Double(step) * 56, 50)
            canvas.frame()
        }
        canvas.up(1)
        canvas.frame()
        // Fast: the same distance in 5 frames of 16 ms.
        canvas.drawLine(2, from: Point(x: 20, y: 150), to: Point(x: 300, y: 150))
        let widths = canvas.drawView.drawing.strokes.map(\.width)
        #expect(widths[0] < widths[1], "\(widths)")
    }

    @Test("Book challenge: a three-finger swipe up shows the palette and leaves no lines; three fingers moving sideways draw three")
    func threeFingerSwipe() {
        let canvas = Canvas()
        for id in Int32(1)...3 { canvas.down(id, 100 + Double(id) * 60, 220) }
        canvas.frame()
        for step in 1...6 {
            for id in Int32(1)...3 { canvas.move(id, 100 + Double(id) * 60, 220 - Double(step) * 20) }
            canvas.frame()
        }
        #expect(canvas.controller.isPaletteVisible)
        for id in Int32(1)...3 { canvas.up(id) }
        canvas.frame()
        canvas.clock.advance(by: 0.5)
        #expect(canvas.drawView.drawing.strokes.isEmpty, "no stray lines")
        canvas.controller.isPaletteVisible = false

        for id in Int32(1)...3 { canvas.down(id, 20, 40 + Double(id) * 50) }
        canvas.frame()
        for step in 1...6 {
            for id in Int32(1)...3 { canvas.move(id, 20 + Double(step) * 40, 40 + Double(id) * 50) }
            canvas.frame()
        }
        for id in Int32(1)...3 { canvas.up(id) }
        canvas.frame()
        #expect(!canvas.controller.isPaletteVisible)
        #expect(canvas.drawView.drawing.strokes.count == 3)
    }

    @Test("The finger toggle: fingers stop drawing but still work the toolbar")
    func fingerToggle() {
        // Wide: the toggles are on the bar.
        let canvas = Canvas(width: 800)
        canvas.press(canvas.controller.toolbar.fingersButton)
        #expect(!canvas.drawView.drawsWithFingers)
        canvas.drawLine(1, from: Point(x: 20, y: 50), to: Point(x: 300, y: 50))
        #expect(canvas.drawView.drawing.strokes.isEmpty)
        canvas.press(canvas.controller.toolbar.fingersButton)
        canvas.drawLine(2, from: Point(x: 20, y: 50), to: Point(x: 300, y: 50))
        #expect(canvas.drawView.drawing.strokes.count == 1)
    }

    @Test("The narrow bar (a phone): More shows New and the toggles in the menu, checked when on; Angle there turns colours by angle on")
    func overflowMenu() {
        let canvas = Canvas(width: 360)
        let toolbar = canvas.controller.toolbar
        canvas.window.layoutIfNeeded()
        #expect(toolbar.isNarrow && toolbar.angleButton.isHidden && !toolbar.moreButton.isHidden)
        let menu = canvas.application.menuController
        canvas.press(toolbar.moreButton)
        #expect(menu.isMenuVisible)
        #expect(menu.visibleItems.map(\.title) == ["New", "Angle", "Speed", "✓ Fingers"])
        menu.choose(menu.visibleItems[1])
        #expect(canvas.drawView.colorsByAngle && !menu.isMenuVisible)
        canvas.press(toolbar.moreButton)
        #expect(menu.visibleItems[1].title == "✓ Angle")
    }

    @Test("More shows as on while its menu is open, and off once it closes or the edit menu takes its place")
    func moreShowsItsMenu() {
        let canvas = Canvas(width: 360)
        let toolbar = canvas.controller.toolbar
        canvas.window.layoutIfNeeded()
        let menu = canvas.application.menuController
        #expect(!toolbar.moreButton.isOn)
        canvas.press(toolbar.moreButton)
        #expect(menu.isMenuVisible && toolbar.moreButton.isOn)
        menu.menuWasDismissed()
        #expect(!toolbar.moreButton.isOn)
        canvas.press(toolbar.moreButton)
        #expect(toolbar.moreButton.isOn)
        menu.choose(menu.visibleItems[0])
        #expect(!menu.isMenuVisible && !toolbar.moreButton.isOn)
        canvas.press(toolbar.moreButton)
        // Another menu in its place (one whose item the controller can perform).
        menu.menuItems = [MenuController.Item(title: "Other", action: DrawViewController.overflowAction(.speed))]
        menu.setTargetRect(Rect(x: 10, y: 10, width: 1, height: 1), in: canvas.drawView)
        menu.setMenuVisible(true)
        #expect(menu.isMenuVisible && !toolbar.moreButton.isOn)
    }
}
