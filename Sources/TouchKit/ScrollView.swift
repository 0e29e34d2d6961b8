/// A view whose content is bigger than itself, moved by dragging (UIKit's `UIScrollView`, S1-S12).
///
/// The content is the scroll view's subviews, laid out in its coordinate space; scrolling moves
/// ``bounds``' origin (``contentOffset``), so they stay where they are and the visible part
/// moves. A pan recognizer (``panGestureRecognizer``) drags the content; a touch that lands on a
/// subview reaches it only after a short wait (``delaysContentTouches``), long enough to tell a
/// drag from a tap, and a drag that begins later takes the touch from it
/// (``canCancelContentTouches``, ``touchesShouldCancel(in:)``), as in UIKit.
open class ScrollView: View {
    /// Told of scrolling and dragging (UIKit's `UIScrollViewDelegate`).
    public weak var delegate: ScrollViewDelegate?

    /// The size of the content, in the scroll view's points. Default: zero (nothing to scroll).
    open var contentSize: Size = .zero {
        didSet { if contentSize != oldValue { settleIntoRange() } }
    }

    /// Extra room around the content that scrolling can reach (S2). Default: none.
    open var contentInset: EdgeInsets = .zero {
        didSet { if contentInset != oldValue { settleIntoRange() } }
    }

    /// The point of the content shown at the scroll view's top left: ``bounds``' origin (S1).
    open var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue != bounds.origin else { return }
            bounds = Rect(origin: newValue, size: bounds.size)
            delegate?.scrollViewDidScroll(self)
        }
    }

    /// Moves the content to `offset`, over a quarter of a second when `animated`.
    open func setContentOffset(_ offset: Point, animated: Bool) {
        motion.stop()
        if animated, window?.application != nil {
            motion.glide(from: contentOffset, to: offset, duration: ScrollMotion.glideDuration, in: self)
        } else {
            contentOffset = offset
        }
    }

    /// Whether dragging scrolls. Default: true.
    open var isScrollEnabled = true
    /// Whether the content follows a drag past its edges, held back, and springs back (S5).
    /// Default: true.
    open var bounces = true
    /// Whether a drag moves the content along an axis where it fits. Default: false for both.
    open var alwaysBounceVertical = false
    open var alwaysBounceHorizontal = false
    /// Whether a touch on the content waits before reaching it, to see whether it drags (S6).
    /// Default: true.
    open var delaysContentTouches = true
    /// Whether a drag that begins after the content got its touches takes them from it (S7).
    /// Default: true.
    open var canCancelContentTouches = true
    /// How fast a flick slows down: the share of its speed kept each millisecond (S4).
    open var decelerationRate: DecelerationRate = .normal

    /// True while a finger that may drag the content is down on it, dragging or not yet.
    public var isTracking: Bool { panGestureRecognizer.hasActiveTouches }
    /// True while fingers drag the content, on it or on a touchpad.
    public var isDragging: Bool { isDraggingByTouch || pointerScroll != nil }
    private var isDraggingByTouch = false
    /// True while the content moves on after a flick or springs back from an edge.
    public var isDecelerating: Bool { motion.isDecelerating }

    /// The recognizer that drags the content: add requirements to it, or read its translation.
    public let panGestureRecognizer = PanGestureRecognizer()
    /// Holds touches on the content back while a drag may still begin (S6).
    let contentTouchDelay = ContentTouchDelay()
    let motion = ScrollMotion()
    /// The offset when the drag began.
    private var dragStart = Point.zero
    /// A touchpad's scroll under way (ScrollView+Pointer.swift).
    var pointerScroll: PointerScroll?

    // MARK: Zooming (S10-S12, ScrollView+Zoom.swift)

    /// The smallest and largest ``zoomScale``; zooming needs a larger maximum than minimum and a
    /// delegate's ``ScrollViewDelegate/viewForZooming(in:)``. Default: 1 and 1 (no zoom).
    open var minimumZoomScale = 1.0 {
        didSet { updatePinch() }
    }
    open var maximumZoomScale = 1.0 {
        didSet { updatePinch() }
    }
    /// Whether a pinch may go past the zoom limits, held back, and springs back. Default: true.
    open var bouncesZoom = true
    /// The recognizer that zooms: nil while zooming is not possible (the limits are equal).
    public internal(set) var pinchGestureRecognizer: PinchGestureRecognizer?
    let zooming = ScrollZoom()
    private(set) lazy var recognizerRules = ScrollRecognizerRules(self)

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        // As UIScrollView's: the content shows only within the view, and a zoom's or a scroll's
        // change to it marks nothing outside (the toolbar beside a canvas is not repainted with
        // every step of a pinch).
        clipsToBounds = true
        panGestureRecognizer.name = "scroll view pan"
        panGestureRecognizer.addHandler { [link = ViewLink(self)] pan in link.view?.handlePan(pan) }
        panGestureRecognizer.delegate = recognizerRules
        addGestureRecognizer(panGestureRecognizer)
        contentTouchDelay.name = "scroll view touch delay"
        addGestureRecognizer(contentTouchDelay)
    }

    // MARK: What the content gets (S6, S7)

    /// Asked before touches reach `view`, a view of the content; false keeps them from it (they
    /// still scroll). Default: true.
    open func touchesShouldBegin(_ touches: Set<Touch>, with event: Event?, in view: View) -> Bool { true }

    /// Asked when a drag would begin while `view` has its touches; true lets the drag take them
    /// (the view gets `touchesCancelled`). Default: true, except for a ``Control``, which keeps
    /// its touch as a button keeps a finger sliding off it.
    open func touchesShouldCancel(in view: View) -> Bool { !(view is Control) }

    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        if gestureRecognizer === pinchGestureRecognizer {
            guard delegate?.viewForZooming(in: self) != nil else { return false }
        } else if gestureRecognizer !== panGestureRecognizer {
            return super.gestureRecognizerShouldBegin(gestureRecognizer)
        }
        guard gestureRecognizer === pinchGestureRecognizer || isScrollEnabled else { return false }
        // Touches the content already has: the drag may take them only if each view lets it.
        let panning = gestureRecognizer.activeTouches
        let views = contentTouchDelay.releasedTouches.filter { touch in panning.contains { $0 === touch } }
            .compactMap(\.view).filter { $0 !== self }
        if !views.isEmpty {
            guard canCancelContentTouches else { return false }
            for view in views where !touchesShouldCancel(in: view) { return false }
        }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    // MARK: Dragging (S3, S5)

    /// The offsets scrolling rests between: from minus the top and left insets to the content's
    /// far edges plus the bottom and right insets, less the view's size.
    public var offsetRange: (min: Point, max: Point) {
        let low = Point(x: -contentInset.left, y: -contentInset.top)
        let high = Point(x: max(low.x, contentSize.width + contentInset.right - bounds.width),
                         y: max(low.y, contentSize.height + contentInset.bottom - bounds.height))
        return (low, high)
    }

    /// Whether a drag moves the content along x (horizontal) or y.
    func scrolls(horizontally: Bool) -> Bool {
        let range = offsetRange
        return horizontally ? (range.max.x > range.min.x || alwaysBounceHorizontal)
                            : (range.max.y > range.min.y || alwaysBounceVertical)
    }

    private func handlePan(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            motion.stop()
            zooming.stopAnimation()
            dragStart = contentOffset
            isDraggingByTouch = true
            delegate?.scrollViewWillBeginDragging(self)
            follow(pan)
        case .changed:
            follow(pan)
        case .ended, .cancelled:
            isDraggingByTouch = false
            guard !isZooming, !isZoomBouncing else { return }
            let velocity = pan.state == .ended ? pan.velocity(in: self) : .zero
            // The content keeps the finger's speed, the other way round: dragging up scrolls down.
            let flick = Point(x: scrolls(horizontally: true) ? -velocity.x : 0,
                              y: scrolls(horizontally: false) ? -velocity.y : 0)
            let decelerates = motion.release(with: flick, in: self)
            delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerates)
        default:
            break
        }
    }

    /// The offset under the fingers: where the drag began less how far they moved, held back
    /// past an edge (or stopped there without ``bounces``).
    private func follow(_ pan: PanGestureRecognizer) {
        // Two fingers pinching move the content themselves (S11); the drag goes on from where
        // they leave it.
        if isZooming {
            pan.setTranslation(.zero, in: self)
            dragStart = contentOffset
            return
        }
        let translation = pan.translation(in: self)
        let range = offsetRange
        var offset = contentOffset
        if scrolls(horizontally: true) {
            offset.x = ScrollMotion.resisted(dragStart.x - translation.x, range.min.x, range.max.x,
                                             dimension: bounds.width, bounces: bounces)
        }
        if scrolls(horizontally: false) {
            offset.y = ScrollMotion.resisted(dragStart.y - translation.y, range.min.y, range.max.y,
                                             dimension: bounds.height, bounces: bounces)
        }
        contentOffset = offset
    }

    /// A change of size or insets that leaves the offset out of range moves it back at once
    /// (not while fingers drag or the content moves on).
    private func settleIntoRange() {
        guard !isDragging, !isDecelerating, !isZooming, !isZoomBouncing else { return }
        contentOffset = clampedOffset(contentOffset)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        settleIntoRange()
    }
}

/// How fast a flicked scroll view slows down (UIKit's values): the share of its speed it keeps
/// each millisecond.
public struct DecelerationRate: Hashable, Sendable {
    public var rawValue: Double
    public init(rawValue: Double) { self.rawValue = rawValue }
    public static let normal = DecelerationRate(rawValue: 0.998)
    public static let fast = DecelerationRate(rawValue: 0.99)
}

/// What a scroll view tells as it scrolls (UIKit's `UIScrollViewDelegate`); every method has a
/// default that does nothing.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed: by a drag, a flick, a spring back, or set.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// Fingers began to drag the content.
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The fingers lifted; `decelerate` when the content moves on (a flick or a spring back).
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content came to rest after moving on.
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// An animated ``ScrollView/setContentOffset(_:animated:)`` arrived.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    /// The view a pinch scales; nil (the default) lets nothing zoom.
    func viewForZooming(in scrollView: ScrollView) -> View?
    /// A pinch is about to zoom `view`.
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    /// ``ScrollView/zoomScale`` changed.
    func scrollViewDidZoom(_ scrollView: ScrollView)
    /// A zoom ended at `scale`, within the limits (after springing back to them, if it went past).
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {}
}
