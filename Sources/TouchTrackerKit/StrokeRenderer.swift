// Painting one finished or live stroke through TouchKit's GraphicsContext: the canvas, its line
// cache, exports and the renderer tests all draw strokes here, so they look the same everywhere.
import TouchKit

/// How each kind of stroke is painted: round caps and joins, its colour and width.
public enum StrokeRenderer {
    public static func draw(_ stroke: Stroke, in context: GraphicsContext) {
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
