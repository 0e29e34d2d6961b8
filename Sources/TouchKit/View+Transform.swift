// A view's coordinates and transform (H8): how a point moves between a view and its superview
// through the view's centre and transform, conversions between any two views, and how the
// window's renderer places a view and decides what to draw of it, since a view that does not clip
// to its bounds shows subviews past them.

extension View {
    // MARK: Coordinate conversion

    /// `point` in this view's coordinates, converted to the coordinates of the root of the
    /// hierarchy (the window's coordinates for a view in a window).
    func convertToRoot(_ point: Point) -> Point {
        var p = point
        var view = self
        while let parent = view.superview {
            p = view.pointInSuperview(p)
            view = parent
        }
        return p
    }

    func convertFromRoot(_ point: Point) -> Point {
        // One walk up while no view on the way is transformed, as is usual: every touch sample's
        // location comes through here, and each step up retains and releases a view.
        var p = point
        var view = self
        while view.transform.isIdentity {
            guard let parent = view.superview else { return p }
            p = Point(x: p.x + view.boundsOrigin.x - view._frame.origin.x,
                      y: p.y + view.boundsOrigin.y - view._frame.origin.y)
            view = parent
        }
        // Transforms do not commute: undo them from the root down.
        view = self
        var chain: [View] = []
        while let parent = view.superview {
            chain.append(view)
            view = parent
        }
        return chain.reversed().reduce(point) { $1.pointFromSuperview($0) }
    }

    /// Converts a point from this view's coordinates to `view`'s; a nil `view` means the window
    /// (the root of this view's hierarchy). Both views are assumed to share that root.
    public func convert(_ point: Point, to view: View?) -> Point {
        let root = convertToRoot(point)
        return view?.convertFromRoot(root) ?? root
    }

    /// Converts a point from `view`'s coordinates (nil: the window's) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let root = view?.convertToRoot(point) ?? point
        return convertFromRoot(root)
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (nil: the window's): where
    /// a transform turns or scales it, the smallest rectangle holding it (H8).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        guard isTransformed || view?.isTransformed == true else {
            return Rect(origin: convert(rect.origin, to: view), size: rect.size)
        }
        return rect.box { convert($0, to: view) }
    }

    /// Converts a rectangle from `view`'s coordinates (nil: the window's) to this view's, as
    /// ``convert(_:to:)``.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        guard isTransformed || view?.isTransformed == true else {
            return Rect(origin: convert(rect.origin, from: view), size: rect.size)
        }
        return rect.box { convert($0, from: view) }
    }

    /// The transform that takes a point relative to the bounds' centre to one relative to the
    /// frame's centre (H8).
    func aboutCenter(_ t: AffineTransform) -> AffineTransform {
        let b = bounds
        return AffineTransform(translationX: -b.midX, y: -b.midY).concatenating(t)
            .concatenating(AffineTransform(translationX: _frame.midX, y: _frame.midY))
    }

    /// The transform from this view's coordinates to its superview's (H8).
    public var transformToSuperview: AffineTransform {
        transform.isIdentity
            ? AffineTransform(translationX: _frame.origin.x - boundsOrigin.x, y: _frame.origin.y - boundsOrigin.y)
            : aboutCenter(transform)
    }

    /// The smallest rectangle holding the transformed view, in its superview's coordinates.
    var transformedFrameBox: Rect { bounds.applying(aboutCenter(transform)) }

    /// `p` in this view's coordinates, in its superview's.
    func pointInSuperview(_ p: Point) -> Point {
        guard !transform.isIdentity else {
            return Point(x: p.x - boundsOrigin.x + _frame.origin.x, y: p.y - boundsOrigin.y + _frame.origin.y)
        }
        return p.applying(aboutCenter(transform))
    }

    /// `p` in the superview's coordinates, in this view's.
    func pointFromSuperview(_ p: Point) -> Point {
        guard !transform.isIdentity else {
            return Point(x: p.x + boundsOrigin.x - _frame.origin.x, y: p.y + boundsOrigin.y - _frame.origin.y)
        }
        return p.applying(aboutCenter(transform).inverted())
    }

    /// Whether this view or one of its ancestors has a transform other than the identity.
    var isTransformed: Bool {
        var view: View? = self
        while let v = view {
            if !v.transform.isIdentity { return true }
            view = v.superview
        }
        return false
    }

    /// Where the view and what it shows of its subviews lie in its superview's coordinates: its
    /// frame, and, when it does not clip to its bounds, its subviews' too (H8).
    var drawingExtent: Rect {
        var extent = frame
        guard !clipsToBounds else { return extent }
        let toSuperview = transformToSuperview
        for sub in subviews where !sub.isHidden && sub.alpha >= 0.01 {
            extent = extent.union(sub.drawingExtent.applying(toSuperview))
        }
        return extent
    }

    /// Whether the view's own drawing needs a clip of its own: its subviews may show past its
    /// bounds, so the clip that keeps them in does not keep its own drawing in.
    var needsOwnContentClip: Bool { !clipsToBounds && !subviews.isEmpty }

    /// Sets `context` up to draw the view within its superview, whose `dirty` area (in the
    /// superview's coordinates) is being drawn: saves the state, moves user space to the view's
    /// coordinates through its centre and transform, and clips to its bounds unless its subviews
    /// may show past them (H8). Returns the dirty area in the view's coordinates, or nil (the
    /// state untouched) when the view shows nothing there.
    func beginDrawing(dirty: Rect, in context: GraphicsContext) -> Rect? {
        // The frame answers for most views without their subviews' reach, which walks the whole
        // subtree (once per level on the way down).
        guard frame.intersects(dirty) || drawingExtent.intersects(dirty) else { return nil }
        context.saveGState()
        let toSuperview = transformToSuperview
        if transform.isIdentity {
            context.translateBy(x: toSuperview.tx, y: toSuperview.ty)
        } else {
            context.concatenate(toSuperview)
        }
        var local = dirty.box { pointFromSuperview($0) }
        if !needsOwnContentClip {
            context.clip(to: bounds)
            local = local.intersection(bounds)
        }
        return local
    }
}
