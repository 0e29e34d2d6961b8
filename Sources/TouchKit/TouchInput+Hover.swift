// Hovering (G20): a pointer over the window with no button down, or a pen in proximity but not
// touching. It reaches only the hover recognizers of the view under it and of its ancestors; no
// touch, event or view method is involved, so touch delivery goes on as if nothing hovered.

/// A hover recognizer, held weakly while a device hovers over it.
struct WeakHover {
    weak var recognizer: HoverGestureRecognizer?
}

extension TouchInput {
    /// A pointer or a pen in proximity hovers at `location` (window points) at `time`, touching
    /// nothing: the hover recognizers under it begin or change, those it left end (G20).
    public func hover(_ id: ID, at location: Point, time: Double) {
        recording(.hover(id, location, time: time)) {
            let now = hoverRecognizers(at: location)
            leave(id, keeping: now)
            let attributes = deviceAttributes[id] ?? Touch.Attributes()
            for recognizer in now { recognizer.hoverMoved(id, to: location, attributes: attributes) }
            let following = now.filter { $0.isFollowing(id) }
            hovers[id] = following.isEmpty ? nil : following.map(WeakHover.init)
        }
    }

    /// The hovering device `id` left the window, went out of range or pressed: the hover
    /// recognizers it was over end (G20).
    public func hoverEnded(_ id: ID, time: Double) {
        recording(.hoverEnded(id, time: time)) {
            leave(id, keeping: [])
            hovers[id] = nil
        }
    }

    /// Ends the hover of `id` on the recognizers it was over that are not in `kept`.
    private func leave(_ id: ID, keeping kept: [HoverGestureRecognizer]) {
        for recognizer in (hovers[id] ?? []).compactMap(\.recognizer)
        where !kept.contains(where: { $0 === recognizer }) {
            recognizer.hoverLeft(id)
        }
    }

    /// The hover recognizers of the view under `location` and of its ancestors, nearest first;
    /// none while the application ignores interaction (H6).
    private func hoverRecognizers(at location: Point) -> [HoverGestureRecognizer] {
        guard !application.isIgnoringInteractionEvents,
              let hit = window.hitTest(location, with: nil) else { return [] }
        var found: [HoverGestureRecognizer] = []
        var current: View? = hit
        while let view = current {
            found += view.gestureRecognizers.compactMap { $0 as? HoverGestureRecognizer }.filter(\.isEnabled)
            current = view.superview
        }
        return found
    }
}
