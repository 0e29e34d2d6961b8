/// The root of a view hierarchy shown in one platform window: it delivers events to views, keeps
/// the first responder, collects dirty areas and renders the hierarchy into a context.
///
/// The host (WaylandHost) owns the platform surface. ``needsDisplayHandler`` tells it the window
/// wants a frame; once per turn of its event loop (at once when the turn carried input, else at
/// the frame callback) it takes ``takeDirtyRegion()`` and paints that region and the views'
/// ``sketches`` into a free buffer (Graphics' `Window.update`, which draws the views through
/// ``render(_:in:)``). docs/frame.md follows the whole path.
open class Window: View {
    private var dirtyRect: Rect?
    private var dirtyRegion = DirtyRegion()
    private var updateScheduled = false
    private weak var _firstResponder: Responder?

    /// The application the window belongs to (its ``next`` responder, R2).
    public internal(set) weak var application: Application?

    /// Called when the window goes from clean to dirty (a view called `setNeedsDisplay` or
    /// `setNeedsLayout`), once until ``takeDirtyRegion()`` clears it. The host schedules a frame.
    public var needsDisplayHandler: (() -> Void)?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
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
    /// adapter before the event is sent, in the order the touches went down.
    func attachBeganTouches(_ began: [Touch], in event: Event) {
        for touch in began {
            let hit = hitTest(touch.windowLocation, with: event)
            guard let view = hit, accepts(touch, for: view, in: event) else {
                touch.view = nil
                touch.isDeliverable = false
                continue
            }
            touch.view = view
        }
    }

    /// H4 and H5: whether `view` may take a new touch, given the touches other views track.
    private func accepts(_ touch: Touch, for view: View, in event: Event) -> Bool {
        for other in event.orderedTouches where other !== touch && other.window === self {
            guard other.isDeliverable, let otherView = other.view,
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

    // MARK: Dirty tracking and rendering

    /// Adds `rect` (window coordinates) to the area to redraw; calls ``needsDisplayHandler`` if
    /// the window was clean.
    public func setNeedsDisplay(inWindowRect rect: Rect) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return }
        dirtyRect = (dirtyRect ?? .zero).union(clipped)
        dirtyRegion.add(clipped)
        scheduleUpdate()
    }

    /// Asks the host for a frame unless one is already pending.
    func scheduleUpdate() {
        guard !updateScheduled else { return }
        updateScheduled = true
        needsDisplayHandler?()
    }

    /// Asks for a frame for a changed sketch (``View/setNeedsSketch()``); a host that could not
    /// paint the frame it took asks again with this.
    public func requestSketchFrame() {
        sketchChanged = true
        scheduleUpdate()
    }
    private var sketchChanged = false
    /// Restored lines (``Sketch/restored``) of sketches taken for a frame that was not painted.
    var unpaintedRestores: [ObjectIdentifier: [Polyline]] = [:]

    /// Tells the window that the frame whose dirty region and sketches were taken last was not
    /// painted (no buffer was free): the next frame is painted for its sketches, and takes their
    /// restored lines again.
    public func sketchFrameNotPainted() {
        for sketch in sketches where !sketch.restored.isEmpty {
            unpaintedRestores[sketch.view, default: []] += sketch.restored
        }
        requestSketchFrame()
    }

    /// The views' sketches for the frame whose dirty region was taken last (``View/sketch()``).
    public private(set) var sketches: [WindowSketch] = []
    /// Whether that frame must be painted for its sketches, dirty region or not: one changed, or
    /// a view started or stopped sketching.
    public private(set) var sketchesChanged = false

    /// Whether a frame has been asked for and not yet taken.
    public var needsDisplay: Bool { updateScheduled }

    /// Runs pending layout, then returns and clears the area to redraw as one rectangle: the union
    /// of the dirty rectangles, clipped to the bounds and rounded out to whole points. Nil when
    /// nothing is dirty. After this the window is clean, and the next `setNeedsDisplay` calls the
    /// handler again. Tests read it; the host takes ``takeDirtyRegion()``, which also collects the
    /// views' sketches.
    public func takeDirtyRect() -> Rect? {
        layoutIfNeeded()
        let rect = dirtyRect.map { $0.intersection(bounds).integral }
        dirtyRect = nil
        dirtyRegion.removeAll()
        updateScheduled = false
        guard let rect, !rect.isEmpty else { return nil }
        return rect
    }

    /// The host's step at every frame: runs pending layout, collects the views' sketches for the
    /// frame (``sketches``, ``sketchesChanged``), then returns and clears the area to redraw as a
    /// few rectangles (see ``DirtyRegion``), each clipped to the bounds and rounded out to whole
    /// points: the host repaints and damages only these. Empty when nothing is dirty. After this
    /// the window is clean, and the next `setNeedsDisplay` calls the handler again.
    public func takeDirtyRegion() -> DirtyRegion {
        layoutIfNeeded()
        // First: a view that stops sketching marks its lines dirty for this frame.
        let before = sketches.map(\.view)
        sketches = collectSketches()
        sketchesChanged = sketchChanged || sketches.map(\.view) != before
        sketchChanged = false
        let region = DirtyRegion(dirtyRegion.rects.map { $0.intersection(bounds).integral })
        dirtyRect = nil
        dirtyRegion.removeAll()
        updateScheduled = false
        return region
    }

    /// Draws the part of the hierarchy inside `rect` (window coordinates) into `context`: the
    /// window's background and content, then every visible view, back to front (subviews in
    /// order, after their superview). Each view is translated to its origin and clipped to its
    /// bounds (and so to its superview's), its background is filled, and ``View/draw(_:in:)`` gets
    /// the dirty area in the view's own coordinates. Views outside `rect` are skipped; the
    /// context's state is restored afterwards.
    public func render(_ rect: Rect, in context: GraphicsContext) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty, !isHidden else { return }
        context.saveGState()
        context.clip(to: area)
        drawContent(of: self, dirty: area, in: context)
        context.restoreGState()
    }

    /// Whether `view` (or an opaque view inside it) paints all of `rect`, given in its
    /// superview's coordinates.
    private static func hides(_ rect: Rect, behind view: View) -> Bool {
        guard !view.isHidden, view.alpha >= 1, view.frame.contains(rect) else { return false }
        if view.isOpaque { return true }
        let b = view.bounds
        let local = rect.offsetBy(dx: b.origin.x - view.frame.minX, dy: b.origin.y - view.frame.minY)
        return view.subviews.contains { hides(local, behind: $0) }
    }

    private func drawContent(of view: View, dirty: Rect, in context: GraphicsContext) {
        // An opaque subview covering the whole dirty area hides the view and the subviews behind
        // it: they are not drawn at all (a canvas under a moving finger repaints only itself).
        let covering = view.subviews.lastIndex { Self.hides(dirty, behind: $0) }
        if covering == nil {
            if let color = view.backgroundColor, color.alpha * view.alpha > 0 {
                context.setFillColor(color.withAlpha(color.alpha * min(1, max(0, view.alpha))))
                context.fill(dirty)
            }
            view.draw(dirty, in: context)
        }
        for sub in view.subviews[(covering ?? 0)...] {
            guard !sub.isHidden, sub.alpha >= 0.01 else { continue }
            let frame = sub.frame
            let visible = frame.intersection(dirty)
            guard !visible.isEmpty else { continue }
            let b = sub.bounds
            // `visible` in the subview's own coordinates.
            let local = visible.offsetBy(dx: b.origin.x - frame.minX, dy: b.origin.y - frame.minY)
            context.saveGState()
            context.translateBy(x: frame.minX, y: frame.minY)
            context.clip(to: Rect(origin: .zero, size: Size(width: frame.width, height: frame.height)))
            context.translateBy(x: -b.origin.x, y: -b.origin.y)
            drawContent(of: sub, dirty: local, in: context)
            context.restoreGState()
        }
    }
}
