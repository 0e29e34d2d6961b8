// Scrolling with a mouse wheel or a touchpad (S9): the pointer's scroll goes to the innermost
// scroll view under it that scrolls that way, as the content under the pointer scrolls on every
// desktop. UIKit hands such scrolls to a scroll view's pan recognizer (`allowedScrollTypesMask`);
// TouchKit hands them to the scroll view itself: a wheel has no touches to share, so there is
// nothing for recognizers to arbitrate.

/// What a scroll comes from.
public enum ScrollSource: String, Hashable, Sendable {
    /// A mouse wheel's notches: each moves the content at once, never past its edges.
    case wheel
    /// Fingers on a touchpad: the content follows them as a drag does and, when they lift
    /// (``TouchInput/scrollEnded(time:)``), moves on at their speed.
    case touchpad
}

extension TouchInput {
    /// The pointer at `location` (window points) scrolls by `delta` points at `time`: positive y
    /// shows more of what is below, as Wayland's axis values do (S9).
    public func scroll(by delta: Point, at location: Point, time: Double, source: ScrollSource) {
        recording(.scroll(delta, at: location, time: time, source: source)) {
            guard !application.isIgnoringInteractionEvents, delta != .zero else { return }
            if source == .touchpad, let target = scrollTarget, target.window === window {
                target.scrollByPointer(delta, time: time, source: source)
                return
            }
            guard let target = scrollView(at: location, along: delta) else { return }
            if source == .touchpad { scrollTarget = target }
            target.scrollByPointer(delta, time: time, source: source)
        }
    }

    /// A touchpad's fingers lifted: the scroll view they scrolled moves on at their speed (S9),
    /// or the one they zoomed with Ctrl held ends its zoom (S15).
    public func scrollEnded(time: Double) {
        recording(.scrollEnded(time: time)) {
            if pointerZoom?.byScroll == true { endPointerZoom() }
            scrollTarget?.pointerScrollEnded(time: time)
            scrollTarget = nil
        }
    }

    /// The innermost scroll view under `location` that scrolls along the bigger part of `delta`.
    private func scrollView(at location: Point, along delta: Point) -> ScrollView? {
        let horizontal = abs(delta.x) > abs(delta.y)
        var current = window.hitTest(location, with: nil)
        while let view = current {
            if let scroll = view as? ScrollView, scroll.isScrollEnabled, scroll.scrolls(horizontally: horizontal) {
                return scroll
            }
            current = view.superview
        }
        return nil
    }
}
