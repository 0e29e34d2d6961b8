// The keyboard path (Canvas/CanvasKeyboard.swift) without a compositor: Tab through the canvas's
// lines and the toolbar, arrows moving the selected line undoably, Space pressing the focused
// control, the Menu key opening the edit menu, the focus ring where the focus is.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("The keyboard path")
struct AccessibilityKeyboardTests {
    static func twoLines() -> Canvas {
        let canvas = Canvas(width: 800)
        canvas.window.layoutIfNeeded()
        canvas.drawLine(1, from: (20, 20), to: (200, 100))
        canvas.drawLine(2, from: (300, 150), to: (500, 150))
        return canvas
    }

    @Test("E11: Tab focuses the canvas, steps through its lines in drawing order selecting each, then goes on to the toolbar; Shift+Tab comes back")
    func tabOrder() {
        let canvas = Self.twoLines()
        let keys = canvas.controller.keyboard, drawing = canvas.drawView.drawing
        #expect(keys.focused == nil)
        keys.handle(key: "Tab")
        #expect(keys.focused === canvas.drawView && canvas.drawView.selectedStrokeID == nil)
        keys.handle(key: "Tab")
        #expect(canvas.drawView.selectedStrokeID == drawing.strokes[0].id)
        keys.handle(key: "Tab")
        #expect(canvas.drawView.selectedStrokeID == drawing.strokes[1].id)
        keys.handle(key: "Tab")
        #expect(keys.focused === canvas.controller.toolbar.newButton && canvas.drawView.selectedStrokeID == nil)
        keys.handle(key: "Tab")
        #expect(keys.focused === canvas.controller.toolbar.undoButton)
        keys.handle(key: "Tab")
        #expect(keys.focused === canvas.controller.toolbar.lineButton, "Redo, with nothing to redo, is passed over")
        keys.handle(key: "ISO_Left_Tab", shift: true)
        keys.handle(key: "ISO_Left_Tab", shift: true)
        #expect(keys.focused === canvas.controller.toolbar.newButton)
        keys.handle(key: "Tab", shift: true)
        #expect(keys.focused === canvas.drawView && canvas.drawView.selectedStrokeID == drawing.strokes[1].id,
                "entering the canvas backwards lands on its last line")
        keys.handle(key: "Tab", shift: true)
        #expect(canvas.drawView.selectedStrokeID == drawing.strokes[0].id)
    }

    @Test("E12: arrows move the selected line by 10 points, 50 with Shift, each press one undoable step")
    func arrowsMove() throws {
        let canvas = Self.twoLines()
        let keys = canvas.controller.keyboard, drawing = canvas.drawView.drawing
        keys.handle(key: "Tab")
        #expect(keys.handle(key: "Down"), "with no line selected, Down selects the first")
        let id = try #require(canvas.drawView.selectedStrokeID)
        #expect(id == drawing.strokes[0].id)
        keys.handle(key: "Right")
        keys.handle(key: "Down", shift: true)
        #expect(Array(drawing.stroke(id)!.points) == [Point(x: 30, y: 70), Point(x: 210, y: 150)])
        drawing.undoStack.undo()
        #expect(Array(drawing.stroke(id)!.points) == [Point(x: 30, y: 20), Point(x: 210, y: 100)])
        drawing.undoStack.undo()
        #expect(Array(drawing.stroke(id)!.points) == [Point(x: 20, y: 20), Point(x: 200, y: 100)])
        keys.handle(key: "Tab")
        keys.handle(key: "Tab")
        #expect(!keys.handle(key: "Left"), "outside the canvas arrows are not the keyboard path's")
    }

    @Test("E13: Space presses the focused control; Enter in the canvas and the Menu key open the edit menu for the selected line")
    func pressAndMenu() throws {
        let canvas = Self.twoLines()
        let keys = canvas.controller.keyboard
        keys.focus(canvas.controller.toolbar.undoButton)
        #expect(keys.handle(key: "space"))
        #expect(canvas.drawView.drawing.strokes.count == 1, "Space pressed Undo")
        keys.focus(canvas.drawView)
        keys.handle(key: "Tab")
        let menu = try #require(canvas.application.menuController as MenuController?)
        #expect(!menu.isMenuVisible)
        keys.handle(key: "Menu")
        #expect(menu.isMenuVisible && menu.visibleItems.map(\.title).contains("Delete"))
        menu.setMenuVisible(false)
        keys.handle(key: "F10", shift: true)
        #expect(menu.isMenuVisible)
        menu.setMenuVisible(false)
        keys.handle(key: "Return")
        #expect(menu.isMenuVisible)
        #expect(!keys.handle(key: "z", control: true), "Ctrl shortcuts stay the app's")
    }

    @Test("E11: the focus ring surrounds the focused control in the accent colour and is no accessibility element")
    func focusRing() throws {
        let canvas = Self.twoLines()
        let keys = canvas.controller.keyboard
        let undo = canvas.controller.toolbar.undoButton
        keys.focus(undo)
        let image = canvas.renderAll()
        let frame = undo.accessibilityFrame
        let accent = canvas.window.appearance.accentColor
        let pixel = try #require(image.color(x: Int(frame.midX), y: Int(frame.minY - 2)))
        #expect(abs(pixel.red - accent.red) < 0.02 && abs(pixel.green - accent.green) < 0.02 && abs(pixel.blue - accent.blue) < 0.02,
                "\(pixel) is not the accent \(accent)")
        let inside = try #require(image.color(x: Int(frame.midX), y: Int(frame.minY + 6)))
        #expect(inside != pixel)
        #expect(!canvas.window.accessibilityChildren.contains { $0 is FocusRingView })
        // A new window size moves the toolbar's buttons: the ring goes with its button.
        canvas.window.resize(to: Size(width: 1000, height: 400))
        let ring = try #require(canvas.controller.view.subviews.last as? FocusRingView)
        let moved = canvas.controller.view.convert(undo.accessibilityFrame, from: nil)
        #expect(ring.frame == moved.insetBy(dx: -FocusRingView.gap, dy: -FocusRingView.gap) && moved.minY > frame.minY)
        var focusedNotice: Accessible?
        canvas.window.accessibilityNotificationHandler = { if case .layoutChanged(let focus) = $0 { focusedNotice = focus } }
        keys.focus(canvas.controller.toolbar.newButton)
        #expect(focusedNotice === canvas.controller.toolbar.newButton, "tools are told where the focus went")
    }
}
