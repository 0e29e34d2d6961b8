// The app's screen as assistive tools see it through TouchKit's accessibility (E1-E7): the
// toolbar's controls named, toggles and tools marked, Undo and Redo dimmed when there is nothing
// to do, the swatches named by colour, the lines described, the banner read out.
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("The app's accessibility tree")
struct AccessibilityTreeTests {
    /// The labels of an element's children, in order.
    static func labels(_ node: Accessible) -> [String] { node.accessibilityChildren.map { $0.accessibilityLabel ?? "?" } }

    static func child(_ node: Accessible, _ label: String) -> Accessible? {
        node.accessibilityChildren.first { $0.accessibilityLabel == label }
    }

    @Test("The window shows the canvas, the toolbar and the zoom control; the wide toolbar's controls are named buttons in bar order, the zoom control's in reading order")
    func toolbarControls() throws {
        let canvas = Canvas(width: 800, zoomControl: true)
        canvas.window.layoutIfNeeded()
        #expect(Self.labels(canvas.window) == ["Drawing", "Toolbar", "Zoom"])
        let zoom = try #require(Self.child(canvas.window, "Zoom"))
        #expect(Self.labels(zoom) == ["Zoom out", "Zoom 100 %", "Zoom in"])
        let toolbar = try #require(Self.child(canvas.window, "Toolbar"))
        #expect(Self.labels(toolbar) == ["New", "Undo", "Redo", "Line", "Free", "Circle", "Angle", "Speed", "Fingers", "Colours"])
        #expect(toolbar.accessibilityChildren.allSatisfy { $0.accessibilityTraits.contains(.button) })
    }

    @Test("The narrow toolbar names its More button, shown as an icon alone, and leaves out what it moved into the menu")
    func narrowToolbar() throws {
        let canvas = Canvas(width: 400)
        canvas.window.layoutIfNeeded()
        let toolbar = try #require(Self.child(canvas.window, "Toolbar"))
        #expect(Self.labels(toolbar) == ["Undo", "Redo", "Line", "Free", "Circle", "Colours", "More"])
        #expect(canvas.controller.toolbar.moreButton.showsIconAlone)
    }

    @Test("Undo and Redo are not enabled while there is nothing to undo or redo, and follow the drawing")
    func undoRedoStates() {
        let canvas = Canvas(width: 800)
        let undo = canvas.controller.toolbar.undoButton, redo = canvas.controller.toolbar.redoButton
        #expect(undo.accessibilityTraits.contains(.notEnabled) && redo.accessibilityTraits.contains(.notEnabled))
        canvas.drawLine(1, from: (20, 20), to: (200, 100))
        #expect(!undo.accessibilityTraits.contains(.notEnabled) && redo.accessibilityTraits.contains(.notEnabled))
        #expect(undo.accessibilityActivate())
        #expect(canvas.drawView.drawing.strokes.isEmpty, "activating Undo undoes")
        #expect(undo.accessibilityTraits.contains(.notEnabled) && !redo.accessibilityTraits.contains(.notEnabled))
        #expect(!undo.accessibilityActivate(), "a dimmed Undo does nothing")
    }

    @Test("The current tool and the toggles that are on are selected toggle buttons; activating one switches it")
    func toolsAndToggles() {
        let canvas = Canvas(width: 800)
        let bar = canvas.controller.toolbar
        #expect(bar.lineButton.accessibilityTraits == [.button, .toggleButton, .selected])
        #expect(bar.circleButton.accessibilityTraits == [.button, .toggleButton])
        #expect(bar.angleButton.accessibilityTraits == [.button, .toggleButton])
        #expect(bar.circleButton.accessibilityActivate())
        #expect(canvas.drawView.tool == .circle)
        #expect(bar.circleButton.accessibilityTraits.contains(.selected) && !bar.lineButton.accessibilityTraits.contains(.selected))
        #expect(bar.angleButton.accessibilityActivate())
        #expect(bar.angleButton.accessibilityTraits.contains(.selected) && canvas.drawView.colorsByAngle)
        #expect(!bar.newButton.accessibilityTraits.contains(.toggleButton), "New is a plain button")
    }

    @Test("The palette, once shown, holds its swatches named by colour; choosing one sets the pen")
    func paletteSwatches() throws {
        let canvas = Canvas(width: 800)
        canvas.window.layoutIfNeeded()
        #expect(Self.child(canvas.window, "Colours") == nil, "a hidden palette is not in the tree")
        #expect(canvas.controller.toolbar.paletteButton.accessibilityActivate())
        let palette = try #require(Self.child(canvas.window, "Colours"))
        #expect(Self.labels(palette) == ["black", "red", "orange", "yellow", "green", "blue", "purple", "brown"])
        #expect(palette.accessibilityChildren[5].accessibilityActivate())
        #expect(canvas.drawView.penColor == PaletteView.colors[5])
    }

    @Test("The canvas's elements are its lines in drawing order, named, described and counted")
    func linesDescribed() throws {
        let canvas = Canvas(width: 800)
        canvas.window.layoutIfNeeded()  // the canvas: 800 by 240 points, above the toolbar
        canvas.drawLine(1, from: (20, 20), to: (400, 120))
        canvas.drawLine(2, from: (780, 230), to: (700, 200))
        let drawing = canvas.drawView
        #expect(drawing.accessibilityValue == "Lines: 2")
        let lines = try #require(drawing.accessibilityElements)
        #expect(lines.map(\.accessibilityLabel) == ["Line 1 of 2", "Line 2 of 2"])
        #expect(lines[0].accessibilityValue == "black, from the upper left towards the centre, 393 points long")
        #expect(lines[1].accessibilityValue == "black, from the lower right towards the lower right, 85 points long")
        // Where the line paints, its width included; the canvas is at the window's origin.
        #expect(lines[0].accessibilityFrame == drawing.drawing.strokes[0].bounds)
        #expect(lines[0].accessibilityFrame.contains(Point(x: 20, y: 20)) && lines[0].accessibilityFrame.contains(Point(x: 400, y: 120)))
        #expect(lines[0].accessibilityParent === drawing)
    }

    @Test("Activating a line selects it and marks it selected; its Delete action deletes it and the count follows")
    func selectAndDelete() throws {
        let canvas = Canvas(width: 800)
        canvas.drawLine(1, from: (20, 20), to: (400, 120))
        canvas.drawLine(2, from: (20, 200), to: (400, 200))
        let lines = try #require(canvas.drawView.accessibilityElements)
        #expect(!lines[1].accessibilityTraits.contains(.selected))
        #expect(lines[1].accessibilityActivate())
        #expect(canvas.drawView.selectedStrokeID == canvas.drawView.drawing.strokes[1].id)
        #expect(lines[1].accessibilityTraits.contains(.selected) && !lines[0].accessibilityTraits.contains(.selected))
        let delete = try #require(lines[0].accessibilityCustomActions.first)
        #expect(delete.name == "Delete")
        #expect(delete.perform())
        #expect(!delete.perform(), "the line is gone")
        let after = try #require(canvas.drawView.accessibilityElements)
        #expect(after.count == 1 && after[0] === lines[1], "a line keeps its element")
        #expect(after[0].accessibilityLabel == "Line 1 of 1")
        #expect(canvas.drawView.accessibilityValue == "Lines: 1")
    }

    @Test("A change to the drawing tells the window's listener once the tree was read; the banner is read out and shown as text")
    func notifications() throws {
        let canvas = Canvas(width: 800)
        var heard: [String] = []
        canvas.window.accessibilityNotificationHandler = { notification in
            switch notification {
            case .layoutChanged: heard.append("layout")
            case .screenChanged: heard.append("screen")
            case .announcement(let words): heard.append(words)
            }
        }
        canvas.drawLine(1, from: (20, 20), to: (400, 120))
        #expect(heard.isEmpty, "nothing is made or told before a tool asks")
        _ = canvas.drawView.accessibilityElements
        canvas.drawLine(2, from: (20, 200), to: (400, 200))
        canvas.drawLine(3, from: (20, 100), to: (400, 100))
        #expect(heard == ["layout"], "one notice until the tree is read again")
        canvas.controller.show(Notice("Exported a.png", style: .info))
        #expect(heard.last == "Exported a.png")
        let banner = try #require(canvas.drawView.accessibilityElements?.first)
        #expect(banner.accessibilityLabel == "Exported a.png" && banner.accessibilityTraits == .staticText)
    }

    @Test("Colours a line may have are named by the nearest of the palette's, grey and white")
    func colourNames() {
        #expect(ColourName.nearest(Color(hex: 0xE01B24)) == .red)
        #expect(ColourName.nearest(Color(hex: 0x1030F0)) == .blue)
        #expect(ColourName.nearest(Color(hex: 0xF0F0F0)) == .white)
        #expect(ColourName.nearest(Color(hex: 0x777777)) == .grey)
        #expect(ColourName.nearest(Color(hex: 0x101010)) == .black)
        #expect(CanvasRegion(Point(x: 799, y: 0), in: Rect(x: 0, y: 0, width: 800, height: 240)) == .upperRight)
        #expect(CanvasRegion(Point(x: -5, y: 500), in: Rect(x: 0, y: 0, width: 800, height: 240)) == .lowerLeft)
    }
}
