// Geometry in points, with the origin at the top-left and y growing downwards, as on Wayland
// surfaces and in UIKit. Plain value types with no scale (the host applies the buffer scale when
// it renders); a view's transform is an AffineTransform (AffineTransform.swift).

/// A location in a two-dimensional coordinate system, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)

    /// The straight-line distance to another point.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// This point moved by the given amounts.
    public func offsetBy(dx: Double, dy: Double) -> Point {
        Point(x: x + dx, y: y + dy)
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height, in points.
/// A direction and length (Core Graphics' `CGVector`).
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    public var dx: Double
    public var dy: Double

    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    public var description: String { "<\(dx), \(dy)>" }
}

public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size with zero width and height.
    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle: an origin and a size.
///
/// As in Core Graphics, the edge accessors (`minX`, `maxY`, `width`...) work on the standardized
/// rectangle, so a negative size is allowed and means "extends to the left/up". A rectangle is
/// empty when its width or height is zero; ``union(_:)`` ignores empty rectangles and
/// ``intersection(_:)`` returns ``zero`` when there is no overlap, so "nothing" has one spelling.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The smallest rectangle containing every point (zero-sized for a single point).
    /// Returns ``zero`` for an empty sequence.
    public init<S: Sequence>(enclosing points: S) where S.Element == Point {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else {
            self = .zero
            return
        }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        while let p = iterator.next() {
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y)
            maxY = Swift.max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The rectangle at the origin with zero size.
    public static let zero = Rect(origin: .zero, size: .zero)

    public var minX: Double { Swift.min(origin.x, origin.x + size.width) }
    public var maxX: Double { Swift.max(origin.x, origin.x + size.width) }
    public var minY: Double { Swift.min(origin.y, origin.y + size.height) }
    public var maxY: Double { Swift.max(origin.y, origin.y + size.height) }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { abs(size.width) }
    public var height: Double { abs(size.height) }

    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }

    /// The same rectangle with a non-negative size.
    public var standardized: Rect { Rect(x: minX, y: minY, width: width, height: height) }

    /// True when the width or height is zero (or not a number).
    public var isEmpty: Bool { !(width > 0) || !(height > 0) }

    /// Whether the point lies inside. Like Core Graphics, the minimum edges are inside and the
    /// maximum edges outside, so adjacent rectangles never both contain a point.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle. An empty `other` is never contained.
    public func contains(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && other.minX >= minX && other.maxX <= maxX
            && other.minY >= minY && other.maxY <= maxY
    }

    /// Whether the two rectangles share an area of more than zero.
    public func intersects(_ other: Rect) -> Bool {
        !intersection(other).isEmpty
    }

    /// The overlapping area, or ``zero`` when the rectangles do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(minX, other.minX)
        let y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX)
        let y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both. Empty rectangles contribute nothing, so a dirty
    /// region can start as ``zero`` and grow.
    public func union(_ other: Rect) -> Rect {
        if other.isEmpty { return isEmpty ? .zero : standardized }
        if isEmpty { return other.standardized }
        let x0 = Swift.min(minX, other.minX)
        let y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX)
        let y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom
    /// (grown for negative values). Returns ``zero`` if it would turn inside out.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        let r = standardized
        let w = r.width - 2 * dx
        let h = r.height - 2 * dy
        guard w >= 0, h >= 0 else { return .zero }
        return Rect(x: r.minX + dx, y: r.minY + dy, width: w, height: h)
    }

    /// The rectangle moved by the given amounts.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    /// The smallest rectangle with integer edges that contains this one (rounded outwards),
    /// which is what pixel damage needs.
    public var integral: Rect {
        if isEmpty { return Rect(origin: origin, size: .zero) }
        let x0 = minX.rounded(.down)
        let y0 = minY.rounded(.down)
        let x1 = maxX.rounded(.up)
        let y1 = maxY.rounded(.up)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle whose edges lie on whole pixels at `scale` pixels a point that
    /// contains this one, in points: at a fractional scale whole points are not whole pixels
    /// (1023 pt at 125 % is pixel 1278.75), and what is drawn or cleared there must be.
    public func integral(scale: Double) -> Rect {
        guard scale > 0, scale.isFinite, scale != 1 else { return integral }
        let pixels = Rect(x: minX * scale, y: minY * scale, width: width * scale, height: height * scale).integral
        return Rect(x: pixels.minX / scale, y: pixels.minY / scale, width: pixels.width / scale, height: pixels.height / scale)
    }

    /// The largest rectangle with integer edges inside this one (rounded inwards): what a
    /// picture placed at fractional points covers whole.
    public var integralInterior: Rect {
        let x0 = minX.rounded(.up), y0 = minY.rounded(.up)
        return Rect(x: x0, y: y0, width: max(0, maxX.rounded(.down) - x0), height: max(0, maxY.rounded(.down) - y0))
    }

    /// This rectangle cut into tiles of at most `side` a side, row by row.
    public func tiles(side: Double) -> [Rect] {
        guard side > 0, !isEmpty else { return isEmpty ? [] : [self] }
        var tiles: [Rect] = []
        var y = minY
        while y < maxY {
            var x = minX
            while x < maxX {
                tiles.append(Rect(x: x, y: y, width: min(side, maxX - x), height: min(side, maxY - y)))
                x += side
            }
            y += side
        }
        return tiles
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

extension Rect {
    /// This rectangle less `other`: up to four rectangles (above, below, left, right of it).
    public func subtracting(_ other: Rect) -> [Rect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return [self] }
        var parts: [Rect] = []
        if cut.minY > minY { parts.append(Rect(x: minX, y: minY, width: width, height: cut.minY - minY)) }
        if cut.maxY < maxY { parts.append(Rect(x: minX, y: cut.maxY, width: width, height: maxY - cut.maxY)) }
        if cut.minX > minX { parts.append(Rect(x: minX, y: cut.minY, width: cut.minX - minX, height: cut.height)) }
        if cut.maxX < maxX { parts.append(Rect(x: cut.maxX, y: cut.minY, width: maxX - cut.maxX, height: cut.height)) }
        return parts
    }
}
