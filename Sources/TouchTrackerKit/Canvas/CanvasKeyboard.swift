// The app without touch or a mouse: Tab and Shift+Tab move the keyboard focus through the canvas
// and the toolbar (the palette's swatches while it shows), drawn as a ring in the style's accent
// colour; in the canvas Tab steps through the lines in drawing order and selects each, and the
// arrow keys move the selected line as a drag does (Shift: farther), one undoable step a press;
// Space or Enter presses the focused control; the Menu key or Shift+F10 opens the edit menu for
// the selected line, or for the canvas. Delete, Escape and the Ctrl shortcuts stay the
// executable's (KeyCommand). The focus stops are the accessibility tree's controls, so the keys
// reach what a screen reader reads (E11-E13).
import TouchKit

public final class CanvasKeyboard {
    /// How far an arrow moves the selected line, and with Shift.
    public static let step = 10.0, bigStep = 50.0

    private unowned let controller: DrawViewController
    private let ring = FocusRingView()
    /// What has the keyboard focus: a control, or the canvas; nil before the first Tab.
    public private(set) weak var focused: View?

    init(controller: DrawViewController) {
        self.controller = controller
        controller.view.addSubview(ring)
        ring.follow = { [unowned self] in self.updateRing() }
    }

    private var canvas: DrawView { controller.drawView }

    /// Takes a key press (its XKB name, any case); false when it is not one of these keys.
    @discardableResult
    public func handle(key name: String, shift: Bool = false, control: Bool = false) -> Bool {
        guard !control else { return false }
        switch name.lowercased() {
        case "tab", "iso_left_tab": tab(backwards: shift || name.lowercased() == "iso_left_tab")
        case "left", "right", "up", "down": return arrow(name.lowercased(), far: shift)
        case "space", "return", "kp_enter": return press()
        case "menu": showMenu()
        case "f10" where shift: showMenu()
        default: return false
        }
        return true
    }

    /// The focus stops in order: the screen's enabled controls and the canvas, as the
    /// accessibility tree lists them.
    var stops: [View] {
        var found: [View] = []
        func walk(_ node: Accessible) {
            if let view = node as? View, view === canvas || (view as? Control)?.isEnabled == true {
                found.append(view)
                if view === canvas { return }
            }
            for child in node.accessibilityChildren { walk(child) }
        }
        walk(controller.view)
        return found
    }

    private func tab(backwards: Bool) {
        if focused === canvas, stepLine(backwards: backwards) { return }
        let stops = self.stops
        guard !stops.isEmpty else { return focus(nil) }
        let index = stops.firstIndex { $0 === focused }
        let next = index.map { ($0 + (backwards ? stops.count - 1 : 1)) % stops.count } ?? (backwards ? stops.count - 1 : 0)
        focus(stops[next])
        if stops[next] === canvas {
            // Entering the canvas backwards lands on its last line, forwards before its first.
            canvas.select(backwards ? canvas.drawing.strokes.last?.id : nil)
        } else {
            canvas.select(nil)
        }
    }

    /// Selects the next (or previous) line; false when there is none, and the focus moves on.
    private func stepLine(backwards: Bool) -> Bool {
        let strokes = canvas.drawing.strokes
        let current = canvas.selectedStrokeID.flatMap { canvas.drawing.index(of: $0) }
        let next: Int? = switch (current, backwards) {
        case (nil, false): strokes.isEmpty ? nil : 0
        case (nil, true): nil
        case (let i?, false): i + 1 < strokes.count ? i + 1 : nil
        case (let i?, true): i > 0 ? i - 1 : nil
        }
        guard let next else { return false }
        canvas.select(strokes[next].id)
        canvas.postAccessibilityNotification(.layoutChanged(focus: lineElement(strokes[next].id)))
        return true
    }

    private func lineElement(_ id: StrokeID) -> Accessible? {
        canvas.accessibilityElements?.first { ($0 as? LineElement)?.id == id }
    }

    /// Arrows move the selected line in the canvas; with none selected they select the first
    /// (Down, Right) or last (Up, Left) line.
    private func arrow(_ direction: String, far: Bool) -> Bool {
        guard focused === canvas else { return false }
        guard let id = canvas.selectedStrokeID else {
            let strokes = canvas.drawing.strokes
            guard let pick = direction == "down" || direction == "right" ? strokes.first : strokes.last else { return false }
            canvas.select(pick.id)
            return true
        }
        let distance = far ? Self.bigStep : Self.step
        let (dx, dy): (Double, Double) = switch direction {
        case "left": (-distance, 0)
        case "right": (distance, 0)
        case "up": (0, -distance)
        default: (0, distance)
        }
        canvas.drawing.update(id, actionName: "Move") { $0 = $0.translated(dx: dx, dy: dy) }
        return true
    }

    /// Space or Enter: the focused control does what a tap does; in the canvas, the menu.
    private func press() -> Bool {
        guard let focused else { return false }
        if focused === canvas {
            showMenu()
            return true
        }
        return focused.accessibilityActivate()
    }

    /// The edit menu at the selected line's middle, or the canvas's.
    private func showMenu() {
        guard let menu = canvas.window?.application?.menuController else { return }
        let box = canvas.selectedStrokeID.flatMap(canvas.drawing.stroke).map { canvas.canvasRect($0.bounds) } ?? canvas.bounds
        canvas.becomeFirstResponder()
        menu.menuItems = [MenuController.Item(title: Strings.delete, action: DrawView.deleteAction),
                          MenuController.Item(title: Strings.copy, action: DrawView.copyAction),
                          MenuController.Item(title: Strings.paste, action: DrawView.pasteAction)]
        menu.setTargetRect(Rect(x: box.midX - 1, y: box.midY - 1, width: 2, height: 2), in: canvas)
        menu.setMenuVisible(true)
    }

    /// Moves the focus and its ring, and tells assistive tools.
    public func focus(_ view: View?) {
        focused = view
        updateRing()
        if let view { view.postAccessibilityNotification(.layoutChanged(focus: view)) }
    }

    /// After a layout of the screen: the ring, its last subview, lays itself out after the
    /// controls it surrounds have theirs.
    func screenDidLayout() { ring.setNeedsLayout() }

    /// Puts the ring around the focused view.
    func updateRing() {
        guard let focused, focused.window != nil, let superview = ring.superview else {
            ring.isHidden = true
            return
        }
        superview.bringSubviewToFront(ring)
        let box = superview.convert(focused.accessibilityFrame, from: nil)
        // Around a control; inside the canvas, which fills the window's width.
        ring.frame = focused === canvas ? box : box.insetBy(dx: -FocusRingView.gap, dy: -FocusRingView.gap)
        ring.isHidden = false
        ring.setNeedsDisplay()
    }
}

/// The keyboard focus's ring: an outline in the style's accent colour, seen by no tool (the focus
/// itself is told to them) and taking no touches.
final class FocusRingView: View {
    static let gap = 2.0, width = 3.0
    /// Puts the ring where the focus is now.
    var follow: (() -> Void)?

    init() {
        super.init(frame: .zero)
        isUserInteractionEnabled = false
        accessibilityElementsHidden = true
        isHidden = true
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        follow?()
    }

    override func draw(_ rect: Rect, in context: GraphicsContext) {
        let w = Self.width + appearance.outlineWidth - 1, b = bounds
        context.setFillColor(appearance.accentColor)
        context.fill(Rect(x: b.minX, y: b.minY, width: b.width, height: w))
        context.fill(Rect(x: b.minX, y: b.maxY - w, width: b.width, height: w))
        context.fill(Rect(x: b.minX, y: b.minY, width: w, height: b.height))
        context.fill(Rect(x: b.maxX - w, y: b.minY, width: w, height: b.height))
    }
}
