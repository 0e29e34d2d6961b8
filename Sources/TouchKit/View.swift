/// A rectangular area that draws itself and receives the touches that begin inside it.
///
/// Coordinates: ``frame`` is in the superview's coordinate system; ``bounds`` is the view's own
/// (its origin is normally zero and can be moved to scroll the content). ``transform`` scales,
/// turns and moves the view about its ``center`` (H8).
///
/// Drawing is on demand: ``setNeedsDisplay()`` marks an area dirty in the window, and the window's
/// next ``Window/render(_:in:)`` calls ``draw(_:in:)``. A view never draws from a touch method.
open class View: Responder {
    /// The untransformed frame and the bounds' origin (View+Transform.swift reads them).
    var _frame: Rect
    var boundsOrigin: Point = .zero
    private var needsLayout = true

    /// The superview, or nil for a window or a view not in a hierarchy. Unowned, not weak
    /// (docs/architecture.md, "Gestures"): a view clears its subviews' and recognizers' as it goes.
    public private(set) unowned var superview: View?
    /// The subviews, back to front.
    public private(set) var subviews: [View] = []
    /// The controller whose root view this is (R2).
    weak var owningViewController: ViewController?
    /// Backing store of ``gestureRecognizers``.
    var attachedGestureRecognizers: [GestureRecognizer] = []
    /// What links to this view read (ViewLink.swift); nil until first linked.
    var linkAnchor: Anchor?

    public init(frame: Rect = .zero) {
        _frame = frame
        super.init()
    }

    deinit {
        linkAnchor?.view = nil
        for sub in subviews { sub.superview = nil }
        for recognizer in attachedGestureRecognizers { recognizer.attachedView = nil }
    }

    // MARK: Geometry

    /// The view's rectangle in its superview's coordinates. Changing it repaints the old and new
    /// areas and, when the size changes, schedules a layout. With a ``transform`` other than the
    /// identity it reads as the smallest rectangle holding the transformed view, and setting it
    /// sets the untransformed rectangle (UIKit leaves both undefined: use ``center`` and
    /// ``bounds``). A hidden view shows nothing where it was or goes: moving it marks nothing.
    open var frame: Rect {
        get { transform.isIdentity ? _frame : transformedFrameBox }
        set {
            let old = _frame
            guard newValue != old else { return }
            if !isHidden { superview?.setNeedsDisplay(old) }
            _frame = newValue
            if !isHidden { superview?.setNeedsDisplay(newValue) }
            if newValue.size != old.size { setNeedsLayout() }
        }
    }

    /// The view's rectangle in its own coordinates. Moving the origin scrolls the content; changing
    /// the size keeps the ``center``.
    open var bounds: Rect {
        get { Rect(origin: boundsOrigin, size: _frame.size) }
        set {
            if newValue.origin != boundsOrigin {
                boundsOrigin = newValue.origin
                setNeedsDisplay()
            }
            if newValue.size != _frame.size {
                let c = center
                frame = Rect(x: c.x - newValue.size.width / 2, y: c.y - newValue.size.height / 2,
                             width: newValue.size.width, height: newValue.size.height)
            }
        }
    }

    /// Scale, rotation and translation applied about the view's ``center``, in its superview's
    /// coordinates (UIKit's anchor point in the middle): hit-testing, conversions, touch
    /// locations and drawing all follow it (H8). Default: the identity.
    open var transform = AffineTransform.identity {
        didSet {
            guard transform != oldValue, !isHidden, let superview else { return }
            let old = bounds.applying(aboutCenter(oldValue))
            superview.setNeedsDisplay(old)
            superview.setNeedsDisplay(frame)
        }
    }

    /// When true, subviews are drawn only inside the view's bounds; when false (the default, as in
    /// UIKit) they show past them. Touches never reach the part of a subview outside the bounds,
    /// either way (H3, H8). A view's own drawing always stays inside its bounds.
    open var clipsToBounds = false {
        didSet { if clipsToBounds != oldValue { setNeedsDisplay() } }
    }

    /// The centre of ``frame``, in the superview's coordinates.
    open var center: Point {
        get { Point(x: _frame.midX, y: _frame.midY) }
        set {
            frame = Rect(x: newValue.x - _frame.size.width / 2, y: newValue.y - _frame.size.height / 2,
                         width: _frame.size.width, height: _frame.size.height)
        }
    }

    // MARK: Appearance and interaction

    /// Hidden views are not drawn and receive no touches (H1).
    open var isHidden = false {
        didSet { if isHidden != oldValue { markShownChanged() } }
    }

    /// Opacity from 0 to 1. Below 0.01 the view receives no touches (H1). The renderer applies it
    /// to the background colour only: there are no layers to composite view content with.
    open var alpha: Double = 1 {
        didSet { if alpha != oldValue { markShownChanged() } }
    }

    /// Filled behind ``draw(_:in:)``; nil draws nothing.
    open var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// True when the view paints every point of its bounds with opaque colour (UIKit's hint of the
    /// same name). The renderer then skips what lies behind it wherever it covers the dirty area.
    open var isOpaque = false

    /// When true, the window keeps a picture of the view and its subviews at the device's scale
    /// and copies it, as Core Animation does for a layer that `shouldRasterize`: a control hidden
    /// and shown again at every stroke is then copied, not drawn, and what is marked in it is
    /// drawn again into the picture, only there. Taken only where a copy is pixel for pixel what
    /// drawing gives: the view clips to its bounds, has an opaque background colour and full
    /// alpha, and lies on whole device pixels (else it is drawn as usual). Default: false.
    open var shouldRasterize = false {
        didSet { if !shouldRasterize { picture = nil } }
    }

    /// The picture ``shouldRasterize`` keeps (Window+Pictures.swift).
    var picture: ViewPicture?

    /// The pointer's look over the view; nil takes the superview's (``PointerStyle``).
    open var pointerStyle: PointerStyle?

    /// When false the view and its subviews receive no touches; they go to the view behind (H1).
    open var isUserInteractionEnabled = true

    /// When false (the default, as in UIKit), the view receives only the first of simultaneous
    /// touches; touches that begin on it while it tracks one are delivered nowhere (H4).
    open var isMultipleTouchEnabled = false

    /// When true, the view receives touches only while no other view tracks any, and no other
    /// view receives touches while it tracks one (H5, the A/B/C example of Apple's event handling guide).
    open var isExclusiveTouch = false

    /// A number to find the view by with ``viewWithTag(_:)``.
    open var tag = 0

    // MARK: Hierarchy

    /// The window the view is in, or nil.
    public var window: Window? {
        var view: View? = self
        while let v = view {
            if let w = v as? Window { return w }
            view = v.superview
        }
        return nil
    }

    override var responderWindow: Window? { window }

    /// The view controller if this is its root view, else the superview (R2).
    override open var next: Responder? {
        if let controller = owningViewController, controller.viewIfLoaded === self { return controller }
        return superview
    }

    /// Adds `view` in front of the other subviews, removing it from its old superview first.
    open func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` in ``subviews`` (clamped to the valid range), removing it from its
    /// old superview first. Adding a view to itself or to one of its own subviews does nothing.
    open func insertSubview(_ view: View, at index: Int) {
        guard view !== self, !isDescendant(of: view) else { return }
        if view.superview === self, let old = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: old)
            subviews.insert(view, at: max(0, min(index, subviews.count)))
            view.setNeedsDisplay()
            return
        }
        let oldWindow = view.window
        view.removeFromSuperview()
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.superview = self
        view.setNeedsLayout()
        view.setNeedsDisplay()
        view.didMoveToSuperview()
        if view.window !== oldWindow { view.notifyDidMoveToWindow() }
    }

    /// Inserts `view` just above `sibling` (at the end if `sibling` is not a subview).
    open func insertSubview(_ view: View, aboveSubview sibling: View) {
        let index = subviews.firstIndex(where: { $0 === sibling }).map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: index)
    }

    /// Inserts `view` just below `sibling` (at the start if `sibling` is not a subview).
    open func insertSubview(_ view: View, belowSubview sibling: View) {
        insertSubview(view, at: subviews.firstIndex(where: { $0 === sibling }) ?? 0)
    }

    /// Moves a subview in front of its siblings.
    open func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves a subview behind its siblings.
    open func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Takes the view out of its superview. If it (or a subview) was the window's first responder,
    /// the window no longer has one. Touches it is tracking keep coming to it (T7).
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        setNeedsDisplay()
        parent.subviews.removeAll { $0 === self }
        superview = nil
        didMoveToSuperview()
        if oldWindow != nil { notifyDidMoveToWindow() }
    }

    /// Whether this view is `view` or lies inside it.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// The first view in this subtree (depth first, this view included) with the given tag.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for sub in subviews {
            if let found = sub.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// Called after the superview changed (also on removal).
    open func didMoveToSuperview() {}

    /// Called after the window changed, for this view and every subview.
    open func didMoveToWindow() {}

    /// Called when the window's ``appearance`` changed, and when the view joins a window: a view
    /// whose colours follow the style sets them here (it is repainted after).
    open func appearanceDidChange() {}

    func notifyDidMoveToWindow() {
        didMoveToWindow()
        appearanceDidChange()
        for sub in subviews { sub.notifyDidMoveToWindow() }
    }

    // MARK: Hit-testing (H1-H3)

    /// The deepest, front-most view in this subtree that contains `point` (in this view's
    /// coordinates) and accepts touches, or nil (H1).
    ///
    /// Hidden views, views with alpha below 0.01 and views with `isUserInteractionEnabled == false`
    /// are skipped with their subtrees. Subviews are only asked when ``point(inside:with:)`` is
    /// true for this view, so the part of a subview outside its superview gets no touches (H3).
    open func hitTest(_ point: Point, with event: Event?) -> View? {
        guard !isHidden, alpha >= 0.01, isUserInteractionEnabled,
              self.point(inside: point, with: event) else { return nil }
        for sub in subviews.reversed() {
            if let hit = sub.hitTest(sub.convert(point, from: self), with: event) { return hit }
        }
        return self
    }

    /// Whether `point` (in this view's coordinates) is inside the view. Default: inside
    /// ``bounds``. Override to enlarge a small control's touch area (H2).
    open func point(inside point: Point, with event: Event?) -> Bool {
        bounds.contains(point)
    }

    // MARK: Gesture recognizers (G4)

    /// Whether `gestureRecognizer` (attached to this view or an ancestor) may begin recognizing;
    /// false makes it fail. Asked of each view the recognizer's touches are in, then of the
    /// recognizer's own view, before its delegate (G10). Default: true.
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        true
    }

    // MARK: Accessibility (E1-E7; the tree and notifications are in Accessibility/)

    /// Whether assistive tools see the view as one element, hiding its subviews. Default: false;
    /// controls: true (E1).
    open var isAccessibilityElement = false
    open var accessibilityLabel: String?
    open var accessibilityValue: String?
    open var accessibilityHint: String?
    open var accessibilityIdentifier: String?
    /// Default: none; controls add `selected` and `notEnabled` from their state (E3).
    open var accessibilityTraits: AccessibilityTraits = []
    /// Elements drawn inside the view, shown to tools instead of its subviews (E2).
    open var accessibilityElements: [Accessible]?
    open var accessibilityCustomActions: [AccessibilityCustomAction] = []
    /// Hides the view and everything in it from tools.
    open var accessibilityElementsHidden = false
    private var explicitAccessibilityFrame: Rect?

    /// In window coordinates: the bounds converted, unless set (E4).
    open var accessibilityFrame: Rect {
        get { explicitAccessibilityFrame ?? convert(bounds, to: nil) }
        set { explicitAccessibilityFrame = newValue }
    }

    /// Performs the view's main action for a tool; false when there is none. Default: false (E5).
    open func accessibilityActivate() -> Bool { false }
    open func accessibilityIncrement() {}
    open func accessibilityDecrement() {}

    // MARK: Drawing

    /// Marks the whole view as needing to be redrawn.
    open func setNeedsDisplay() {
        setNeedsDisplay(bounds)
    }

    /// Marks `rect` (in this view's coordinates) as needing to be redrawn. The window collects
    /// these as one dirty rectangle in its coordinates; a view outside a window marks nothing
    /// (adding it to a window marks it whole).
    /// A view that clips to its bounds shows nothing of itself or its subviews past them, so only
    /// what lies within them is marked (a subview moved or zoomed marks its old and new frames).
    open func setNeedsDisplay(_ rect: Rect) {
        let rect = clipsToBounds ? rect.intersection(bounds) : rect
        guard !rect.isEmpty, let window = windowMarkingPictures(from: self, CollectionOfOne(rect)) else { return }
        window.setNeedsDisplay(inWindowRect: convert(rect, to: nil))
    }

    /// Marks each of `rects` (in this view's coordinates) as needing to be redrawn: the same as a
    /// call per rectangle, converted to the window's coordinates once (a moving line marks dozens).
    open func setNeedsDisplay(_ rects: [Rect]) {
        // Pictures take them as they are: each is cut to its picture when drawn.
        guard let window = windowMarkingPictures(from: self, rects) else { return }
        let clip = clipsToBounds ? bounds : nil
        if isTransformed {
            for rect in rects {
                let rect = clip.map(rect.intersection) ?? rect
                if !rect.isEmpty { window.setNeedsDisplay(inWindowRect: convert(rect, to: nil)) }
            }
            return
        }
        let origin = convert(Point.zero, to: nil)
        for rect in rects {
            let rect = clip.map(rect.intersection) ?? rect
            if !rect.isEmpty { window.setNeedsDisplay(inWindowRect: rect.offsetBy(dx: origin.x, dy: origin.y)) }
        }
    }

    /// Lines the view shows above its drawing this frame that the window draws and erases itself
    /// (see ``LiveLines``), or nil. Asked once a frame, before the frame's dirty region is taken.
    /// A view that returns them leaves those lines out of ``draw(_:in:)`` for that frame's
    /// window buffer (``GraphicsContext/omitsLiveLines(of:)``), need not mark their changes dirty
    /// (``setNeedsLiveLines()`` asks for the frame), and marks them dirty when it stops returning
    /// them. Default: nil.
    open func liveLines() -> LiveLines? { nil }

    /// Asks for a frame because the view's live lines changed (nothing of the view itself is dirty).
    public func setNeedsLiveLines() {
        window?.requestLiveLinesFrame()
    }

    /// Draws the view's content. `rect` is the area to redraw, in the view's coordinates; the
    /// context is already translated to the view and clipped to its bounds and to `rect`, and the
    /// background colour is filled. Default: draws nothing.
    open func draw(_ rect: Rect, in context: GraphicsContext) {}

    // MARK: Layout

    /// Lays out subviews. Called by ``layoutIfNeeded()`` after ``setNeedsLayout()`` and after a size
    /// change. Default: nothing (the window and view controllers size their root views).
    open func layoutSubviews() {}

    /// Schedules ``layoutSubviews()`` for before the next render.
    open func setNeedsLayout() {
        needsLayout = true
        window?.scheduleUpdate()
    }

    /// Runs pending layout in this subtree now.
    open func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
            owningViewController?.viewDidLayoutSubviews()
        }
        for sub in subviews { sub.layoutIfNeeded() }
    }
}
