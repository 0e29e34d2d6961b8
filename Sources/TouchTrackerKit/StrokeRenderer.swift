// Painting one finished or live stroke through TouchKit's GraphicsContext: the canvas, its line
// cache, exports and the renderer tests all draw strokes here, so they look the same everywhere.
import Graphics
import TouchKit

/// How each kind of stroke is painted: round caps and joins, its colour and width.
public enum StrokeRenderer {
    public static func draw(_ stroke: Stroke, in context: GraphicsContext) {
        draw(CollectionOfOne(stroke), in: context)
    }

    /// Draws `strokes` in order. Straight lines into an image go in as rows of pixels, smoothed
    /// as Cairo would within a tenth of a pixel's coverage, at a fraction of Cairo's cost (a
    /// finished line hundreds of pixels long costs its frame, and the line cache's repairs and
    /// builds draw thousands); a run of them in one call, so the clip is read once.
    public static func draw<S: Sequence<Stroke>>(_ strokes: S, in context: GraphicsContext) {
        guard let cairo = context as? CairoContext else {
            for stroke in strokes { drawWithPath(stroke, in: context) }
            return
        }
        let smooth = cairo.smoothsEdges
        var lines: [SketchLine] = []
        var waiting: [Stroke] = []
        func flush() {
            guard !lines.isEmpty else { return }
            if !cairo.strokePixels(lines) { for stroke in waiting { drawWithPath(stroke, in: context) } }
            lines.removeAll(keepingCapacity: true)
            waiting.removeAll(keepingCapacity: true)
        }
        for stroke in strokes {
            if stroke.kind != .circle, stroke.color.alpha >= 1, let (a, b) = stroke.pair {
                lines.append(SketchLine(points: [a, b], width: stroke.width, color: stroke.color, smooth: smooth))
                waiting.append(stroke)
            } else {
                flush()
                drawWithPath(stroke, in: context)
            }
        }
        flush()
    }

    /// Through Cairo's path and stroke.
    private static func drawWithPath(_ stroke: Stroke, in context: GraphicsContext) {
        context.setStrokeColor(stroke.color)
        context.setLineWidth(stroke.width)
        context.setLineCap(.round)
        context.setLineJoin(.round)
        switch stroke.kind {
        case .line, .freehand:
            if let (a, b) = stroke.pair {  // a line: no need to go through its points
                context.move(to: a)
                context.addLine(to: b)
            } else {
                let points = stroke.points
                guard let first = points.first else { return }
                context.move(to: first)
                // A single point still shows as a dot: a zero-length segment with round caps.
                if points.count == 1 { context.addLine(to: first) }
                for point in points.dropFirst() { context.addLine(to: point) }
            }
        case .circle:
            let points = stroke.points
            guard points.count >= 2 else { return }
            context.addEllipse(in: Rect(enclosing: points[0], points[1]))
        }
        context.strokePath()
    }
}
