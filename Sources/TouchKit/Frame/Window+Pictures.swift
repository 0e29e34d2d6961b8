// Pictures of views that rasterize (View.shouldRasterize): the window draws such a view and its
// subviews once into a picture at the device's scale and copies it while nothing in them is
// marked to redraw. What is marked in a view is marked in the pictures of it and of every view it
// lies in, and drawn again into them, only there, before they are next copied: a label that
// changes at every step of a pinch redraws its own box, not the control's every button. Hiding,
// showing or fading a view marks only the pictures of those it lies in (its own still shows it).

/// A view's picture and what it was made for.
struct ViewPicture {
    let bitmap: Bitmap
    let scale: Double
    let size: Size
    /// What was marked since it was drawn, in the view's coordinates: drawn again into it before
    /// it is next copied.
    var stale: [Rect] = []
    /// Past this many marked rectangles they are drawn again as the one holding them all.
    static let staleRects = 8

    mutating func mark(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        stale.append(rect)
        if stale.count > Self.staleRects { stale = [stale.dropFirst().reduce(stale[0]) { $0.union($1) }] }
    }
}

extension View {
    /// The window, found walking up from `start`; nil where a view on the way is hidden (nothing
    /// in it shows, so nothing is marked: H1). On the way, `rects` (in `start`'s coordinates) are
    /// marked in every picture: what is marked to redraw changes what they show (a hidden view's
    /// picture is brought up to date once shown). They are not cut to the window: a picture
    /// holds all of its view, shown or not.
    func windowMarkingPictures<Rects: Collection<Rect>>(from start: View?, _ rects: Rects) -> Window? {
        var view = start, hidden = false
        while let v = view {
            if v.picture != nil, let start {
                for rect in rects { v.picture?.mark(v === start ? rect : start.convert(rect, to: v)) }
            }
            if v.isHidden { hidden = true }
            if let window = v as? Window { return hidden ? nil : window }
            view = v.superview
        }
        return nil
    }

    /// Marks the view's area to redraw after it was hidden, shown or faded: its own picture
    /// still holds, those of the views it lies in do not.
    func markShownChanged() {
        let shownIn = superview.flatMap { windowMarkingPictures(from: $0, CollectionOfOne(convert(bounds, to: $0))) }
        guard let window = shownIn ?? (self as? Window) else { return }
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
        var kept = view.picture.flatMap { $0.scale == scale && $0.size == bounds.size ? $0 : nil }
        if let picture = kept, !picture.stale.isEmpty {
            kept = redrawStale(of: view, picture: picture, in: context)
        }
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

    /// Draws what was marked in `view`'s picture again into it, each box widened to whole device
    /// pixels, where the view's opaque background is laid first, as when the picture was made;
    /// nil where the context cannot draw into a picture (it is then made anew).
    private func redrawStale(of view: View, picture: ViewPicture, in context: GraphicsContext) -> ViewPicture? {
        let bounds = view.bounds
        let scale = picture.scale
        let whole = Rect(origin: .zero, size: bounds.size)
        let boxes = picture.stale.compactMap { rect -> Rect? in
            let local = rect.offsetBy(dx: -bounds.minX, dy: -bounds.minY).intersection(whole)
            guard !local.isEmpty else { return nil }
            return local.integral(scale: scale).intersection(whole)
        }
        let drawn = context.drawAgain(into: picture.bitmap) { target in
            for box in boxes {
                target.saveGState()
                target.clip(to: box)
                target.translateBy(x: -bounds.minX, y: -bounds.minY)
                drawContent(of: view, dirty: box.offsetBy(dx: bounds.minX, dy: bounds.minY), in: target)
                target.restoreGState()
            }
        }
        guard drawn else { return nil }
        var repaired = picture
        repaired.stale = []
        view.picture = repaired
        return repaired
    }
}
