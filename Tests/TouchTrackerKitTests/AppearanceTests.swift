// The desktop's style on screen: the whole window follows it at once, the drawing stays readable
// on a dark canvas, and the drawing's own colours stay true in every picture made of it.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Appearance")
struct AppearanceTests {
    static let dark = Appearance(scheme: .dark)

    /// The app's screen in a window of `size`, painted whole at scale 1.
    static func screen(_ drawing: Drawing, style: Appearance, size: Size = Size(width: 400, height: 300))
        -> (Window, DrawViewController) {
        let window = Window(frame: Rect(origin: .zero, size: size))
        let controller = DrawViewController(drawing: drawing)
        window.rootViewController = controller
        window.desktopAppearance = style
        window.layoutIfNeeded()
        return (window, controller)
    }

    static func paint(_ window: Window) -> ImageSurface {
        let image = ImageSurface(width: Int(window.bounds.width), height: Int(window.bounds.height))
        window.paint(DirtyRegion([window.bounds]), into: image, scale: 1)
        return image
    }

    static func blackLine() -> Drawing {
        Drawing(strokes: [.line(StrokeID(1), from: Point(x: 50, y: 100), to: Point(x: 350, y: 100))])
    }

    @Test("A line drawn black shows light on the dark canvas, and the canvas is dark")
    func blackOnDark() throws {
        let (window, _) = Self.screen(Self.blackLine(), style: Self.dark)
        let image = Self.paint(window)
        let paper = try #require(image.color(x: 200, y: 40))
        let line = try #require(image.color(x: 200, y: 100))
        #expect(Appearance.luminance(paper) < 0.05, "dark paper: \(paper)")
        #expect(Appearance.luminance(line) > 0.7, "the black line shows light: \(line)")
    }

    @Test("Exports and the drawing keep black black, whatever the style on screen")
    func exportsStayTrue() throws {
        let drawing = Self.blackLine()
        let (window, _) = Self.screen(drawing, style: Self.dark)
        _ = Self.paint(window)
        #expect(drawing.strokes[0].color == .black)
        let image = ImageSurface(width: 400, height: 300)
        DrawingExporter.paint(drawing.strokes, size: Size(width: 400, height: 300), scale: 1, in: CairoContext(surface: image))
        #expect(try #require(image.color(x: 200, y: 100)) == .black)
        #expect(try #require(image.color(x: 200, y: 40)) == .white)
    }

    @Test("Switching the style repaints the whole window as a window started in that style")
    func liveSwitch() throws {
        let (window, _) = Self.screen(Self.blackLine(), style: .light)
        _ = Self.paint(window)
        window.desktopAppearance = Self.dark
        let switched = Self.paint(window)
        let (fresh, _) = Self.screen(Self.blackLine(), style: Self.dark)
        let expected = Self.paint(fresh)
        for (x, y) in [(200, 40), (200, 100), (5, 295), (200, 280), (395, 280)] {
            #expect(switched.color(x: x, y: y) == expected.color(x: x, y: y), "pixel \(x),\(y)")
        }
        window.desktopAppearance = .light
        #expect(Self.paint(window).color(x: 200, y: 100) == .black)
    }

    @Test("The book's colours, the palette's and the angle wheel's stay as they are on the dark canvas; dark inks turn light")
    func inks() {
        let ink = ScreenInk(Self.dark)
        for color in [DrawView.inProgressColor, DrawView.selectedColor, DrawView.color(forAngle: 1)] {
            #expect(ink.color(color) == color)
        }
        for color in PaletteView.colors {
            let shown = ink.color(color)
            #expect(Appearance.luminance(shown) > Appearance.luminance(ink.paper) + 0.08, "\(color) reads on the paper")
        }
        #expect(ink.color(.black) == Color(white: ScreenInk.lightest))
        #expect(ScreenInk.trueColors.color(.black) == .black)
    }

    @Test("The accent colour fills the tool that is on; high contrast outlines the buttons and widens the selection")
    func accentAndContrast() throws {
        let accent = Color(hex: 0xE01B24)
        let (window, controller) = Self.screen(Drawing(), style: Appearance(scheme: .light, accent: accent, highContrast: true),
                                               size: Size(width: 1024, height: 400))
        let image = Self.paint(window)
        let line = controller.toolbar.lineButton.convert(controller.toolbar.lineButton.bounds, to: window)
        #expect(image.color(x: Int(line.midX), y: Int(line.minY) + 5) == accent)
        #expect(image.color(x: Int(line.midX), y: Int(line.minY)) == Appearance(highContrast: true).separator, "the outline")
        #expect(controller.drawView.screenInk.selectionWidening > DrawView.selectionOutline)
        // Under a finger, a wider rim in the accent colour.
        let free = controller.toolbar.freehandButton
        free.isHighlighted = true
        let pressed = Self.paint(window)
        let frame = free.convert(free.bounds, to: window)
        #expect(pressed.color(x: Int(frame.minX) + 3, y: Int(frame.midY)) == accent, "the pressed button's rim")
        #expect(image.color(x: Int(frame.minX) + 3, y: Int(frame.midY)) != accent)
    }

    @Test("TOUCHTRACKER_STYLE's words", arguments: [
        ("dark", Appearance(scheme: .dark), [String]()),
        ("dark, high-contrast,accent=#2EC27E", Appearance(scheme: .dark, accent: Color(hex: 0x2EC27E), highContrast: true), []),
        ("light,purple", Appearance.light, ["purple"]),
    ])
    func override(_ words: String, _ expected: Appearance, _ unknown: [String]) {
        let (style, ignored) = Appearance.overriding(.light, with: words)
        #expect(style == expected)
        #expect(ignored == unknown)
    }

    @Test("The portal's numbers: 1 is dark and high contrast, 0 and 2 are light, an accent is taken as it is")
    func portalValues() {
        #expect(Appearance(colorScheme: 1, accent: nil, contrast: nil) == Appearance(scheme: .dark))
        #expect(Appearance(colorScheme: 2, accent: nil, contrast: 0) == .light)
        #expect(Appearance(colorScheme: nil, accent: (1, 0, 0), contrast: 1) == Appearance(accent: .red, highContrast: true))
    }
}
