// Export: a drawing as a PNG picture or an SVG file, painted exactly as the canvas paints it
// (StrokeRenderer, white background), with no compositor. The picture is made in memory and
// written like a drawing (DrawingFile.writeAtomically: a temporary file created anew, fsync,
// rename), so a reader never sees half a picture and a name planted beside it is never written
// through. A picture holds at most Limit.rasterPixels pixels, whatever the drawing's extent.
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import Limits
import TouchKit

public enum DrawingExporter {
    /// The canvas size the app's window starts with.
    public static let defaultCanvas = Size(width: 1024, height: 768)
    /// The largest picture side, in pixels (Cairo's limit is 32767).
    public static let maxPixels = Double(Limit.rasterSide)
    /// The most pixels in one picture: a drawing that reaches far out is scaled down to fit.
    public static let maxArea = Double(Limit.rasterPixels)

    /// The most pixels of line length in one picture: rasterizing costs about a row per pixel a
    /// line runs, so this bounds the work (a few seconds) where the page alone would not (a file at
    /// the limits, two million points zigzagging across the plane, took over five minutes).
    public static let maxLineLength = Double(Limit.pictureLinePixels)

    /// The page for `strokes`: from (0, 0), or the strokes' top-left extent where they reach
    /// above or left of it (the canvas scrolls anywhere), to whichever is larger, `minimum` or
    /// their bottom-right extent; and the scale that fits it within ``maxPixels`` a side,
    /// ``maxArea`` in all and ``maxLineLength`` of lines (1 unless huge).
    public static func page(for strokes: [Stroke], minimum: Size = defaultCanvas) -> (size: Size, scale: Double, origin: Point) {
        var left = 0.0, top = 0.0, right = minimum.width, bottom = minimum.height
        var length = 0.0
        for stroke in strokes {
            let bounds = stroke.bounds
            // A stroke whose points lie left of or above (0, 0), not one whose cap alone does
            // (drawn at the window's edge before the canvas scrolled).
            let reach = stroke.width / 2 + 2
            if bounds.minX + reach < 0 { left = min(left, bounds.minX.rounded(.down)) }
            if bounds.minY + reach < 0 { top = min(top, bounds.minY.rounded(.down)) }
            right = max(right, bounds.maxX.rounded(.up))
            bottom = max(bottom, bounds.maxY.rounded(.up))
            length += lineLength(of: stroke)
        }
        let width = right - left, height = bottom - top
        let scale = min(1, maxPixels / width, maxPixels / height, (maxArea / (width * height)).squareRoot(),
                        maxLineLength / max(length, 1))
        return (Size(width: max(1, (width * scale).rounded(.up)), height: max(1, (height * scale).rounded(.up))), scale,
                Point(x: left, y: top))
    }

    /// How far a stroke's outline runs, in points: its segments, or a circle's box around.
    static func lineLength(of stroke: Stroke) -> Double {
        let points = stroke.points
        if stroke.kind == .circle, let first = points.first, let last = points.last {
            return 2 * (abs(last.x - first.x) + abs(last.y - first.y))
        }
        return stroke.pathLength
    }

    /// Paints a white page and the strokes in paint order, the drawing's `origin` at its top left.
    static func paint(_ strokes: [Stroke], size: Size, scale: Double, origin: Point = .zero, in context: GraphicsContext) {
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        context.saveGState()
        context.scaleBy(x: scale, y: scale)
        if origin != .zero { context.translateBy(x: -origin.x, y: -origin.y) }
        for stroke in strokes { StrokeRenderer.draw(stroke, in: context) }
        context.restoreGState()
    }

    /// Writes a PNG of the drawing to `path` (readable by others, as pictures are shared).
    public static func writePNG(_ strokes: [Stroke], to path: String, minimum: Size = defaultCanvas) throws {
        try DrawingFile.writeAtomically(png(strokes, minimum: minimum), to: path, newMode: 0o644)
    }

    /// Writes an SVG of the drawing to `path`.
    public static func writeSVG(_ strokes: [Stroke], to path: String, minimum: Size = defaultCanvas) throws {
        try DrawingFile.writeAtomically(svg(strokes, minimum: minimum), to: path, newMode: 0o644)
    }

    /// The drawing as a PNG, on a page of at least `minimum`.
    static func png(_ strokes: [Stroke], minimum: Size) throws -> [UInt8] {
        let (size, scale, origin) = page(for: strokes, minimum: minimum)
        let image = ImageSurface(width: Int(size.width), height: Int(size.height))
        paint(strokes, size: size, scale: scale, origin: origin, in: CairoContext(surface: image))
        return try image.pngData()
    }

    /// The drawing as an SVG document, on a page of at least `minimum`.
    static func svg(_ strokes: [Stroke], minimum: Size) throws -> [UInt8] {
        let (size, scale, origin) = page(for: strokes, minimum: minimum)
        let svg = SVGSurface(width: size.width, height: size.height)
        svg.draw { paint(strokes, size: size, scale: scale, origin: origin, in: $0) }
        try svg.finish()
        return svg.data
    }

    // MARK: Pictures in memory (the clipboard)

    /// Space around the strokes in a picture cropped to them.
    public static let cropMargin = 8.0

    /// `strokes` moved so that their box, with ``cropMargin`` around it, starts at (0, 0), and the
    /// size of that box: a copied line pastes into a chat as a picture of the line, not of the canvas.
    static func cropped(_ strokes: [Stroke]) -> (strokes: [Stroke], size: Size) {
        guard let box = strokes.paintedBounds else { return ([], Size(width: 1, height: 1)) }
        let dx = cropMargin - box.minX, dy = cropMargin - box.minY
        return (strokes.map { $0.translated(dx: dx, dy: dy) },
                Size(width: box.width + 2 * cropMargin, height: box.height + 2 * cropMargin))
    }

    /// A PNG of `strokes`, cropped to them (``cropped(_:)``).
    public static func croppedPNG(_ strokes: [Stroke]) throws -> [UInt8] {
        let (moved, minimum) = cropped(strokes)
        return try png(moved, minimum: minimum)
    }

    /// An SVG document of `strokes`, cropped to them (``cropped(_:)``).
    public static func croppedSVG(_ strokes: [Stroke]) throws -> [UInt8] {
        let (moved, minimum) = cropped(strokes)
        return try svg(moved, minimum: minimum)
    }
}
