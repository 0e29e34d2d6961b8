// The drawing's data: straight lines from where a finger landed to where it lifted.
import TouchKit

/// A straight line segment on the canvas, in the canvas view's coordinates.
public struct Line: Hashable, Sendable {
    public var begin: Point
    public var end: Point

    public init(begin: Point, end: Point) {
        self.begin = begin
        self.end = end
    }

    /// The area the line covers when stroked `width` wide with round caps (for damage).
    public func bounds(strokeWidth width: Double) -> Rect {
        let pad = width / 2 + 1
        return Rect(x: min(begin.x, end.x) - pad, y: min(begin.y, end.y) - pad,
                    width: abs(end.x - begin.x) + 2 * pad, height: abs(end.y - begin.y) + 2 * pad)
    }
}
