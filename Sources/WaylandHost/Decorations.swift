// Client-side decorations for compositors that leave them to the client (GNOME/mutter, Weston):
// a title bar built from TouchKit views, so touch and pointer work on it through the same
// responder chain as the canvas. On compositors with xdg-decoration (Sway, KDE) the server draws
// them and this bar stays hidden; it is hidden in fullscreen too.
import TouchKit

/// What the title bar asks of the platform window.
struct WindowCommands {
    var beginMove: () -> Void
    var toggleMaximized: () -> Void
    var minimize: () -> Void
    var close: () -> Void
}

/// The window as the host shows it: an optional title bar above the app's root view.
final class DecoratedWindow: Window {
    let titleBar: TitleBarView

    /// Whether the title bar is shown (client-side decorations and not fullscreen).
    var showsTitleBar = false {
        didSet {
            guard showsTitleBar != oldValue else { return }
            titleBar.isHidden = !showsTitleBar
            setNeedsLayout()
            setNeedsDisplay()
        }
    }

    init(frame: Rect, title: String) {
        titleBar = TitleBarView(title: title)
        super.init(frame: frame)
        titleBar.isHidden = true
        addSubview(titleBar)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let height = showsTitleBar ? TitleBarView.height : 0
        titleBar.frame = Rect(x: 0, y: 0, width: bounds.width, height: TitleBarView.height)
        if let root = rootViewController?.viewIfLoaded, root.superview === self {
            root.frame = Rect(x: 0, y: height, width: bounds.width, height: max(0, bounds.height - height))
        }
        // The bar is added first but must stay on top of the root view for hit-testing.
        if subviews.last !== titleBar {
            titleBar.removeFromSuperview()
            addSubview(titleBar)
        }
    }
}

extension WaylandHost {
    /// A window as the host would show it, titled and with its title bar shown or not, for use
    /// without a compositor (`touchtracker replay` lays touches out exactly as the live window).
    public static func offscreenWindow(title: String, size: Size, showsTitleBar: Bool) -> Window {
        let window = DecoratedWindow(frame: Rect(origin: .zero, size: size), title: title)
        window.showsTitleBar = showsTitleBar
        return window
    }

    /// Puts the title bar's buttons at its left end, for a window in a right-to-left language.
    public static func setTitleBarRightToLeft(_ rightToLeft: Bool, of window: Window) {
        (window as? DecoratedWindow)?.titleBar.isRightToLeft = rightToLeft
    }

    /// Names the title bar's buttons for assistive tools, in the user's language (their icons
    /// alone would name them "window close" and the like, in English).
    public static func setTitleBarButtonNames(close: String, maximize: String, minimize: String, of window: Window) {
        guard let bar = (window as? DecoratedWindow)?.titleBar else { return }
        bar.closeButton.accessibilityLabel = close
        bar.maximizeButton.accessibilityLabel = maximize
        bar.minimizeButton.accessibilityLabel = minimize
    }

    /// Shows or hides an offscreen window's title bar.
    public static func setShowsTitleBar(_ shows: Bool, of window: Window) {
        (window as? DecoratedWindow)?.showsTitleBar = shows
    }
}

/// A GNOME-like header: the title centred, minimize, maximize and close at the right (at the left
/// in a right-to-left window). Dragging it
/// moves the window (xdg_toplevel.move), a double tap or double click maximizes.
final class TitleBarView: View {
    static var height: Double { TitleBarLayout.height }

    var title: String { didSet { setNeedsDisplay() } }
    /// Drawn dimmer when the window is not active, as desktops do.
    var isActive = true { didSet { if isActive != oldValue { setNeedsDisplay() } } }
    /// A maximized window's middle button restores it, and says so with two overlapping squares.
    var isMaximized = false {
        didSet { maximizeButton.icon = isMaximized ? Self.restoreIcon : Self.maximizeIcon }
    }
    /// Whether the buttons sit at the bar's left end (a right-to-left window).
    var isRightToLeft = false { didSet { if isRightToLeft != oldValue { setNeedsLayout() } } }
    let minimizeButton = TitleBarButton()
    let maximizeButton = TitleBarButton()
    let closeButton = TitleBarButton()

    /// What the buttons and the bar ask of the platform window: set by the host once it has made
    /// the toplevel. A window no compositor shows has none, and its bar does nothing.
    var commands: WindowCommands?

    init(title: String) {
        self.title = title
        super.init(frame: .zero)
        minimizeButton.icon = Self.minimizeIcon
        maximizeButton.icon = Self.maximizeIcon
        closeButton.icon = Self.closeIcon
        for button in [minimizeButton, maximizeButton, closeButton] { addSubview(button) }
        closeButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.commands?.close() }
        maximizeButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.commands?.toggleMaximized() }
        minimizeButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.commands?.minimize() }
    }

    /// The desktop's style: the bar as its toolbar, the buttons a shade of it.
    override func appearanceDidChange() {
        backgroundColor = appearance.barBackground
        for button in [minimizeButton, maximizeButton, closeButton] {
            button.tintColor = appearance.controlFill
            button.titleColor = appearance.foreground
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let target = TitleBarLayout.target
        for (button, centre) in zip([closeButton, maximizeButton, minimizeButton], TitleBarLayout.buttonCentres(width: bounds.width, rightToLeft: isRightToLeft)) {
            button.frame = Rect(x: centre.x - target / 2, y: centre.y - target / 2, width: target, height: target)
        }
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard let touch = touches.first else { return }
        if touch.tapCount == 2 {
            commands?.toggleMaximized()
        } else {
            // The compositor takes over the drag; it cancels our touch or pointer grab.
            commands?.beginMove()
        }
    }

    // The bar consumes its touches: they must not travel up to the window and the app.
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {}
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {}
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {}

    override func draw(_ rect: Rect, in context: GraphicsContext) {
        let style = appearance
        context.setFillColor(style.separator)
        context.fill(Rect(x: 0, y: bounds.height - style.outlineWidth, width: bounds.width, height: style.outlineWidth))
        let color = isActive ? style.foreground : style.foreground.withAlpha(0.55)
        // Centred in the space left of the buttons' mirror image, so it stays centred overall.
        let reserved = 3 * TitleBarLayout.target + TitleBarLayout.margin
        context.drawText(title, centeredIn: Rect(x: reserved, y: 0, width: max(0, bounds.width - 2 * reserved),
                                                 height: bounds.height), color: color, fontSize: 15)
    }
}
