// A message strip across the top of the canvas: a save that keeps failing (red, until a save
// succeeds), a file that could not be read, an export that worked (dark, for a few seconds). The
// app's screen owns it, lays it out over the canvas (DrawingScreenView) and shows the document's
// notices in it. It takes no touches: fingers draw through it onto the canvas.
import Graphics
import TouchKit

public final class BannerView: View {
    /// A notice's style, by the name the canvas's `onNotice` gives it.
    public typealias Style = Notice.Style

    public static let height = 36.0
    public static let textColor = Color.white
    public static let fontSize = 15.0

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

    public override func appearanceDidChange() {
        backgroundColor = style == .error ? appearance.bannerError : appearance.bannerInfo
    }

    public func hide() {
        guard !isHidden else { return }
        setNeedsDisplay()
        isHidden = true
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        let area = bounds.insetBy(dx: 12, dy: 0)
        var size = Self.fontSize
        // Smaller type for a long message rather than cutting it off.
        while size > 10, context.measureText(message, fontSize: size).width > area.width { size -= 1 }
        context.drawText(message, centeredIn: area, color: Self.textColor, fontSize: size)
    }
}
