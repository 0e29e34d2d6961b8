/// The root of a view hierarchy shown in one platform window: it delivers events to views, keeps
/// the first responder, collects dirty areas and renders the hierarchy into a context.
///
/// The host (WaylandHost) owns the platform surface. ``needsDisplayHandler`` tells it the window
/// wants a frame; once per turn of its event loop (at once when the turn carried input, else at
/// the frame callback) it takes ``takeDirtyRegion()`` and paints that region and the views'
/// ``liveLines`` into a free buffer (Graphics' `Window.update`, which draws the views through
/// ``render(_:in:)``). docs/frame.md follows the whole path.
open class Window: View {
    /// What changed since the last frame was taken (Frame/Window+Frame.swift).
    var pending = PendingFrame()
    /// The live lines of the frame taken last.
    public internal(set) var liveLines: [PlacedLiveLines] = []
    /// Whether that frame must be painted for its live lines, dirty region or not: they changed,
    /// or a view started or stopped handing them over.
    public internal(set) var liveLinesChanged = false
    /// Held, not weak (docs/architecture.md, "Gestures"): one that left the window is let go when
    /// ``firstResponder`` is next read.
    private var _firstResponder: Responder?

    /// The application the window belongs to (its ``next`` responder, R2).
    /// Unowned, not weak (ViewLink.swift): the application lets its windows go as it goes.
    public internal(set) unowned var application: Application?

    /// Called when the window goes from clean to dirty (a view called `setNeedsDisplay` or
    /// `setNeedsLayout`), once until ``takeDirtyRegion()`` clears it. The host schedules a frame.
    public var needsDisplayHandler: (() -> Void)?

    /// Receives the views' accessibility notifications (E7): the platform layer's bridge to the
    /// desktop's assistive tools sets it.
    public var accessibilityNotificationHandler: ((AccessibilityNotification) -> Void)?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    /// The desktop's style (the host follows the desktop's settings), which every view in the
    /// window reads as ``View/appearance``. A change tells every view
    /// (``View/appearanceDidChange()``) and repaints the window.
    public var desktopAppearance = Appearance.light {
        didSet { if desktopAppearance != oldValue { notifyAppearanceDidChange() } }
    }

    /// The controller whose view fills the window and resizes with it.
    public var rootViewController: ViewController? {
        didSet {
            guard rootViewController !== oldValue else { return }
            if let old = oldValue?.viewIfLoaded, old.superview === self { old.removeFromSuperview() }
            if let controller = rootViewController {
                let root = controller.view
                root.frame = bounds
                insertSubview(root, at: 0)
            }
            setNeedsLayout()
        }
    }

    /// The application (R2).
    override open var next: Responder? { application }

    open override func layoutSubviews() {
        super.layoutSubviews()
        if let root = rootViewController?.viewIfLoaded, root.superview === self {
            root.frame = bounds
        }
    }

    /// Sets the window's size (the host calls this on `xdg_toplevel.configure`), lays out the
    /// hierarchy and marks the whole window dirty.
    public func resize(to size: Size) {
        frame = Rect(origin: frame.origin, size: size)
        setNeedsLayout()
        layoutIfNeeded()
        setNeedsDisplay()
    }

    /// Makes this the application's key window.
    public func makeKey() {
        application?.makeKey(self)
    }

    /// Whether this is the application's key window.
    public var isKeyWindow: Bool { application?.keyWindow === self }

    // MARK: First responder (R4)

    /// The responder that receives actions first; at most one per window. A responder that has
    /// left the window (a removed view) is no longer first responder.
    public var firstResponder: Responder? {
        guard let responder = _firstResponder else { return nil }
        guard responder.responderWindow === self else {
            _firstResponder = nil
            return nil
        }
        return responder
    }

    func setFirstResponder(_ responder: Responder?) {
        _firstResponder = responder
    }

    override var responderWindow: Window? { self }

    // MARK: Events (H7)

    /// Delivers an event's touches that belong to this window. The overridable pipe every touch
    /// event goes through (H7); overrides must call `super` for views to get touches.
    ///
    /// Each changed touch goes to its view's touch method for its phase, grouped: one call per
    /// view per phase per event (T2, T3). Stationary touches and touches with no view are not
    /// delivered. Gesture recognizers may hold a view's touches (G6, G7) or cancel them (G5).
    open func sendEvent(_ event: Event) {
        // Recognizers of each touch's view and its ancestors see the touches first (G4), then
        // the views get what the recognizers leave them (G5-G7).
        gestureEnvironment.deliver(event)
    }

    /// The arbitration between this window's gesture recognizers and its views.
    lazy var gestureEnvironment = GestureEnvironment(window: self)

    /// Chooses the view for each touch beginning in `event` (T7, H1-H5). Called by the input
    /// adapter before the event is sent, in the order the touches went down. A touch the view may
    /// not take (H4, H5) keeps its view for the recognizers, which still get it: the flags govern
    /// delivery to views only, as in UIKit.
    func attachBeganTouches(_ began: [Touch], in event: Event) {
        for touch in began {
            guard let view = hitTest(touch.windowLocation, with: event) else {
                touch.view = nil
                touch.isDeliverable = false
                continue
            }
            touch.view = view
            touch.deliversToView = accepts(touch, for: view, in: event)
        }
    }

    /// H4 and H5: whether `view` may take a new touch, given the touches other views track.
    private func accepts(_ touch: Touch, for view: View, in event: Event) -> Bool {
        for other in event.orderedTouches where other !== touch && other.window === self {
            guard other.isDeliverable, other.deliversToView, let otherView = other.view,
                  other.phase != .ended, other.phase != .cancelled else { continue }
            // Touches of this event that begin later are not attached yet: their view is nil.
            if otherView === view {
                if !view.isMultipleTouchEnabled { return false }
            } else if view.isExclusiveTouch || otherView.isExclusiveTouch {
                return false
            }
        }
        return true
    }
}
