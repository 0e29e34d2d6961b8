// Painting one finished or live stroke through TouchKit's GraphicsContext: the canvas, its line
// cache, exports and the renderer tests all draw strokes here, so they look the same everywhere.
import TouchKit

/// How each kind of stroke is painted: round caps and joins, its colour (as `ink` shows it: on
/// screen in the window's style, in pictures as it is) and width.
public enum StrokeRenderer {
    public static func draw(_ stroke: Stroke, in context: GraphicsContext, ink: ScreenInk = .trueColors) {
        draw(CollectionOfOne(stroke), in: context, ink: ink)
    }

    /// Draws `strokes` in order: lines as polylines, which the context may draw faster together
    /// than one path each (Cairo writes straight ones as rows of pixels); circles through the path.
    public static func draw<S: Sequence<Stroke>>(_ strokes: S, in context: GraphicsContext, ink: ScreenInk = .trueColors) {
        var lines: [Polyline] = []
        for stroke in strokes {
            if stroke.kind == .circle {
                context.stroke(lines)
                lines.removeAll(keepingCapacity: true)
                drawCircle(stroke, in: context, ink: ink)
            } else {
                lines.append(polyline(stroke, ink: ink))
            }
        }
        context.stroke(lines)
    }

    /// A line or freehand stroke as a polyline: a line's two ends without going through its points.
    static func polyline(_ stroke: Stroke, ink: ScreenInk = .trueColors) -> Polyline {
        Polyline(points: stroke.pair.map { [$0.0, $0.1] } ?? Array(stroke.points), width: stroke.width,
                 color: ink.color(stroke.color))
    }

    /// ``polyline(_:ink:)`` written into `line`, a line's two ends into the memory its points
    /// already have: a build looks at every line of a drawing, and an array each was a heap block
    /// made and freed per line.
    static func polyline(_ stroke: Stroke, ink: ScreenInk, into line: inout Polyline) {
        if let (a, b) = stroke.pair {
            if line.points.count == 2 {
                (line.points[0], line.points[1]) = (a, b)
            } else {
                line.points.removeAll(keepingCapacity: true)
                line.points.append(a)
                line.points.append(b)
            }
        } else {
            line.points = Array(stroke.points)
        }
        line.width = stroke.width
        line.color = ink.color(stroke.color)
    }

    /// A circle through Cairo's path: in the box of its two points.
    private static func drawCircle(_ stroke: Stroke, in context: GraphicsContext, ink: ScreenInk) {
        let points = stroke.points
        context.setStrokeColor(ink.color(stroke.color))
        context.setLineWidth(stroke.width)
        context.setLineCap(.round)
        context.setLineJoin(.round)
        guard points.count >= 2 else { return }
        context.addEllipse(in: Rect(enclosing: points[0], points[1]))
        context.strokePath()
    }
}
