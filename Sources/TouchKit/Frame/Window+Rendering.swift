// Drawing a window's views into a graphics context: the part of a frame that asks views to draw.

extension Window {
    /// Draws the part of the hierarchy inside `rect` (window coordinates) into `context`: the
    /// window's background and content, then every visible view, back to front (subviews in
    /// order, after their superview). Each view is placed through its centre and transform and
    /// clipped to its bounds, its subviews too unless it lets them show past (``View/clipsToBounds``),
    /// its background is filled, and ``View/draw(_:in:)`` gets the dirty area in the view's own
    /// coordinates. Views outside `rect` are skipped; the
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
        guard !view.isHidden, view.alpha >= 1, view.transform.isIdentity, view.frame.contains(rect) else { return false }
        if view.isOpaque { return true }
        let b = view.bounds
        let local = rect.offsetBy(dx: b.origin.x - view.frame.minX, dy: b.origin.y - view.frame.minY)
        return view.subviews.contains { hides(local, behind: $0) }
    }

    func drawContent(of view: View, dirty: Rect, in context: GraphicsContext) {
        // An opaque subview covering the whole dirty area hides the view and the subviews behind
        // it: they are not drawn at all (a canvas under a moving finger repaints only itself).
        let covering = view.subviews.lastIndex { Self.hides(dirty, behind: $0) }
        if covering == nil {
            // A view whose subviews show past its bounds still draws only inside them (H8).
            let own = view.needsOwnContentClip ? dirty.intersection(view.bounds) : dirty
            if view.needsOwnContentClip {
                context.saveGState()
                context.clip(to: view.bounds)
            }
            if let color = view.backgroundColor, color.alpha * view.alpha > 0, !own.isEmpty {
                context.setFillColor(color.withAlpha(color.alpha * min(1, max(0, view.alpha))))
                context.fill(own)
            }
            if !own.isEmpty { view.draw(own, in: context) }
            if view.needsOwnContentClip { context.restoreGState() }
        }
        for sub in view.subviews[(covering ?? 0)...] {
            guard !sub.isHidden, sub.alpha >= 0.01,
                  // Placed through its centre and transform, clipped as it says (H8).
                  let local = sub.beginDrawing(dirty: dirty, in: context) else { continue }
            if !sub.shouldRasterize || !copyPicture(of: sub, dirty: local, in: context) {
                drawContent(of: sub, dirty: local, in: context)
            }
            context.restoreGState()
        }
    }
}
