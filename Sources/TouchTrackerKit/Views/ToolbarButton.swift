// A toolbar control in the desktop's style: flat on the bar when off, filled with the desktop's
// accent colour when on (the tool, the toggles), outlined in high contrast; its symbolic icon with
// its words beside it where the button is wide enough, alone where it is not; right to left, the
// icon on the words' right, where their reading starts.
import TouchKit

public final class ToolbarButton: Button {
    public init(title: String, icon: Icon) {
        super.init(title: title, tintColor: .clear)
        self.icon = icon
        fontSize = 14
    }

    /// Which way icon and words run.
    public var direction = LayoutDirection.leftToRight {
        didSet { if direction != oldValue { setNeedsDisplay() } }
    }

    /// Between the icon and the words, as TouchKit's Button has it.
    static let iconGap = 6.0

    /// Whether the tool or toggle is on.
    public var isOn: Bool {
        get { isSelected }
        set { isSelected = newValue }
    }

    public override var currentFillColor: Color {
        let style = appearance
        let base = isSelected ? style.accentColor : style.controlFill
        if !isEnabled { return base.withAlpha(0.45) }
        if isHighlighted {
            // Pressed: towards the bar's text colour, so it shows in either style.
            let ink = style.foreground
            return Color(red: base.red * 0.75 + ink.red * 0.25, green: base.green * 0.75 + ink.green * 0.25,
                         blue: base.blue * 0.75 + ink.blue * 0.25)
        }
        return base
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        let style = appearance
        var body = bounds
        if style.highContrast {
            // The outline as a rim of the separator's colour around the body; under a finger, a
            // wider one in the accent colour, so what is being pressed shows at a glance.
            let rim = isHighlighted ? 3 * style.outlineWidth / 2 + 1 : style.outlineWidth
            let colour = isHighlighted ? style.accentColor : style.separator
            context.setFillColor(isEnabled ? colour : colour.withAlpha(0.45))
            fillRoundedRect(bounds, radius: cornerRadius, in: context)
            body = bounds.insetBy(dx: rim, dy: rim)
        }
        context.setFillColor(currentFillColor)
        fillRoundedRect(body, radius: max(0, cornerRadius - (bounds.width - body.width) / 2), in: context)
        let ink = isSelected ? style.onAccent : style.foreground
        let color = isEnabled ? ink : ink.withAlpha(0.5)
        guard direction == .rightToLeft, let icon, let fontSize = titleFontSizeBesideIcon(in: context) else {
            return drawLabel(in: context, color: color)
        }
        // Button's row of icon and words, mirrored.
        let size = min(Self.iconSize, bounds.height - 8, bounds.width - 8)
        let width = context.measureText(title, fontSize: fontSize).width
        let right = bounds.midX + (size + Self.iconGap + width) / 2
        context.drawIcon(icon, in: Rect(x: right - size, y: bounds.midY - size / 2, width: size, height: size), color: color,
                         theme: style.iconTheme)
        context.drawText(title, centeredIn: Rect(x: right - size - Self.iconGap - width, y: bounds.minY, width: width, height: bounds.height),
                         color: color, fontSize: fontSize)
    }
}
