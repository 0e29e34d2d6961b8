// Pictures of views that rasterize (View.shouldRasterize): the window draws such a view and its
// subviews once into a picture at the device's scale and copies it while nothing in them is
// marked to redraw. Marking a view to redraw drops the pictures of it and of every view it lies
// in; hiding, showing or fading a view drops only those it lies in (its own still shows it).

/// A view's picture and what it was made for.
struct ViewPicture {
    let bitmap: Bitmap
    let scale: Double
    let size: Size
}

extension View {
    /// The window, found walking up from `start`; nil where a view on the way is hidden (nothing
    /// in it shows, so nothing is marked: H1). On the way, every picture is dropped: what is
    /// marked to redraw changes what they show (a hidden view's picture is drawn anew once shown).
    func windowDroppingPictures(from start: View?) -> Window? {
        var view = start, hidden = false
        while let v = view {
            if v.picture != nil { v.picture = nil }
            if v.isHidden { hidden = true }
            if let window = v as? Window { return hidden ? nil : window }
            view = v.superview
        }
        return nil
    }

    /// Marks the view's area to redraw after it was hidden, shown or faded: its own picture
    /// still holds, those of the views it lies in do not.
    func markShownChanged() {
        guard let window = windowDroppingPictures(from: superview) ?? (self as? Window) else { return }
        window.setNeedsDisplay(inWindowRect: convert(bounds, to: nil))
    }
}

extension Window {
    /// Shows `view` (`context` in its coordinates, clipped to its bounds) from its picture, made
    /// now when it has none for this scale and size. False, having drawn nothing, where a copy
    /// would not be what drawing gives.
    func copyPicture(of view: View, dirty: Rect, in context: GraphicsContext) -> Bool {
        guard view.clipsToBounds, view.alpha >= 1, let background = view.backgroundColor, background.alpha >= 1 else { return false }
        let bounds = view.bounds
        context.saveGState()
        defer { context.restoreGState() }
        context.translateBy(x: bounds.minX, y: bounds.minY)
        let scale = context.deviceScale
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-6 }
        // Edges within a pixel would be blended over what is behind them when drawn.
        guard context.isPixelAligned, whole(bounds.width * scale), whole(bounds.height * scale) else { return false }
        let kept = view.picture.flatMap { $0.scale == scale && $0.size == bounds.size ? $0 : nil }
        guard let picture = kept ?? makePicture(of: view, scale: scale, in: context) else { return false }
        context.copy(picture.bitmap, clippedTo: dirty.offsetBy(dx: -bounds.minX, dy: -bounds.minY))
        return true
    }

    /// Draws `view` and its subviews into a new picture of its bounds, kept on the view.
    private func makePicture(of view: View, scale: Double, in context: GraphicsContext) -> ViewPicture? {
        let bounds = view.bounds
        guard let bitmap = context.makePicture(size: bounds.size, { picture in
            picture.translateBy(x: -bounds.minX, y: -bounds.minY)
            drawContent(of: view, dirty: bounds, in: picture)
        }) else { return nil }
        view.picture = ViewPicture(bitmap: bitmap, scale: scale, size: bounds.size)
        return view.picture
    }
}
