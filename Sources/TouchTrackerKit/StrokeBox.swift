// Each stroke's painted box in single precision, kept by the drawing beside its strokes in paint
// order. A whole build of the line cache sorts every stroke into the strips of rows it reaches,
// once for each band of the raster and again at every step of a pinch; worked out from the stroke
// (a copy of it with its reference counting, its points, its width) that sorting was over a third
// of a pinch's CPU on 100,000 lines. Read from 16 bytes in a row it is a few comparisons.
import TouchKit

/// A stroke's ``Stroke/bounds``, rounded outwards to `Float`s so that it holds the exact box: a
/// box that misses a rectangle answers for the stroke, and only one across a corner of it needs
/// the stroke itself.
struct StrokeBox: Sendable, Equatable {
    let minX: Float, minY: Float, maxX: Float, maxY: Float

    init(_ stroke: Stroke) {
        let box = stroke.bounds
        // An empty box (a stroke without points) matches nothing and contains nothing here, so
        // it is always asked of the stroke.
        guard !box.isEmpty else {
            (minX, minY, maxX, maxY) = (.nan, .nan, .nan, .nan)
            return
        }
        (minX, minY) = (Self.down(box.minX), Self.down(box.minY))
        (maxX, maxY) = (Self.up(box.maxX), Self.up(box.maxY))
    }

    /// The greatest `Float` at most `value` (NaN stays NaN, and infinities stay).
    static func down(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) > value ? f.nextDown : f
    }

    /// The least `Float` at least `value`.
    static func up(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) < value ? f.nextUp : f
    }

    /// Whether the stroke may paint into `rect`, from the box alone where it can tell: no when
    /// the box shares no area with it; yes when the box lies within it, or crosses only its
    /// top and bottom or only its sides (a line, a path or a circle passes through every row and
    /// column of its box, so it comes inside); nil when the box crosses a corner of it (or holds
    /// no numbers), which only the stroke can tell.
    @inline(__always)
    func mayPaint(into rect: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool? {
        let (x0, y0, x1, y1) = (Double(minX), Double(minY), Double(maxX), Double(maxY))
        if x1 <= rect.minX || x0 >= rect.maxX || y1 <= rect.minY || y0 >= rect.maxY { return false }
        guard rect.maxX > rect.minX, rect.maxY > rect.minY else { return nil }
        if x0 >= rect.minX, x1 <= rect.maxX { return true }
        if y0 >= rect.minY, y1 <= rect.maxY { return true }
        return nil
    }
}
