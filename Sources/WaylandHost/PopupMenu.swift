// TouchKit's edit menu on Wayland (M2): an xdg_popup placed by an xdg_positioner above the target
// rectangle, items drawn as text (Graphics), chosen by touch or pointer. The popup is grabbed with the
// serial of the press that led to it; a compositor that refuses the grab dismisses the popup at
// once, and then it is shown again without a grab, which still works (a tap elsewhere in the app
// hides it through the app's own tap recognizer). At a fractional scale the popup takes its own
// wp_fractional_scale_v1 and viewport, as the window does, so its text is as sharp as the window's.
import Graphics
import Logging
import TouchKit
import Wayland

final class PopupMenu: MenuPresenter {
    /// What the popup needs from the host, looked up when it opens.
    struct Environment {
        var compositor: WlCompositor
        var wmBase: XdgWmBase
        var shm: WlShm
        var parent: () -> XdgSurface
        /// The window's buffer geometry: the popup's until the compositor names the popup's own
        /// fractional scale (it shows on the same output).
        var geometry: () -> BufferGeometry
        /// Both or neither: the popup then asks for its own fractional scale.
        var fractionalScaleManager: WpFractionalScaleManagerV1?
        var viewporter: WpViewporter?
        /// The seat and the serial of the latest touch down or button press, for the grab.
        var grabSerial: () -> (WlSeat, UInt32)?
        /// The window's style, which the menu's colours follow.
        var appearance: () -> Appearance = { .light }
    }

    /// A finger's size (touch guidelines ask for 44 pt).
    static let itemHeight = 44.0
    static let itemPadding = 18.0
    static let fontSize = 16.0

    private let environment: Environment
    private let logger: Logger
    /// Tells TouchKit what happened.
    var onChoose: ((MenuController.Item) -> Void)?
    var onDismiss: (() -> Void)?

    private var items: [MenuController.Item] = []
    private var itemFrames: [Rect] = []
    private var size = Size.zero
    private var anchor = Rect.zero
    /// The window's bounds when the menu was asked for: the menu stays inside them.
    private var bounds = Rect.zero
    private var highlighted: Int?
    /// The style the shown menu was drawn in.
    private var drawnStyle: Appearance?
    private var grabbed = false
    private var configured = false

    private(set) var surface: WlSurface?
    private var xdgSurface: XdgSurface?
    private var popup: XdgPopup?
    private var buffer: ShmBuffer?
    private var fractionalScale: WpFractionalScaleV1?
    private var viewport: WpViewport?
    /// The popup surface's own preferred fractional scale, once the compositor has sent it.
    private var preferredFraction: UInt32?

    init(environment: Environment, logger: Logger) {
        self.environment = environment
        self.logger = logger
    }

    var isShown: Bool { popup != nil }

    /// Draws the shown menu again when the window's style changed since (the desktop turned dark
    /// while it was open); the host asks once a turn.
    func followStyle() {
        guard isShown, let drawnStyle, drawnStyle != environment.appearance() else { return }
        render()
    }

    // MARK: MenuPresenter

    func presentMenu(_ items: [MenuController.Item], pointingAt rect: Rect, in window: Window) {
        tearDown()
        self.items = items
        anchor = rect
        bounds = window.bounds
        layout()
        logger.debug("menu: \(items.map(\.title).joined(separator: ", ")) at \(Int(rect.midX)),\(Int(rect.minY))")
        open(grab: true)
    }

    func dismissMenu() {
        tearDown()
    }

    // MARK: Input (the seat routes events on our surface here)

    func press(at point: Point) {
        setHighlight(index(at: point))
    }

    func drag(to point: Point) {
        setHighlight(index(at: point))
    }

    /// A release over an item chooses it; elsewhere nothing happens.
    func release(at point: Point) {
        let chosen = index(at: point)
        setHighlight(nil)
        guard let chosen, chosen < items.count else { return }
        let item = items[chosen]
        logger.debug("menu: chose \(item.title)")
        tearDown()
        onChoose?(item)
    }

    // MARK: Private

    private func layout() {
        (itemFrames, size) = Self.layout(items.map(\.title))
    }

    /// Between the menu and what it points at.
    static let gap: Int32 = 8

    /// Between the menu and the window's side, where it would otherwise reach it: a menu flush
    /// against the edge looks cut off.
    static let sideMargin = 6.0

    /// Where a menu of `size` goes, pointing at `rect` inside `bounds`: above it when it fits
    /// there, else below; `dx` moves it from centred over `rect` to inside `bounds`, `sideMargin`
    /// from their sides where there is room (its left edge inside when it is wider than they are).
    static func placement(size: Size, pointingAt rect: Rect, in bounds: Rect) -> (above: Bool, dx: Double) {
        let above = rect.minY - Double(gap) - size.height >= bounds.minY
            || rect.maxY + Double(gap) + size.height > bounds.maxY
        let centred = (rect.midX - size.width / 2).rounded()
        let margin = min(sideMargin, max(0, ((bounds.width - size.width) / 2).rounded(.down)))
        let inside = max(bounds.minX + margin, min(centred, bounds.maxX - margin - size.width))
        return (above, inside - centred)
    }

    /// Each title's frame, side by side, and the menu's size.
    static func layout(_ titles: [String]) -> (frames: [Rect], size: Size) {
        let measure = CairoContext(surface: ImageSurface(width: 1, height: 1))
        var x = 0.0
        let frames = titles.map { title in
            let width = measure.measureText(title, fontSize: fontSize).width + 2 * itemPadding
            defer { x += width }
            return Rect(x: x, y: 0, width: width, height: itemHeight)
        }
        // Whole points: the positioner and the viewport take integers, and an integer buffer scale
        // must divide the buffer's width.
        return (frames, Size(width: max(x.rounded(.up), 1), height: itemHeight))
    }

    private func open(grab: Bool) {
        let surface = environment.compositor.createSurface()
        let xdgSurface = environment.wmBase.getXdgSurface(surface: surface)
        let positioner = environment.wmBase.createPositioner()
        positioner.setSize(width: Int32(size.width), height: Int32(size.height))
        positioner.setAnchorRect(x: Int32(anchor.minX), y: Int32(anchor.minY),
                                 width: Int32(max(anchor.width, 1)), height: Int32(max(anchor.height, 1)))
        // Above the finger, as iOS shows its edit menu, or below it when there is no room above;
        // moved sideways to stay inside the window, which compositors do not all do (Weston 10
        // slides nothing). Their own flip and slide still keep it on the screen.
        let place = Self.placement(size: size, pointingAt: anchor, in: bounds)
        positioner.setAnchor(anchor: place.above ? .top : .bottom)
        positioner.setGravity(gravity: place.above ? .top : .bottom)
        positioner.setOffset(x: Int32(place.dx), y: place.above ? -Self.gap : Self.gap)
        positioner.setConstraintAdjustment(constraintAdjustment:
            (XdgPositioner.ConstraintAdjustment.slideX.rawValue | XdgPositioner.ConstraintAdjustment.flipY.rawValue
                | XdgPositioner.ConstraintAdjustment.slideY.rawValue))
        let popup = xdgSurface.getPopup(parent: environment.parent(), positioner: positioner)
        positioner.destroy()
        configured = false
        grabbed = false
        xdgSurface.onEvent = { [unowned self] event in
            guard case .configure(let serial) = event else { return }
            self.xdgSurface?.ackConfigure(serial: serial)
            self.configured = true
            self.render()
        }
        popup.onEvent = { [unowned self] event in
            if case .popupDone = event { self.compositorDismissed() }
        }
        if let manager = environment.fractionalScaleManager, let viewporter = environment.viewporter {
            let fractional = manager.getFractionalScale(surface: surface)
            fractional.onEvent = { [unowned self] event in
                guard case .preferredScale(let numerator) = event, numerator != self.preferredFraction else { return }
                self.preferredFraction = numerator
                self.render()
            }
            fractionalScale = fractional
            viewport = viewporter.getViewport(surface: surface)
        }
        if grab, let (seat, serial) = environment.grabSerial() {
            popup.grab(seat: seat, serial: serial)
            grabbed = true
        }
        surface.commit()
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.popup = popup
    }

    private func compositorDismissed() {
        // A grab the compositor refused ends the popup before it was ever shown: show it ungrabbed.
        if grabbed, !configured {
            logger.debug("menu: the compositor refused the popup grab; showing it without one")
            tearDown()
            open(grab: false)
            return
        }
        logger.debug("menu: closed by the compositor")
        tearDown()
        onDismiss?()
    }

    private func render() {
        guard configured, let surface else { return }
        let geometry: BufferGeometry
        if let preferredFraction, viewport != nil {
            geometry = .fractional(numerator: preferredFraction)
        } else {
            let window = environment.geometry()
            // A fractional scale needs the viewport; without one, the next whole scale.
            geometry = window.isFractional && viewport == nil ? .integer(Int32(window.scale.rounded(.up))) : window
        }
        let (pixelWidth, pixelHeight) = geometry.pixelSize(width: Int(size.width), height: Int(size.height))
        if buffer == nil || buffer!.width != pixelWidth || buffer!.height != pixelHeight || buffer!.isBusy {
            buffer = try? ShmBuffer(shm: environment.shm, width: pixelWidth, height: pixelHeight, logicalSize: size)
        }
        guard let buffer else { return }
        let context = CairoContext(surface: buffer.image)
        context.scaleBy(x: geometry.scale, y: geometry.scale)
        let style = environment.appearance()
        drawnStyle = style
        Self.draw(items.map(\.title), in: itemFrames, size: size, highlighted: highlighted, style: style, into: context)
        buffer.image.flush()
        // Fractional: the buffer is at scale 1 and the viewport shows it at the popup's size.
        if surface.version >= 3 { surface.setBufferScale(scale: geometry.isFractional ? 1 : Int32(geometry.scale)) }
        if geometry.isFractional, let viewport {
            viewport.setDestination(width: Int32(size.width), height: Int32(size.height))
        }
        surface.attach(buffer: buffer.wlBuffer, x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: Int32(pixelWidth), height: Int32(pixelHeight))
        buffer.isBusy = true
        surface.commit()
    }

    /// The menu's picture: a rounded bar with the titles side by side, dark on a light window and
    /// a lighter grey on a dark one; outlined in high contrast.
    private static func draw(_ titles: [String], in frames: [Rect], size: Size, highlighted: Int?, style: Appearance,
                             into context: CairoContext) {
        context.replace(Rect(origin: .zero, size: size), with: .clear)
        var body = Rect(origin: .zero, size: size)
        if style.highContrast {
            context.setFillColor(.white)
            fillRoundedRect(body, radius: 8, in: context)
            body = body.insetBy(dx: style.outlineWidth, dy: style.outlineWidth)
        }
        context.setFillColor(style.menuBackground)
        fillRoundedRect(body, radius: 8, in: context)
        for (index, frame) in frames.enumerated() {
            if index == highlighted {
                context.saveGState()
                context.clip(to: frame)
                context.setFillColor(style.menuHighlight)
                fillRoundedRect(body, radius: 8, in: context)
                context.restoreGState()
            }
            if index > 0 {
                context.setFillColor(Color(white: 1, alpha: 0.25))
                context.fill(Rect(x: frame.minX, y: 8, width: 1, height: frame.height - 16))
            }
            context.drawText(titles[index], centeredIn: frame, color: .white, fontSize: fontSize)
        }
    }

    /// The menu with `titles` as the popup shows it at `scale` buffer pixels per point, drawn
    /// without a compositor (the tests compare it with the screen).
    static func picture(titles: [String], scale: Double, style: Appearance = .light) -> ImageSurface {
        let (frames, size) = layout(titles)
        let pixels = BufferGeometry(scale: scale, isFractional: true).pixelSize(width: Int(size.width), height: Int(size.height))
        let image = ImageSurface(width: pixels.width, height: pixels.height)
        let context = CairoContext(surface: image)
        context.scaleBy(x: scale, y: scale)
        draw(titles, in: frames, size: size, highlighted: nil, style: style, into: context)
        image.flush()
        return image
    }

    private func index(at point: Point) -> Int? {
        itemFrames.firstIndex { $0.contains(point) }
    }

    private func setHighlight(_ index: Int?) {
        guard index != highlighted else { return }
        highlighted = index
        render()
    }

    private func tearDown() {
        // Children before parents: the popup role, then its xdg_surface, the scale objects, then
        // the wl_surface.
        popup = nil
        xdgSurface = nil
        viewport = nil
        fractionalScale = nil
        preferredFraction = nil
        surface = nil
        buffer = nil
        highlighted = nil
        drawnStyle = nil
        configured = false
    }
}

extension WaylandHost {
    /// The edit menu with `titles` as its popup shows at `scale` (for comparisons with the screen).
    public static func menuPicture(titles: [String], scale: Double, style: Appearance = .light) -> ImageSurface {
        PopupMenu.picture(titles: titles, scale: scale, style: style)
    }

    /// Where each item of a menu with `titles` sits in it, in points from its top-left corner.
    public static func menuItemFrames(titles: [String]) -> [Rect] { PopupMenu.layout(titles).frames }
}
