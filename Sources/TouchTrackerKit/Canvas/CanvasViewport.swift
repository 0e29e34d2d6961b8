// Which part of the drawing the canvas shows, and how large: the drawing's point at the canvas's
// top left and the zoom. The drawing keeps its own coordinates whatever is shown (a line's points
// and width are the file's); the canvas maps between them and its own points here, so everything
// that finds, selects or adds lines works in the drawing's coordinates and only what is drawn or
// marked dirty is mapped. The canvas itself stays the size of what is shown: its raster of lines,
// its damage and the window's live lines stay as cheap at 800 % as at 100 %.
import TouchKit

public struct CanvasViewport: Equatable, Sendable {
    /// The drawing's point at the canvas's top left.
    public var origin: Point
    /// Canvas points per drawing point: 2 shows a 10 pt line 20 pt wide.
    public var zoom: Double

    public init(origin: Point = .zero, zoom: Double = 1) {
        self.origin = origin
        self.zoom = zoom
    }

    /// The drawing as it is: its points are the canvas's.
    public static let identity = CanvasViewport()

    public var isIdentity: Bool { self == .identity }

    /// The canvas point that shows the drawing's point `p`.
    public func canvasPoint(_ p: Point) -> Point {
        Point(x: (p.x - origin.x) * zoom, y: (p.y - origin.y) * zoom)
    }

    /// The drawing's point shown at the canvas point `p`.
    public func drawingPoint(_ p: Point) -> Point {
        Point(x: origin.x + p.x / zoom, y: origin.y + p.y / zoom)
    }

    /// The canvas rectangle that shows the drawing's rectangle `r`.
    public func canvasRect(_ r: Rect) -> Rect {
        guard !r.isEmpty else { return .zero }
        return Rect(x: (r.minX - origin.x) * zoom, y: (r.minY - origin.y) * zoom, width: r.width * zoom, height: r.height * zoom)
    }

    /// The drawing's rectangle shown in the canvas rectangle `r`.
    public func drawingRect(_ r: Rect) -> Rect {
        Rect(x: origin.x + r.minX / zoom, y: origin.y + r.minY / zoom, width: r.width / zoom, height: r.height / zoom)
    }

    /// A distance on the canvas as a distance in the drawing (a drag's translation).
    public func drawingDistance(_ d: Point) -> Point { Point(x: d.x / zoom, y: d.y / zoom) }

    /// Drawing space to canvas space, for drawing strokes in their own coordinates.
    public var transform: AffineTransform {
        AffineTransform(a: zoom, b: 0, c: 0, d: zoom, tx: -origin.x * zoom, ty: -origin.y * zoom)
    }

    /// `stroke` as the canvas shows it: its points on the canvas, its width zoomed.
    func canvasStroke(_ stroke: Stroke) -> Stroke {
        guard !isIdentity else { return stroke }
        var shown = stroke
        if let (a, b) = stroke.pair {
            shown.points = StrokePoints(canvasPoint(a), canvasPoint(b))
        } else {
            shown.points = StrokePoints(stroke.points.map(canvasPoint))
        }
        shown.width = stroke.width * zoom
        return shown
    }

    /// The same viewport with its origin on whole device pixels at `scale` (pixels per point):
    /// the raster of lines then moves by whole pixels when the drawing is scrolled, and is
    /// shifted rather than drawn again.
    public func snapped(toPixelsAt scale: Double) -> CanvasViewport {
        let perPoint = zoom * scale
        guard perPoint > 0, perPoint.isFinite else { return self }
        return CanvasViewport(origin: Point(x: (origin.x * perPoint).rounded() / perPoint, y: (origin.y * perPoint).rounded() / perPoint),
                              zoom: zoom)
    }
}

extension Touch {
    /// Where the touch is in the drawing the canvas shows.
    func location(inDrawingOf canvas: DrawView) -> Point { canvas.drawingPoint(location(in: canvas)) }
}
