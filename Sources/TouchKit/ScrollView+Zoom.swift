#if canImport(Glibc)
import Glibc
#endif

// Zooming (S10-S12), as UIKit's scroll view zooms: the delegate names a view of the content
// (`viewForZooming(in:)`), the zoom scale is that view's transform, the content size follows the
// scaled view, and a pinch scales it about the point between the fingers, which stays under them
// as they move.

/// A scroll view's zoom under way: the pinch's anchor, and an animation towards a scale.
final class ScrollZoom {
    /// Where the pinch began: the zoom view's point under the fingers, and the scale then.
    var anchor = Point.zero
    var startScale = 1.0
    var isPinching = false
    /// An animated zoom: from and to a scale, keeping `anchor` (a point of the zoom view) at
    /// `visible` (a point of the scroll view's frame).
    var animation: (from: Double, to: Double, start: Double, duration: Double, anchor: Point, visible: Point, settles: Bool)?
    var timer: TimerToken?

    static let duration = 0.25
    /// How much of a pinch past a limit shows: the scale past it to this power.
    static let pastLimit = 0.3

    func stopAnimation() {
        timer?.cancel()
        timer = nil
        animation = nil
    }
}

extension ScrollView {
    /// The zoom view's scale (S10): 1 without a zoom view. Setting it zooms about the middle of
    /// what is shown.
    public var zoomScale: Double {
        get { zoomView.map { $0.transform.a } ?? 1 }
        set { setZoomScale(newValue, animated: false) }
    }

    /// True while two fingers pinch.
    public var isZooming: Bool { zooming.isPinching }
    /// True while a zoom past a limit springs back to it.
    public var isZoomBouncing: Bool { zooming.animation?.settles == true }

    /// Where the animated zoom under way ends (a spring back from past a limit, or an animated
    /// `setZoomScale` or `zoom(to:)`): its scale and the content offset then, before anything
    /// past an edge springs back; nil when none runs. Content can ready the picture it ends on
    /// while the frames on the way show an older one scaled. Not UIKit's.
    public var zoomAnimationTarget: (zoomScale: Double, contentOffset: Point)? {
        guard let animation = zooming.animation, let view = zoomView else { return nil }
        let offset = offset(keeping: animation.anchor, of: view, at: animation.visible, scale: animation.to)
        return (animation.to, animation.settles ? offset : clampedOffset(offset))
    }

    /// Zooms to `scale` (within the limits) about the middle of what is shown, over a quarter of
    /// a second when `animated` (S10).
    public func setZoomScale(_ scale: Double, animated: Bool) {
        guard let view = zoomView else { return }
        let target = min(max(scale, minimumZoomScale), maximumZoomScale)
        let visible = Point(x: bounds.width / 2, y: bounds.height / 2)
        let anchor = view.convert(Point(x: contentOffset.x + visible.x, y: contentOffset.y + visible.y), from: self)
        zoom(to: target, keeping: anchor, at: visible, animated: animated, settles: false)
    }

    /// Zooms so that `rect` (in the zoom view's coordinates) fills the scroll view as far as the
    /// limits allow, centred (S10).
    public func zoom(to rect: Rect, animated: Bool) {
        guard zoomView != nil, rect.width > 0, rect.height > 0 else { return }
        let scale = min(max(min(bounds.width / rect.width, bounds.height / rect.height), minimumZoomScale), maximumZoomScale)
        zoom(to: scale, keeping: rect.center, at: Point(x: bounds.width / 2, y: bounds.height / 2), animated: animated, settles: false)
    }

    var zoomView: View? { delegate?.viewForZooming(in: self) }

    /// Creates or removes the pinch as zooming becomes possible or not.
    func updatePinch() {
        if maximumZoomScale > minimumZoomScale, pinchGestureRecognizer == nil {
            let pinch = PinchGestureRecognizer()
            pinch.name = "scroll view pinch"
            pinch.addHandler { [link = ViewLink(self)] pinch in link.view?.handlePinch(pinch) }
            pinchGestureRecognizer = pinch
            addGestureRecognizer(pinch)
            pinch.delegate = recognizerRules
        } else if maximumZoomScale <= minimumZoomScale, let pinch = pinchGestureRecognizer {
            removeGestureRecognizer(pinch)
            pinchGestureRecognizer = nil
        }
    }

    /// Scales the zoom view to `scale` and scrolls so that `anchor` (the zoom view's point) is
    /// at `visible` (the scroll view's frame's point), without settling into range.
    func applyZoom(_ scale: Double, keeping anchor: Point, at visible: Point) {
        guard let view = zoomView, scale > 0, scale.isFinite else { return }
        view.transform = AffineTransform(scaleX: scale, y: scale)
        // The scaled view's top left at the content's origin.
        view.center = Point(x: view.bounds.width * scale / 2, y: view.bounds.height * scale / 2)
        contentSize = Size(width: view.bounds.width * scale, height: view.bounds.height * scale)
        contentOffset = offset(keeping: anchor, of: view, at: visible, scale: scale)
        delegate?.scrollViewDidZoom(self)
    }

    /// The content offset that shows `anchor` (a point of the zoom view) at `visible` (a point of
    /// the scroll view's frame) with the zoom view scaled by `scale`, its top left at the
    /// content's origin (as `applyZoom` places it). One formula for the zoom and for where an
    /// animated one ends, so both give the very same offset.
    private func offset(keeping anchor: Point, of view: View, at visible: Point, scale: Double) -> Point {
        Point(x: (anchor.x - view.bounds.minX) * scale - visible.x, y: (anchor.y - view.bounds.minY) * scale - visible.y)
    }

    private func handlePinch(_ pinch: PinchGestureRecognizer) {
        let visible = Point(x: pinch.location(in: self).x - contentOffset.x, y: pinch.location(in: self).y - contentOffset.y)
        switch pinch.state {
        case .began:
            beginZooming(at: visible)
            zoomChanged(to: pinch.scale, at: visible)
        case .changed:
            zoomChanged(to: pinch.scale, at: visible)
        case .ended, .cancelled:
            endZooming(at: visible)
        default:
            break
        }
    }

    /// Fingers (on the glass or a touchpad) begin to zoom about `visible`, a point of the scroll
    /// view's frame: the zoom view's point there stays under them (S11, S13).
    func beginZooming(at visible: Point) {
        guard let view = zoomView else { return }
        motion.stop()
        zooming.stopAnimation()
        zooming.isPinching = true
        zooming.startScale = zoomScale
        zooming.anchor = view.convert(Point(x: contentOffset.x + visible.x, y: contentOffset.y + visible.y), from: self)
        delegate?.scrollViewWillBeginZooming(self, with: view)
    }

    /// The fingers' distance is `scale` times what it was when they began, their middle at `visible`.
    func zoomChanged(to scale: Double, at visible: Point) {
        guard zooming.isPinching else { return }
        applyZoom(shownScale(zooming.startScale * scale), keeping: zooming.anchor, at: visible)
    }

    /// The fingers lifted at `visible`: a zoom past a limit springs back to it (S12).
    func endZooming(at visible: Point) {
        guard zooming.isPinching else { return }
        zooming.isPinching = false
        let target = min(max(zoomScale, minimumZoomScale), maximumZoomScale)
        if target != zoomScale {
            zoom(to: target, keeping: zooming.anchor, at: visible, animated: true, settles: true)
        } else {
            finishZoom(at: target)
        }
    }

    /// A pinch's scale as shown: past a limit with `bouncesZoom` held back, else at the limit.
    private func shownScale(_ raw: Double) -> Double {
        let limit = raw > maximumZoomScale ? maximumZoomScale : raw < minimumZoomScale ? minimumZoomScale : raw
        guard raw != limit, limit > 0 else { return raw }
        return bouncesZoom ? limit * pow(raw / limit, ScrollZoom.pastLimit) : limit
    }

    private func finishZoom(at scale: Double) {
        delegate?.scrollViewDidEndZooming(self, with: zoomView, atScale: scale)
        // What the zoom left past an edge springs back (S5).
        _ = motion.release(with: .zero, in: self)
    }

    func zoom(to scale: Double, keeping anchor: Point, at visible: Point, animated: Bool, settles: Bool) {
        zooming.stopAnimation()
        motion.stop()
        guard animated, !appearance.reduceMotion, let clock = window?.application?.clock else {
            applyZoom(scale, keeping: anchor, at: visible)
            if settles { finishZoom(at: scale) } else { contentOffset = clampedOffset(contentOffset) }
            return
        }
        zooming.animation = (zoomScale, scale, clock.now, ScrollZoom.duration, anchor, visible, settles)
        stepZoom(clock)
    }

    /// Brings a zoom animation under way to the scale it was going to at once (an app quitting
    /// keeps the view that was asked for, not a frame of the way there); nothing when none runs.
    public func completeZoomAnimation() {
        guard let animation = zooming.animation else { return }
        zooming.stopAnimation()
        applyZoom(animation.to, keeping: animation.anchor, at: animation.visible)
        if animation.settles { finishZoom(at: animation.to) } else { contentOffset = clampedOffset(contentOffset) }
    }

    private func stepZoom(_ clock: Clock) {
        zooming.timer = clock.schedule(at: clock.now + ScrollMotion.step) { [weak self] in
            guard let self, let animation = zooming.animation else { return }
            let t = min(1, (clock.now - animation.start) / animation.duration)
            let eased = 1 - pow(1 - t, 3)
            // Evenly in the logarithm of the scale, so zooming in and out feel alike.
            let scale = exp(log(animation.from) + (log(animation.to) - log(animation.from)) * eased)
            guard t >= 1 else {
                applyZoom(scale, keeping: animation.anchor, at: animation.visible)
                return stepZoom(clock)
            }
            completeZoomAnimation()
        }
    }
}

/// The delegate of a scroll view's own pan and pinch: a small object the scroll view holds, not
/// the scroll view itself, which a recognizer's weak delegate would give a side table
/// (ViewLink.swift).
final class ScrollRecognizerRules: GestureRecognizerDelegate {
    unowned let scrollView: ScrollView

    init(_ scrollView: ScrollView) {
        self.scrollView = scrollView
    }

    /// The drag and the pinch go together: two fingers pan while they zoom.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        let pan = scrollView.panGestureRecognizer, pinch = scrollView.pinchGestureRecognizer
        return (gestureRecognizer === pan && other === pinch) || (gestureRecognizer === pinch && other === pan)
    }
}
