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

    /// The raster of an older zoom, scaled to the new one, while the new one is drawn: paper
    /// where it does not reach.
    func drawStale(_ stale: Bitmap, madeThrough was: CanvasViewport, in rect: Rect, context: GraphicsContext) {
        let ratio = shown.zoom / was.zoom
        let place = shown.canvasPoint(was.origin)
        let extent = Rect(x: 0, y: 0, width: Double(stale.pixelWidth) / stale.scale, height: Double(stale.pixelHeight) / stale.scale)
        let covered = Rect(x: place.x, y: place.y, width: extent.width * ratio, height: extent.height * ratio).intersection(rect)
        // Paper only where the older raster does not cover whole points (at 4K a pass over the
        // window's pixels costs a few milliseconds of a pinch's frame): its edge blends with it.
        let inner = covered.integralInterior
        context.setFillColor(screenInk.paper)
        for strip in inner.isEmpty ? [rect] : rect.subtracting(inner) { context.fill(strip) }
        guard !covered.isEmpty else { return }
        context.saveGState()
        defer { context.restoreGState() }
        context.concatenate(AffineTransform(a: ratio, b: 0, c: 0, d: ratio, tx: place.x, ty: place.y))
        context.copyStandIn(stale, clippedTo: Rect(x: (covered.minX - place.x) / ratio, y: (covered.minY - place.y) / ratio,
                                             width: covered.width / ratio, height: covered.height / ratio).intersection(extent))
    }
}
