// A message strip across the top of the canvas: a save that keeps failing (red, until a save
// succeeds), a file that could not be read, an export that worked (dark, for a few seconds). The
// app's screen owns it, lays it out over the canvas (DrawingScreenView) and shows the document's
// notices in it. It takes no touches: fingers draw through it onto the canvas. A message too long
// for one line (a phone, a long path) wraps onto more, and the banner grows to hold them.
import Graphics
import TouchKit

public final class BannerView: View {
    /// A notice's style, by the name the canvas's `onNotice` gives it.
    public typealias Style = Notice.Style

    /// A one-line banner's height.
    public static let height = 36.0
    public static let textColor = Color.white
    public static let fontSize = 15.0
    /// The type of a message wrapped onto more than one line, and each line's height.
    static let wrappedFontSize = 13.0, lineHeight = 18.0
    static let sideInset = 12.0

    public private(set) var message = ""
    public private(set) var style = Style.info

    public init() {
        super.init(frame: Rect(x: 0, y: 0, width: 1024, height: Self.height))
        isUserInteractionEnabled = false
        isHidden = true
    }

    /// Whether a message is showing.
    public var isShowing: Bool { !isHidden }

    /// Shows `message` in `style`.
    public func show(_ message: String, style: Style) {
        guard message != self.message || style != self.style || isHidden else { return }
        self.message = message
        self.style = style
        appearanceDidChange()
        isHidden = false
        setNeedsDisplay()
        accessibilityLabel = message
        postAccessibilityNotification(.announcement(message))
    }

    /// The smallest type a message keeps one line in before it wraps.
    static let smallestOneLineSize = 11.0

    /// The message as drawn in a banner `width` wide: one line in the largest type from
    /// `fontSize` down to `smallestOneLineSize` that fits, else wrapped.
    static func layout(_ message: String, width: Double) -> (lines: [String], fontSize: Double) {
        let measure = CairoContext(surface: ImageSurface(width: 1, height: 1))
        let room = width - 2 * sideInset
        for size in stride(from: fontSize, through: smallestOneLineSize, by: -1)
        where measure.measureText(message, fontSize: size).width <= room {
            return ([message], size)
        }
        let lines = BannerLines.wrap(message, width: room) { measure.measureText($0, fontSize: wrappedFontSize).width }
        return (lines, wrappedFontSize)
    }

    /// The banner's height at `width` for the message it shows.
    public func height(forWidth width: Double) -> Double {
        let lines = Self.layout(message, width: width).lines.count
        return lines <= 1 ? Self.height : Double(lines) * Self.lineHeight + 12
    }

    public override func appearanceDidChange() {
        backgroundColor = style == .error ? appearance.bannerError : appearance.bannerInfo
    }

    public func hide() {
        guard !isHidden else { return }
        setNeedsDisplay()
        isHidden = true
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        let (lines, size) = Self.layout(message, width: bounds.width)
        let area = bounds.insetBy(dx: Self.sideInset, dy: 0)
        guard lines.count > 1 else {
            return context.drawText(message, centeredIn: area, color: Self.textColor, fontSize: size)
        }
        let top = (bounds.height - Double(lines.count) * Self.lineHeight) / 2
        for (index, line) in lines.enumerated() {
            context.drawText(line, centeredIn: Rect(x: area.minX, y: top + Double(index) * Self.lineHeight, width: area.width,
                                                    height: Self.lineHeight), color: Self.textColor, fontSize: size)
        }
    }
}
