// One mark on the canvas: a straight line (seed 000), a freehand stroke (seed 001's draw board) or
// a circle (the book's challenge), with its colour and width.
#if canImport(Glibc)
import Glibc
#endif
import TouchKit

/// A stable identity for a stroke within a drawing (survives moves, undo and saving).
public struct StrokeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: StrokeID, b: StrokeID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

public struct Stroke: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A straight segment from `points[0]` to `points[1]`.
        case line
        /// A polyline through every sample of the finger.
        case freehand
        /// The ellipse inscribed in the box spanned by `points[0]` and `points[1]`.
        case circle
    }

    public var id: StrokeID
    public var kind: Kind
    public var points: [Point]
    public var color: Color
    public var width: Double

    public init(id: StrokeID, kind: Kind = .line, points: [Point], color: Color = .black, width: Double = 10) {
        self.id = id
        self.kind = kind
        self.points = points
        self.color = color
        self.width = width
    }

    /// A straight line, as seed 000 draws.
    public static func line(_ id: StrokeID, from begin: Point, to end: Point, color: Color = .black,
                            width: Double = 10) -> Stroke {
        Stroke(id: id, kind: .line, points: [begin, end], color: color, width: width)
    }

    /// The area the stroke paints, with room for round caps and antialiasing (for damage).
    public var bounds: Rect {
        guard let first = points.first else { return .zero }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let pad = width / 2 + 2
        return Rect(x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad)
    }

    /// The shortest distance from `point` to the stroke's centre line.
    public func distance(to point: Point) -> Double {
        switch kind {
        case .line, .freehand:
            guard let first = points.first else { return .infinity }
            guard points.count > 1 else { return first.distance(to: point) }
            var best = Double.infinity
            for i in 1..<points.count {
                best = min(best, Self.distance(from: point, toSegment: points[i - 1], points[i]))
            }
            return best
        case .circle:
            guard points.count >= 2 else { return .infinity }
            return Self.distance(from: point, toEllipseIn: Rect(enclosing: points[0], points[1]))
        }
    }

    /// The stroke moved by (dx, dy).
    public func translated(dx: Double, dy: Double) -> Stroke {
        var copy = self
        copy.points = points.map { $0.offsetBy(dx: dx, dy: dy) }
        return copy
    }

    /// Distance from `p` to the segment a–b (to its nearest point, not to the infinite line).
    public static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
    }

    /// Approximate distance from `p` to the outline of the ellipse inscribed in `box` (exact for
    /// circles; within a few percent for moderate eccentricity, enough for a 20 pt hit radius).
    static func distance(from p: Point, toEllipseIn box: Rect) -> Double {
        let rx = box.width / 2, ry = box.height / 2
        guard rx > 0, ry > 0 else {
            return distance(from: p, toSegment: Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.maxY))
        }
        let x = p.x - box.midX, y = p.y - box.midY
        let angle = atan2(y * rx, x * ry)
        let onEllipse = Point(x: box.midX + rx * cos(angle), y: box.midY + ry * sin(angle))
        return p.distance(to: onEllipse)
    }
}

extension Rect {
    /// The rectangle spanned by two corners, in any order.
    init(enclosing a: Point, _ b: Point) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }
}
