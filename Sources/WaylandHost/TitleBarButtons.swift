// The title bar's window buttons: each a round face the size desktops draw them, inside a touch
// target a finger's size (44 pt), with the desktop's window icons where its theme has them and the
// app's own drawings otherwise.
import TouchKit

/// Where the title bar's buttons are: the public face of the layout, for the tests.
public enum TitleBarLayout {
    /// The bar's height: room for a finger-sized target.
    public static let height = 46.0
    /// A button's touch target, each way.
    public static let target = 44.0
    /// The round face drawn in the middle of the target.
    public static let face = 28.0
    /// From the bar's right end to the close button's target.
    static let margin = 4.0

    /// The centres of close, maximize and minimize, from the bar's right end in a bar `width`
    /// wide; from its left end in a right-to-left window, as GTK mirrors its title bars.
    public static func buttonCentres(width: Double, rightToLeft: Bool = false) -> [Point] {
        (0..<3).map { index in
            let fromEnd = margin + target / 2 + Double(index) * target
            return Point(x: rightToLeft ? fromEnd : width - fromEnd, y: height / 2)
        }
    }
}

/// A round face in the middle of a larger touch target, with its icon.
final class TitleBarButton: Button {
    override func draw(_ rect: Rect, in context: GraphicsContext) {
        let face = Rect(x: bounds.midX - TitleBarLayout.face / 2, y: bounds.midY - TitleBarLayout.face / 2,
                        width: TitleBarLayout.face, height: TitleBarLayout.face)
        context.setFillColor(currentFillColor)
        fillRoundedRect(face, radius: TitleBarLayout.face / 2, in: context)
        guard let icon else { return }
        let size = 16.0
        context.drawIcon(icon, in: Rect(x: bounds.midX - size / 2, y: bounds.midY - size / 2, width: size, height: size),
                         color: isEnabled ? titleColor : titleColor.withAlpha(0.6), theme: appearance.iconTheme)
    }
}

extension TitleBarView {
    // The desktop's window icons where its theme has them, else the app's own drawings.
    static let minimizeIcon = Icon(names: ["window-minimize-symbolic"], fallback: svg(#"<rect x="4" y="10.5" width="8" height="2"/>"#))
    static let maximizeIcon = Icon(names: ["window-maximize-symbolic"], fallback: svg(
        ##"<rect x="4" y="4" width="8" height="8" fill="none" stroke="#000" stroke-width="1.5"/>"##))
    static let restoreIcon = Icon(names: ["window-restore-symbolic"], fallback: svg(
        ##"<path d="M 6 3.5h 6.5V 10" fill="none" stroke="#000" stroke-width="1.5"/><rect x="3.5" y="6" width="6.5" height="6.5" fill="none" stroke="#000" stroke-width="1.5"/>"##))
    static let closeIcon = Icon(names: ["window-close-symbolic"], fallback: svg(
        ##"<path d="M 4.5 4.5l 7 7m 0-7l -7 7" stroke="#000" stroke-width="1.75" stroke-linecap="round"/>"##))

    private static func svg(_ shapes: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">"# + shapes + "</svg>"
    }
}
