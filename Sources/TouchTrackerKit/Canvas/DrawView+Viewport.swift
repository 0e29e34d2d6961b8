// The canvas's side of its viewport (CanvasViewport.swift): points and rectangles between the
// canvas and the drawing, what a stroke marks dirty where it shows, and the raster of an older zoom
// shown scaled while the line cache draws the new one.
import TouchKit

extension DrawView {
    /// The drawing's point shown at the canvas's point `p` (a touch's location).
    public func drawingPoint(_ p: Point) -> Point { shown.drawingPoint(p) }
    /// The canvas's point that shows the drawing's point `p`.
    public func canvasPoint(_ p: Point) -> Point { shown.canvasPoint(p) }
    /// The canvas's rectangle that shows the drawing's rectangle `r`.
    public func canvasRect(_ r: Rect) -> Rect { shown.canvasRect(r) }
    /// A distance travelled on the canvas, in the drawing (a drag's translation).
    func drawingDistance(_ d: Point) -> Point { shown.drawingDistance(d) }
    /// The part of the drawing the canvas shows.
    public var visibleDrawingRect: Rect { shown.drawingRect(bounds) }

    /// Marks the canvas's part that shows the drawing's rectangle `r`.
    func setNeedsDisplay(drawingRect r: Rect) {
        let rect = shown.canvasRect(r).intersection(bounds)
        if !rect.isEmpty { setNeedsDisplay(rect) }
    }

    /// Marks what `stroke` paints as a few rectangles along it rather than its whole box: a long
    /// diagonal line then repaints a band, not a square. Only what lies on the canvas is marked.
    func setNeedsDisplay(along stroke: Stroke) {
        setNeedsDisplay(shown.canvasStroke(stroke).bands(within: bounds))
    }

    /// The bands of a line before and after it moved: a band and its moved self are marked as one
    /// rectangle where their union is hardly larger (a line turning about where it landed moves
    /// little near that end), which halves the dirty region's work for a moving line.
    func setNeedsDisplay(along old: Stroke, and new: Stroke) {
        let before = shown.canvasStroke(old).bands(within: bounds), after = shown.canvasStroke(new).bands(within: bounds)
        var rects: [Rect] = []
        rects.reserveCapacity(max(before.count, after.count) + 1)
        for i in 0..<max(before.count, after.count) {
            guard i < before.count else { rects.append(after[i]); continue }
            guard i < after.count else { rects.append(before[i]); continue }
            let (a, b) = (before[i], after[i])
            let union = a.union(b), overlap = a.intersection(b)
            let covered = a.width * a.height + b.width * b.height - overlap.width * overlap.height
            if !overlap.isEmpty, union.width * union.height <= covered * 1.25 {
                rects.append(union)
            } else {
                rects.append(a)
                rects.append(b)
            }
        }
        setNeedsDisplay(rects)
    }

    /// A raster of another zoom (an older one while the new one is drawn, or the one a zoom under
    /// way ends at), scaled to the zoom shown: where it does not reach, `beyond` (another such
    /// raster) or paper.
    func drawStale(_ stale: Bitmap, madeThrough was: CanvasViewport, in rect: Rect, context: GraphicsContext,
                   beyond: (image: Bitmap, viewport: CanvasViewport)? = nil) {
        let ratio = shown.zoom / was.zoom
        let place = shown.canvasPoint(was.origin)
        let extent = Rect(x: 0, y: 0, width: Double(stale.pixelWidth) / stale.scale, height: Double(stale.pixelHeight) / stale.scale)
        let covered = Rect(x: place.x, y: place.y, width: extent.width * ratio, height: extent.height * ratio).intersection(rect)
        // The raster on the whole points it covers, paper (or `beyond`) on the rest: a pass of
        // paper under it all would cost a pinch's frame a few milliseconds at 4K, and a copy
        // reaching into a point it covers in part would leave that point part transparent (the
        // copy replaces what is there, and past the raster's edge it reads nothing).
        let inner = covered.integralInterior
        context.setFillColor(screenInk.paper)
        for strip in inner.isEmpty ? [rect] : rect.subtracting(inner) {
            if let beyond { drawStale(beyond.image, madeThrough: beyond.viewport, in: strip, context: context) } else { context.fill(strip) }
        }
        guard !inner.isEmpty else { return }
        context.saveGState()
        defer { context.restoreGState() }
        context.concatenate(AffineTransform(a: ratio, b: 0, c: 0, d: ratio, tx: place.x, ty: place.y))
        context.copyStandIn(stale, clippedTo: Rect(x: (inner.minX - place.x) / ratio, y: (inner.minY - place.y) / ratio,
                                             width: inner.width / ratio, height: inner.height / ratio).intersection(extent))
    }
}
