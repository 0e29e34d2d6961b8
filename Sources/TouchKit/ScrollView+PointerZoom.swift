// Zooming without fingers on the glass (S13-S16): a wheel's notch with Ctrl held, reached through
// TouchInput+Zoom.swift, and a zoom by a factor the app asks for (a key, a button). A touchpad's
// pinch and its scroll with Ctrl held zoom as two fingers do (beginZooming, zoomChanged and
// endZooming in ScrollView+Zoom.swift).
extension ScrollView {
    /// Whether zooming is set up: a zoom view, and a maximum scale above the minimum (S10). The
    /// pinch recognizer's `isEnabled` does not matter: an app may keep fingers for itself and
    /// still zoom by the pointer.
    public var canZoom: Bool { maximumZoomScale > minimumZoomScale && zoomView != nil }

    /// Zooms by `factor` (the scale times it, within the limits), keeping `point` (in the scroll
    /// view's coordinates, as `location(in:)` gives a touch's) where it is on screen, or the
    /// middle of what is shown when `point` is nil; over a quarter of a second when `animated`
    /// (S16). The delegate hears `scrollViewDidZoom`, as for ``setZoomScale(_:animated:)``.
    public func zoom(by factor: Double, about point: Point? = nil, animated: Bool) {
        guard let view = zoomView, factor > 0, factor.isFinite, !isZooming else { return }
        let visible = point.map { Point(x: $0.x - contentOffset.x, y: $0.y - contentOffset.y) }
            ?? Point(x: bounds.width / 2, y: bounds.height / 2)
        // Pressed again while an animated zoom is on its way: on from where that one goes, so
        // quick presses add up as slow ones do.
        let base = zooming.animation.map { $0.settles ? zoomScale : $0.to } ?? zoomScale
        let target = min(max(base * factor, minimumZoomScale), maximumZoomScale)
        let anchor = view.convert(Point(x: contentOffset.x + visible.x, y: contentOffset.y + visible.y), from: self)
        zoom(to: target, keeping: anchor, at: visible, animated: animated, settles: false)
    }

    /// A wheel's notch with Ctrl held at `visible` (a point of the scroll view's frame): the zoom
    /// view's point there stays there, the scale goes by `factor` at once, never past a limit,
    /// and the content never past an edge (S14).
    func zoomByWheel(_ factor: Double, at visible: Point) {
        guard let view = zoomView, factor > 0, factor.isFinite, !isZooming else { return }
        let target = min(max(zoomScale * factor, minimumZoomScale), maximumZoomScale)
        guard target != zoomScale else { return }
        delegate?.scrollViewWillBeginZooming(self, with: view)
        let anchor = view.convert(Point(x: contentOffset.x + visible.x, y: contentOffset.y + visible.y), from: self)
        zoom(to: target, keeping: anchor, at: visible, animated: false, settles: false)
        delegate?.scrollViewDidEndZooming(self, with: view, atScale: target)
    }
}
