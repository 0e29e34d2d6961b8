// The zoom control over the canvas's corner: zoom out, the zoom in percent, zoom in. Fingers draw
// by default, so without a touchpad or keys this is how a touchscreen user zooms; the middle
// button shows 100 %, or the whole drawing when it is at 100 % already (A15). Where the toolbar is
// narrow (a phone) and keeps its Fingers toggle in the More menu, the control leads with that
// toggle: what fingers do shows, and changes, beside the zoom (A14).
import TouchKit

public final class ZoomControlView: View {
    public let zoomOutButton = ToolbarButton(title: Strings.zoomOut, icon: ZoomControlView.zoomOutIcon)
    public let levelButton = ToolbarButton(title: Strings.zoomPercent(100), icon: Icon(names: [], fallback: ""))
    public let zoomInButton = ToolbarButton(title: Strings.zoomIn, icon: ZoomControlView.zoomInIcon)
    /// Whether fingers draw: shown where the toolbar has no room for its own (``showsFingers``).
    public let fingersButton = ToolbarButton(title: Strings.fingers, icon: ToolbarView.Item.fingers.icon)
    /// Whether the control leads with the Fingers toggle.
    public var showsFingers = false {
        didSet {
            guard showsFingers != oldValue else { return }
            fingersButton.isHidden = !showsFingers
            setNeedsLayout()
        }
    }

    public static let buttonSize = ToolbarView.minimumTarget
    public static let levelWidth = 64.0
    public static let padding = 4.0
    /// The control's size without the Fingers toggle.
    public static let size = Size(width: 2 * buttonSize + levelWidth + 4 * padding, height: buttonSize + 2 * padding)
    /// The control's size as it is now.
    public var size: Size { Self.size(showingFingers: showsFingers) }
    /// The control's size with or without the Fingers toggle.
    public static func size(showingFingers: Bool) -> Size {
        Size(width: size.width + (showingFingers ? buttonSize + padding : 0), height: size.height)
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = appearance.paper
        // It steps aside for every stroke and comes back when it ends: a picture copied back
        // costs a fraction of drawing its buttons again.
        clipsToBounds = true
        shouldRasterize = true
        // In reading order: Fingers, out, the zoom, in.
        for button in [fingersButton, zoomOutButton, levelButton, zoomInButton] {
            button.showsIconAlone = button !== levelButton
            addSubview(button)
        }
        levelButton.icon = nil
        fingersButton.accessibilityTraits = [.button, .toggleButton]
        fingersButton.isHidden = true
    }

    /// The canvas's paper around the rounded body: the control is opaque, so the window still
    /// draws the lines under fingers itself around it (a view that lets them show through would
    /// have every frame paint them through the views).
    public override func appearanceDidChange() {
        backgroundColor = appearance.paper
        setNeedsDisplay()
    }

    /// Shows `zoom` (1 is 100 %).
    func show(zoom: Double) {
        let percent = Int((zoom * 100).rounded())
        levelButton.title = Strings.zoomPercent(percent)
        levelButton.accessibilityLabel = Strings.zoomLevel(percent)
        zoomOutButton.isEnabled = zoom > CanvasScrollView.zoomRange.lowerBound + 1e-9
        zoomInButton.isEnabled = zoom < CanvasScrollView.zoomRange.upperBound - 1e-9
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let p = Self.padding, side = Self.buttonSize
        let row = (showsFingers ? [fingersButton] : []) + [zoomOutButton, levelButton, zoomInButton]
        // Right to left, zoom in comes first, as a slider's larger end is on the left there.
        let ordered = LayoutDirection.current.ordered(row)
        var x = p
        for button in ordered {
            let width = button === levelButton ? Self.levelWidth : side
            button.frame = Rect(x: x, y: p, width: width, height: side)
            x += width + p
        }
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        let style = appearance
        if style.highContrast {
            context.setFillColor(style.separator)
            fillRoundedRect(bounds, radius: 12, in: context)
        }
        let inset = style.highContrast ? style.outlineWidth : 0
        context.setFillColor(style.barBackground)
        fillRoundedRect(bounds.insetBy(dx: inset, dy: inset), radius: 12 - inset, in: context)
    }

    // The app's own drawings: a magnifier with a minus or a plus, on the 16-unit grid.
    private static let lens = ##"<circle cx="6.5" cy="6.5" r="4.75" fill="none" stroke="#000" stroke-width="1.5"/>"##
        + ##"<path d="M 10 10l 4.5 4.5" stroke="#000" stroke-width="2" stroke-linecap="round"/>"##
    static let zoomOutIcon = Icon(names: ["zoom-out-symbolic"], fallback: ToolbarView.Item.svg(lens + ##"<path d="M 4 6.5h 5" stroke="#000" stroke-width="1.5"/>"##))
    static let zoomInIcon = Icon(names: ["zoom-in-symbolic"],
                                 fallback: ToolbarView.Item.svg(lens + ##"<path d="M 4 6.5h 5M 6.5 4v 5" stroke="#000" stroke-width="1.5"/>"##))
}
