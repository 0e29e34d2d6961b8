// The draw board's controls (A8), built from TouchKit's Button with target-action: New, undo and redo,
// the tool (line, freehand, circle), the toggles of the book's challenges, and the colour palette.
import TouchKit

/// The bar along the bottom of the window.
public final class ToolbarView: View {
    public static let height = 52.0

    public let newButton = ToolbarView.button(Strings.newDrawing)
    public let undoButton = ToolbarView.button(Strings.undo)
    public let redoButton = ToolbarView.button(Strings.redo)
    public let lineButton = ToolbarView.button(Strings.line)
    public let freehandButton = ToolbarView.button(Strings.freehand)
    public let circleButton = ToolbarView.button(Strings.circle)
    public let angleButton = ToolbarView.button(Strings.angle)
    public let speedButton = ToolbarView.button(Strings.speed)
    public let fingersButton = ToolbarView.button(Strings.fingers)
    public let paletteButton = ToolbarView.button(Strings.colours)

    /// Groups, separated by a gap.
    private var groups: [[ToolbarButton]] {
        [[newButton], [undoButton, redoButton], [lineButton, freehandButton, circleButton],
         [angleButton, speedButton, fingersButton], [paletteButton]]
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
        for button in groups.joined() { addSubview(button) }
    }

    static func button(_ title: String) -> ToolbarButton { ToolbarButton(title: title) }

    public override func appearanceDidChange() {
        backgroundColor = appearance.barBackground
    }

    /// Shows a toggle or the current tool as on (the accent colour) or off.
    static func show(_ button: ToolbarButton, on: Bool) {
        button.isOn = on
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let buttons = Array(groups.joined())
        let gap = 16.0, spacing = 6.0, margin = 8.0
        let available = bounds.width - 2 * margin - Double(groups.count - 1) * gap
            - Double(buttons.count - groups.count) * spacing
        let width = min(88, max(30, available / Double(buttons.count)))
        let used = Double(buttons.count) * width + Double(buttons.count - groups.count) * spacing
            + Double(groups.count - 1) * gap
        // Centred when the bar is wider than the buttons need.
        var x = max(margin, (bounds.width - used) / 2)
        for (index, group) in groups.enumerated() {
            if index > 0 { x += gap - spacing }
            for button in group {
                button.frame = Rect(x: x, y: 8, width: width, height: bounds.height - 16)
                x += width + spacing
            }
        }
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.setFillColor(appearance.separator)
        context.fill(Rect(x: 0, y: 0, width: bounds.width, height: appearance.outlineWidth))
    }
}

/// Colour swatches; a three-finger swipe up or the Colours button shows them (a challenge of the book).
public final class PaletteView: View {
    public static let height = 64.0
    public static let colors: [Color] = [
        .black, Color(hex: 0xE01B24), Color(hex: 0xFF7800), Color(hex: 0xF6D32D),
        Color(hex: 0x2EC27E), Color(hex: 0x3584E4), Color(hex: 0x9141AC), Color(hex: 0x865E3C),
    ]
    public private(set) var swatches: [Button] = []
    /// Called with the chosen colour.
    public var onPick: ((Color) -> Void)?

    public override init(frame: Rect) {
        super.init(frame: frame)
        for color in Self.colors {
            let swatch = Button(title: "", tintColor: color)
            swatch.cornerRadius = 20
            swatch.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.onPick?(color) }
            swatches.append(swatch)
            addSubview(swatch)
        }
    }

    /// Each swatch shows its colour as the canvas will show its lines (black shows light on a
    /// dark canvas), so what is picked is what appears.
    public override func appearanceDidChange() {
        backgroundColor = appearance.paletteBackground
        let ink = ScreenInk(appearance)
        for (swatch, color) in zip(swatches, Self.colors) { swatch.tintColor = ink.color(color) }
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        // A rim around each swatch, so that a swatch close to the strip's colour still shows.
        context.setFillColor(appearance.separator)
        for swatch in swatches {
            let rim = swatch.frame.insetBy(dx: -appearance.outlineWidth, dy: -appearance.outlineWidth)
            fillRoundedRect(rim, radius: rim.width / 2, in: context)
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let size = 40.0, spacing = 14.0
        let total = Double(swatches.count) * size + Double(swatches.count - 1) * spacing
        var x = (bounds.width - total) / 2
        for swatch in swatches {
            swatch.frame = Rect(x: x, y: (bounds.height - size) / 2, width: size, height: size)
            x += size + spacing
        }
    }
}
