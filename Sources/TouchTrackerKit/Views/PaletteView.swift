// The colour palette over the canvas's bottom edge (a challenge of the book): one row of swatches
// where the window is wide enough, rows of them on a phone, every swatch a finger's size; right to
// left, black first at the right (A12).
import TouchKit

/// Colour swatches; a three-finger swipe up or the Colours button shows them (a challenge of the book).
public final class PaletteView: View {
    /// A swatch, each way: a finger's size.
    public static let swatchSize = 44.0
    static let spacing = 10.0, margin = 10.0
    public static let colors: [Color] = [
        .black, Color(hex: 0xE01B24), Color(hex: 0xFF7800), Color(hex: 0xF6D32D),
        Color(hex: 0x2EC27E), Color(hex: 0x3584E4), Color(hex: 0x9141AC), Color(hex: 0x865E3C),
    ]
    public private(set) var swatches: [Button] = []
    /// Called with the chosen colour.
    public var onPick: ((Color) -> Void)?
    /// Which way the swatches run; the language's direction unless set.
    public var direction = LayoutDirection.current {
        didSet { if direction != oldValue { setNeedsLayout() } }
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
        for color in Self.colors {
            let swatch = Button(title: "", tintColor: color)
            swatch.cornerRadius = Self.swatchSize / 2
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

    /// How many swatches fit in a row of a strip `width` points wide (all, when they fit).
    static func perRow(width: Double) -> Int {
        max(1, min(colors.count, Int((width - 2 * margin + spacing) / (swatchSize + spacing))))
    }

    /// The strip's height at `width`: one row where the swatches fit side by side, else as many
    /// rows as they need (a phone in portrait takes two).
    public static func height(forWidth width: Double) -> Double {
        let rows = Double((colors.count + perRow(width: width) - 1) / perRow(width: width))
        return rows * swatchSize + (rows - 1) * spacing + 2 * margin
    }

    /// Each swatch's frame in a strip `width` points wide: rows centred, filled from the top, each
    /// from the left (right to left: from the right).
    public static func swatchFrames(width: Double, direction: LayoutDirection = .leftToRight) -> [Rect] {
        let perRow = perRow(width: width)
        return colors.indices.map { index in
            let row = index / perRow, column = index % perRow
            let inRow = min(perRow, colors.count - row * perRow)
            let rowWidth = Double(inRow) * swatchSize + Double(inRow - 1) * spacing
            return direction.place(Rect(x: (width - rowWidth) / 2 + Double(column) * (swatchSize + spacing),
                                        y: margin + Double(row) * (swatchSize + spacing), width: swatchSize, height: swatchSize),
                                   in: width)
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        for (swatch, frame) in zip(swatches, Self.swatchFrames(width: bounds.width, direction: direction)) { swatch.frame = frame }
    }
}
