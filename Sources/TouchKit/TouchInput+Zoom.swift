// Zooming by the pointer (S13-S15): a touchpad's pinch, and a wheel or a touchpad's scroll with
// Ctrl held, go to the innermost scroll view under the pointer that can zoom, and zoom it about
// the pointer, as the content under the pointer zooms on every desktop. UIKit hands a trackpad's
// pinch to a scroll view's pinch recognizer (a transform event); TouchKit hands it to the scroll
// view itself, as it does a scroll (TouchInput+Scroll.swift): no touches, nothing to arbitrate.

/// A zoom by the pointer under way: the scroll view, where the fingers' middle is in its frame,
/// and the scale since they began. `byScroll`: a touchpad's scroll with Ctrl held, which ends
/// with the scroll (``TouchInput/scrollEnded(time:)``), not with a pinch's end.
struct PointerZoom {
    var target: ScrollView? { targetLink.view }
    private let targetLink: ViewLink<ScrollView>
    var visible: Point
    var scale = 1.0
    let byScroll: Bool

    init(target: ScrollView, visible: Point, byScroll: Bool) {
        targetLink = ViewLink(target)
        self.visible = visible
        self.byScroll = byScroll
    }

    /// The scale a pinch may reach, as far as it counts: a compositor's or a recording's value is
    /// outside data, and a touchpad's fingers never spread or close a thousandfold.
    static let scaleRange = 0.001...1000.0

    /// Moves the fingers' middle by `delta`, never out of the scroll view's frame.
    mutating func move(by delta: Point, within size: Size) {
        visible = Point(x: min(max(visible.x + delta.x, 0), size.width), y: min(max(visible.y + delta.y, 0), size.height))
    }
}

extension TouchInput {
    /// A touchpad's pinch began with the pointer at `location` (window points), at `time`: the
    /// innermost scroll view under it that can zoom begins zooming about it (S13).
    public func pinchBegan(at location: Point, time: Double) {
        recording(.pinchBegan(at: location, time: time)) {
            endPointerZoom()
            guard !application.isIgnoringInteractionEvents else { return }
            beginPointerZoom(at: location, byScroll: false)
        }
    }

    /// The pinch's fingers are `scale` times as far apart as when it began, and their middle moved
    /// by `translation` (window points) since the last change: the content scales about that
    /// middle and follows it (S13).
    public func pinchChanged(scale: Double, translation: Point, time: Double) {
        recording(.pinchChanged(scale: scale, translation: translation, time: time)) {
            guard var zoom = pointerZoom, !zoom.byScroll, scale > 0, scale.isFinite else { return }
            guard let target = zoom.target else { return }
            zoom.scale = min(max(scale, PointerZoom.scaleRange.lowerBound), PointerZoom.scaleRange.upperBound)
            zoom.move(by: translation, within: target.bounds.size)
            pointerZoom = zoom
            target.zoomChanged(to: zoom.scale, at: zoom.visible)
        }
    }

    /// The pinch's fingers lifted (or the compositor took the gesture, `cancelled`): past a limit
    /// the zoom springs back to it, and the delegate hears the zoom end (S13, S12).
    public func pinchEnded(time: Double, cancelled: Bool) {
        recording(.pinchEnded(time: time, cancelled: cancelled)) {
            guard pointerZoom?.byScroll == false else { return }
            endPointerZoom()
        }
    }

    /// A scroll with Ctrl held, at `location` (window points): the innermost scroll view under it
    /// that can zoom scales by `factor` about it. A wheel's notch zooms at once within the limits
    /// (S14); a touchpad's fingers zoom as a pinch does until they lift (S15).
    public func zoom(by factor: Double, at location: Point, time: Double, source: ScrollSource) {
        recording(.zoom(factor, at: location, time: time, source: source)) {
            guard !application.isIgnoringInteractionEvents, factor > 0, factor.isFinite else { return }
            switch source {
            case .wheel:
                if pointerZoom != nil { endPointerZoom() }
                guard let target = zoomingScrollView(at: location) else { return }
                target.zoomByWheel(factor, at: visible(location, in: target))
            case .touchpad:
                if pointerZoom?.byScroll != true {
                    endPointerZoom()
                    beginPointerZoom(at: location, byScroll: true)
                }
                guard var zoom = pointerZoom else { return }
                zoom.scale = min(max(zoom.scale * factor, PointerZoom.scaleRange.lowerBound), PointerZoom.scaleRange.upperBound)
                pointerZoom = zoom
                zoom.target?.zoomChanged(to: zoom.scale, at: zoom.visible)
            }
        }
    }

    /// Ends the zoom by the pointer under way, if any.
    func endPointerZoom() {
        guard let zoom = pointerZoom else { return }
        pointerZoom = nil
        zoom.target?.endZooming(at: zoom.visible)
    }

    private func beginPointerZoom(at location: Point, byScroll: Bool) {
        guard let target = zoomingScrollView(at: location) else { return }
        let point = visible(location, in: target)
        pointerZoom = PointerZoom(target: target, visible: point, byScroll: byScroll)
        target.beginZooming(at: point)
    }

    /// `location` (window points) as a point of `scrollView`'s frame, from its top left.
    private func visible(_ location: Point, in scrollView: ScrollView) -> Point {
        let point = scrollView.convert(location, from: nil)
        return Point(x: point.x - scrollView.contentOffset.x, y: point.y - scrollView.contentOffset.y)
    }

    /// The innermost scroll view under `location` that can zoom.
    private func zoomingScrollView(at location: Point) -> ScrollView? {
        var current = window.hitTest(location, with: nil)
        while let view = current {
            if let scroll = view as? ScrollView, scroll.canZoom { return scroll }
            current = view.superview
        }
        return nil
    }
}
