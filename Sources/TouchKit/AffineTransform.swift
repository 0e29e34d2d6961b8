// A 2D affine transform, as Core Graphics' CGAffineTransform: what View.transform holds (H8).
#if canImport(Glibc)
import Glibc
#endif

/// Maps a point (x, y) to (a·x + c·y + tx, b·x + d·y + ty), as `CGAffineTransform` does.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// Changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Moves by (x, y).
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// Scales by x and y.
    public init(scaleX x: Double, y: Double) { self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    /// Turns by `angle` radians, from +x towards +y (clockwise on the screen, y growing down).
    public init(rotationAngle angle: Double) {
        self.init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    /// This transform, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * other.a + b * other.c, b: a * other.b + b * other.d,
                        c: c * other.a + d * other.c, d: c * other.b + d * other.d,
                        tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Scaling first, then this transform (as `CGAffineTransform.scaledBy`).
    public func scaledBy(x: Double, y: Double) -> AffineTransform { AffineTransform(scaleX: x, y: y).concatenating(self) }
    /// Turning first, then this transform.
    public func rotated(by angle: Double) -> AffineTransform { AffineTransform(rotationAngle: angle).concatenating(self) }
    /// Moving first, then this transform.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// The transform that undoes this one; this one unchanged when it cannot be undone (it
    /// flattens the plane), as `CGAffineTransform.inverted()`.
    public func inverted() -> AffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension Point {
    /// The point moved by `transform`.
    public func applying(_ t: AffineTransform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Rect {
    /// The smallest rectangle holding this one moved by `transform`.
    public func applying(_ t: AffineTransform) -> Rect {
        if t.isIdentity { return self }
        return box { $0.applying(t) }
    }

    /// The smallest rectangle holding this one's corners moved by `map`.
    func box(_ map: (Point) -> Point) -> Rect {
        // No arrays: the renderer asks this for every view it draws.
        let p = map(Point(x: minX, y: minY)), q = map(Point(x: maxX, y: minY))
        let r = map(Point(x: minX, y: maxY)), s = map(Point(x: maxX, y: maxY))
        let x0 = min(p.x, q.x, r.x, s.x), y0 = min(p.y, q.y, r.y, s.y)
        return Rect(x: x0, y: y0, width: max(p.x, q.x, r.x, s.x) - x0, height: max(p.y, q.y, r.y, s.y) - y0)
    }
}
