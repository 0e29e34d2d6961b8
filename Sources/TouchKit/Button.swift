/// A push button: a rounded rectangle in its tint colour with a title, an icon or both, sending
/// `.touchUpInside` (and `.primaryActionTriggered`) when tapped.
open class Button: Control {
    /// The text on the button.
    open var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }

    /// The fill colour of the button.
    open var tintColor: Color {
        didSet { if tintColor != oldValue { setNeedsDisplay() } }
    }

    /// The title's colour.
    open var titleColor: Color = .white {
        didSet { if titleColor != oldValue { setNeedsDisplay() } }
    }

    /// The radius of the corners, in points (clamped to half the shorter side).
    open var cornerRadius: Double = 8 {
        didSet { if cornerRadius != oldValue { setNeedsDisplay() } }
    }

    /// The title's font size, in points.
    open var fontSize: Double = 15 {
        didSet { if fontSize != oldValue { setNeedsDisplay() } }
    }

    /// How far a title too wide for the button may shrink, as a fraction of ``fontSize``
    /// (UIKit's `minimumScaleFactor`; C3): translations run longer than English.
    open var minimumScaleFactor = 0.7 {
        didSet { if minimumScaleFactor != oldValue { setNeedsDisplay() } }
    }

    /// A symbolic icon in the title's colour: beside the title where the button is wide enough
    /// for both, alone where it is not (or when there is no title).
    open var icon: Icon? {
        didSet { if icon != oldValue { setNeedsDisplay() } }
    }

    /// Shows the icon without the title even where both would fit (a bar whose buttons are too
    /// narrow for all their words shows none, rather than some).
    open var showsIconAlone = false {
        didSet { if showsIconAlone != oldValue { setNeedsDisplay() } }
    }

    /// Room kept free on each side of the title, in points.
    static let titleInset = 4.0
    /// The icon's size and the gap between it and the title, in points.
    public static let iconSize = 18.0
    static let iconGap = 6.0

    public init(title: String = "", tintColor: Color = Color(hex: 0x007AFF), frame: Rect = .zero) {
        self.title = title
        self.tintColor = tintColor
        super.init(frame: frame)
        accessibilityTraits = .button
    }

    /// The label set, else the title, else the icon's name (E1): an icon alone is still named.
    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? (title.isEmpty ? icon.flatMap(Self.spokenName) : title) }
        set { super.accessibilityLabel = newValue }
    }

    /// "edit-undo-symbolic" reads "edit undo".
    static func spokenName(of icon: Icon) -> String? {
        guard var name = icon.names.first, !name.isEmpty else { return nil }
        if name.hasSuffix("-symbolic") { name.removeLast("-symbolic".count) }
        return name.split(separator: "-").joined(separator: " ")
    }

    override var touchUpInsideEvents: Events { [.touchUpInside, .primaryActionTriggered] }

    /// The colour the body is filled with in the current state: the tint, darkened while
    /// highlighted, faded while disabled.
    open var currentFillColor: Color {
        if !isEnabled { return tintColor.withAlpha(tintColor.alpha * 0.35) }
        if isHighlighted {
            return Color(red: tintColor.red * 0.7, green: tintColor.green * 0.7,
                         blue: tintColor.blue * 0.7, alpha: tintColor.alpha)
        }
        return tintColor
    }

    open override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.setFillColor(currentFillColor)
        fillRoundedRect(bounds, radius: cornerRadius, in: context)
        drawLabel(in: context, color: isEnabled ? titleColor : titleColor.withAlpha(titleColor.alpha * 0.6))
    }

    /// Draws the icon and the title, or the one that fits, centred in the button.
    public func drawLabel(in context: GraphicsContext, color: Color) {
        guard let icon else {
            if !title.isEmpty { context.drawText(title, centeredIn: bounds, color: color, fontSize: titleFontSize(in: context)) }
            return
        }
        let size = min(Self.iconSize, bounds.height - 8, bounds.width - 8)
        let theme = appearance.iconTheme
        guard let fontSize = titleFontSizeBesideIcon(in: context) else {
            let box = Rect(x: bounds.midX - size / 2, y: bounds.midY - size / 2, width: size, height: size)
            return context.drawIcon(icon, in: box, color: color, theme: theme)
        }
        let width = context.measureText(title, fontSize: fontSize).width
        let x = bounds.midX - (size + Self.iconGap + width) / 2
        context.drawIcon(icon, in: Rect(x: x, y: bounds.midY - size / 2, width: size, height: size), color: color, theme: theme)
        context.drawText(title, centeredIn: Rect(x: x + size + Self.iconGap, y: bounds.minY, width: width, height: bounds.height),
                         color: color, fontSize: fontSize)
    }

    /// The title's size beside the icon: ``fontSize``, or smaller down to ``minimumScaleFactor``
    /// of it; nil when the title does not fit even so, and the icon shows alone.
    public func titleFontSizeBesideIcon(in text: GraphicsContext) -> Double? {
        guard !title.isEmpty, !showsIconAlone else { return nil }
        let size = min(Self.iconSize, bounds.height - 8, bounds.width - 8)
        let room = bounds.width - 2 * Self.titleInset - size - Self.iconGap
        let width = text.measureText(title, fontSize: fontSize).width
        guard width > 0, width * minimumScaleFactor <= room else { return nil }
        // Widths do not scale exactly with the size (hinting, shaped scripts): checked again.
        var titleSize = min(fontSize, fontSize * room / width)
        while titleSize > fontSize * minimumScaleFactor, text.measureText(title, fontSize: titleSize).width > room { titleSize -= 0.5 }
        return text.measureText(title, fontSize: titleSize).width <= room ? titleSize : nil
    }

    /// ``fontSize``, or smaller (not below ``minimumScaleFactor`` of it) so that the title fits
    /// the button's width.
    public func titleFontSize(in text: GraphicsContext) -> Double {
        let room = bounds.width - 2 * Self.titleInset
        let width = text.measureText(title, fontSize: fontSize).width
        guard width > room, width > 0 else { return fontSize }
        return max(fontSize * minimumScaleFactor, fontSize * max(0, room) / width)
    }
}

/// Fills a rectangle with rounded corners as one polygon (the context has no arcs): each corner
/// is a quarter circle of a few segments, and the shape is painted once, so translucent colours
/// stay even.
public func fillRoundedRect(_ rect: Rect, radius: Double, in context: GraphicsContext) {
    let r = max(0, min(radius, rect.width / 2, rect.height / 2))
    guard r > 0 else {
        context.fill(rect)
        return
    }
    // cos and sin of 0°, 15°, ... 90°: a table keeps TouchKit free of libm.
    let unit: [(Double, Double)] = [
        (1, 0), (0.9659258262890683, 0.25881904510252074), (0.8660254037844387, 0.5),
        (0.7071067811865476, 0.7071067811865476), (0.5, 0.8660254037844387),
        (0.25881904510252074, 0.9659258262890683), (0, 1),
    ]
    // Corner centres with the cosine and sine of the angle each quarter circle starts at,
    // clockwise on screen (y grows downwards).
    let corners: [(Double, Double, Double, Double)] = [
        (rect.maxX - r, rect.minY + r, 0, -1),  // top right, from straight up
        (rect.maxX - r, rect.maxY - r, 1, 0),  // bottom right, from the right
        (rect.minX + r, rect.maxY - r, 0, 1),  // bottom left, from straight down
        (rect.minX + r, rect.minY + r, -1, 0),  // top left, from the left
    ]
    var first = true
    for (cx, cy, cs, sn) in corners {
        for (c, s) in unit {
            let p = Point(x: cx + r * (c * cs - s * sn), y: cy + r * (c * sn + s * cs))
            if first {
                context.move(to: p)
                first = false
            } else {
                context.addLine(to: p)
            }
        }
    }
    context.fillPath()
}
