// One mark on the canvas: a straight line (the book's), a freehand stroke (the draw board's) or
// a circle (a challenge of the book), with its colour and width.
//
// A drawing holds up to hundreds of thousands of strokes, so a stroke is kept small: 40 bytes and
// no allocation for a two-point line or circle whose coordinates are exact in single precision
// (every touch is: wl_fixed has 8 fraction bits), in a colour of 8 bits a channel and a width in
// 1/64 pt steps (everything the app draws). Anything else (the points of a freehand stroke, a
// coordinate, colour or width read from a file that is not on those steps) goes to a rarely
// needed `Extra`, so every value still reads back exactly as it was set.
#if canImport(Glibc)
import Glibc
#endif
import Limits
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

    // Stored in this order so that nothing is padded: 16 + 8 + 8 + 4 + 2 + 1 bytes.
    /// The two points when there are exactly two, each coordinate exactly a `Float`
    /// (`extra?.points` is nil); otherwise zero.
    private var x0: Float, y0: Float, x1: Float, y1: Float
    public var id: StrokeID
    /// What does not fit the compact fields; nil for nearly every stroke but freehand ones.
    private var extra: Extra?
    /// The colour as 8-bit RGBA when it is exactly such a colour (else `extra.color` holds it).
    private var packedColor: UInt32
    /// The width in 1/64 pt when it is exactly that (else `extra.width` holds it).
    private var packedWidth: UInt16
    public var kind: Kind

    public init(id: StrokeID, kind: Kind = .line, points: [Point], color: Color = .black, width: Double = 10) {
        self.init(id: id, kind: kind, points: StrokePoints(points), color: color, width: width)
    }

    public init(id: StrokeID, kind: Kind = .line, points: StrokePoints, color: Color = .black, width: Double = 10) {
        (x0, y0, x1, y1) = (0, 0, 0, 0)
        self.id = id
        self.extra = nil
        self.packedColor = 0
        self.packedWidth = 0
        self.kind = kind
        self.points = points
        self.color = color
        self.width = width
    }

    /// A straight line, as the book's TouchTracker draws.
    public static func line(_ id: StrokeID, from begin: Point, to end: Point, color: Color = .black,
                            width: Double = 10) -> Stroke {
        Stroke(id: id, kind: .line, points: StrokePoints(begin, end), color: color, width: width)
    }

    /// The points, in drawing order (a line's and a circle's two, a freehand stroke's samples).
    public var points: StrokePoints {
        get { if let array = extra?.points { StrokePoints(array) } else { StrokePoints(start, end) } }
        set { setPoints(newValue) }
        _modify {
            // The points are moved out while they change, so appending to a freehand stroke's
            // array does not copy it.
            var points = takePoints()
            defer { setPoints(points) }
            yield &points
        }
    }

    public var color: Color {
        get { extra?.color ?? Self.unpack(packedColor) }
        set {
            if let packed = Self.pack(newValue) {
                packedColor = packed
                if extra?.color != nil { changeExtra { $0.color = nil } }
            } else {
                packedColor = 0
                changeExtra { $0.color = newValue }
            }
        }
    }

    /// The line width in points.
    public var width: Double {
        get { extra?.width ?? Double(packedWidth) / 64 }
        set {
            if let packed = Self.pack(width: newValue) {
                packedWidth = packed
                if extra?.width != nil { changeExtra { $0.width = nil } }
            } else {
                packedWidth = 0
                changeExtra { $0.width = newValue }
            }
        }
    }

    /// Whether the stroke holds everything in its own 40 bytes (no `extra`).
    var isCompact: Bool { extra == nil }

    private var start: Point { Point(x: Double(x0), y: Double(y0)) }
    private var end: Point { Point(x: Double(x1), y: Double(y1)) }

    /// The two points of a stroke that has exactly two, without going through ``points``: held
    /// inline, or in `extra` when a `Float` cannot hold them (a drawing file's, a moved line's),
    /// which must still be drawn, hit and bounded as the straight line they are.
    var pair: (Point, Point)? {
        guard let array = extra?.points else { return (start, end) }
        return array.count == 2 ? (array[0], array[1]) : nil
    }

    /// `value` as a `Float` when that holds it exactly (the sign of zero included).
    static func narrow(_ value: Double) -> Float? {
        let narrow = Float(value)
        return Double(narrow).bitPattern == value.bitPattern ? narrow : nil
    }

    public static func == (a: Stroke, b: Stroke) -> Bool {
        guard a.id == b.id, a.kind == b.kind else { return false }
        // Compact strokes compare field by field: a packed colour or width is equal exactly when
        // the value is (-0.0, equal to 0.0, is never packed).
        if a.extra == nil, b.extra == nil {
            // Exact Floats compare as the Doubles they hold.
            return a.packedColor == b.packedColor && a.packedWidth == b.packedWidth
                && a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1
        }
        return a.color == b.color && a.width == b.width && a.points == b.points
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
        hasher.combine(points)
    }

    // MARK: Storage

    /// What a compact stroke leaves out. Shared between copies of a stroke and copied before a
    /// change when shared, so strokes stay values.
    private final class Extra: @unchecked Sendable {
        var points: [Point]?
        var color: Color?
        var width: Double?

        init(points: [Point]? = nil, color: Color? = nil, width: Double? = nil) {
            self.points = points
            self.color = color
            self.width = width
        }

        var isEmpty: Bool { points == nil && color == nil && width == nil }
    }

    /// Changes `extra` (made unique or created first), then drops it if it holds nothing.
    private mutating func changeExtra(_ change: (Extra) -> Void) {
        if extra == nil {
            extra = Extra()
        } else if !isKnownUniquelyReferenced(&extra) {
            extra = Extra(points: extra!.points, color: extra!.color, width: extra!.width)
        }
        change(extra!)
        if extra!.isEmpty { extra = nil }
    }

    private mutating func setPoints(_ points: StrokePoints) {
        if let (a, b) = points.pair, let ax = Self.narrow(a.x), let ay = Self.narrow(a.y),
           let bx = Self.narrow(b.x), let by = Self.narrow(b.y) {
            (x0, y0, x1, y1) = (ax, ay, bx, by)
            if extra?.points != nil { changeExtra { $0.points = nil } }
        } else {
            (x0, y0, x1, y1) = (0, 0, 0, 0)
            // A pair a Float cannot hold exactly is kept as an array of two.
            changeExtra { $0.points = points.array ?? Array(points) }
        }
    }

    /// The points, with `extra` no longer holding its array (so the caller's copy is unique).
    private mutating func takePoints() -> StrokePoints {
        guard let array = extra?.points else { return StrokePoints(start, end) }
        changeExtra { $0.points = [] }
        return StrokePoints(array)
    }

    /// 8-bit RGBA, when every component is exactly `n / 255` (the sign of zero included).
    static func pack(_ color: Color) -> UInt32? {
        func byte(_ component: Double) -> UInt32? {
            guard component >= 0, component <= 1 else { return nil }
            let byte = UInt32((component * 255).rounded())
            return (Double(byte) / 255).bitPattern == component.bitPattern ? byte : nil
        }
        guard let r = byte(color.red), let g = byte(color.green), let b = byte(color.blue),
              let a = byte(color.alpha) else { return nil }
        return r << 24 | g << 16 | b << 8 | a
    }

    static func unpack(_ packed: UInt32) -> Color {
        Color(red: Double(packed >> 24) / 255, green: Double(packed >> 16 & 0xFF) / 255,
              blue: Double(packed >> 8 & 0xFF) / 255, alpha: Double(packed & 0xFF) / 255)
    }

    /// The width in 1/64 pt, when it is exactly such a number.
    static func pack(width: Double) -> UInt16? {
        guard width >= 0, width <= Double(UInt16.max) / 64 else { return nil }
        let packed = UInt16((width * 64).rounded())
        return (Double(packed) / 64).bitPattern == width.bitPattern ? packed : nil
    }

    // MARK: Geometry

    /// The area the stroke paints, with room for round caps and antialiasing (for damage).
    public var bounds: Rect {
        let minX, maxX, minY, maxY: Double
        if let (a, b) = pair {
            (minX, maxX, minY, maxY) = (min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y))
        } else {
            guard let points = extra?.points, let first = points.first else { return .zero }
            var box = (first.x, first.x, first.y, first.y)
            for p in points.dropFirst() {
                box = (min(box.0, p.x), max(box.1, p.x), min(box.2, p.y), max(box.3, p.y))
            }
            (minX, maxX, minY, maxY) = box
        }
        let pad = width / 2 + 2
        return Rect(x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad)
    }

    /// What the stroke paints inside `clip` as rectangles along its centre line, pieces of at most
    /// `pieceLength` points, rather than its whole box: a long diagonal line then covers a band, not
    /// a square (damage, and what the raster cache re-makes). A circle: its box. Only what reaches
    /// into `clip` (the canvas, the raster) is cut into pieces, so the work follows the stroke's
    /// points and the clip's area, never the distance the stroke spans; a stroke that would need
    /// more pieces than the clip holds (one crossing it many times) gives its box within the clip.
    public func bands(pieceLength: Double = 48, within clip: Rect) -> [Rect] {
        let pad = width / 2 + 2
        let box = bounds.intersection(clip)
        guard kind != .circle, points.count >= 2 else { return box.isEmpty ? [] : [box] }
        // Segments are cut to the clip widened by the stroke's reach: a piece just outside the
        // clip still paints into it.
        let reach = clip.insetBy(dx: -pad, dy: -pad)
        let cells = min((reach.width / pieceLength + 1) * (reach.height / pieceLength + 1), 1e9)
        let budget = points.count + 4 * Int(cells.isNaN ? 0 : cells)
        var rects: [Rect] = []
        for (a, b) in zip(points, points.dropFirst()) {
            guard let (p0, p1) = Self.clip(a, b, to: reach) else { continue }
            let length = p0.distance(to: p1)
            let pieces = length.isFinite ? max(1, Int((length / pieceLength).rounded(.up))) : 1
            guard rects.count + pieces <= budget else { return box.isEmpty ? [] : [box] }
            for i in 0..<pieces {
                let t0 = Double(i) / Double(pieces), t1 = Double(i + 1) / Double(pieces)
                let p = Point(x: p0.x + (p1.x - p0.x) * t0, y: p0.y + (p1.y - p0.y) * t0)
                let q = Point(x: p0.x + (p1.x - p0.x) * t1, y: p0.y + (p1.y - p0.y) * t1)
                rects.append(Rect(x: min(p.x, q.x) - pad, y: min(p.y, q.y) - pad,
                                  width: abs(p.x - q.x) + 2 * pad, height: abs(p.y - q.y) + 2 * pad))
            }
        }
        return rects
    }

    /// The part of the segment a–b inside `rect` (Liang–Barsky), nil when none of it is; a segment
    /// whose coordinates are not finite is taken as crossing the whole of `rect`.
    static func clip(_ a: Point, _ b: Point, to rect: Rect) -> (Point, Point)? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else {
            return (Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.maxY))
        }
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                if t0 > t1 { return nil }
            }
        }
        return (Point(x: a.x + t0 * dx, y: a.y + t0 * dy), Point(x: a.x + t1 * dx, y: a.y + t1 * dy))
    }

    /// Whether the stroke may paint into `rect`: its bounds meet it and, for a straight line, the
    /// line itself passes near enough (a long diagonal's box meets many rectangles it never
    /// crosses). Never false for a stroke that does paint there.
    public func mayPaint(into rect: Rect) -> Bool { bounds(ifPaintingInto: rect) != nil }

    /// The stroke's bounds where it may paint into `rect` (``mayPaint(into:)``), else nil: one
    /// look at a freehand stroke's points for both.
    func bounds(ifPaintingInto rect: Rect) -> Rect? {
        let box = bounds
        guard box.intersects(rect) else { return nil }
        // A box inside the rectangle holds the segment (most strokes of a band, sorted into its
        // strips by every build).
        guard kind != .circle, !rect.contains(box), let (a, b) = pair else { return box }
        // The segment clipped to the rectangle widened by the stroke's reach.
        let pad = width / 2 + 2
        return Self.clip(a, b, to: rect.insetBy(dx: -pad, dy: -pad)) != nil ? box : nil
    }

    /// The shortest distance from `point` to the stroke's centre line.
    public func distance(to point: Point) -> Double {
        if let (a, b) = pair {
            switch kind {
            // A NaN distance counts as infinitely far, as in the loop below.
            case .line, .freehand: return min(.infinity, Self.distance(from: point, toSegment: a, b))
            case .circle: return Self.distance(from: point, toEllipseIn: Rect(enclosing: a, b))
            }
        }
        guard let points = extra?.points, let first = points.first else { return .infinity }
        if kind == .circle {
            return points.count >= 2 ? Self.distance(from: point, toEllipseIn: Rect(enclosing: first, points[1])) : .infinity
        }
        guard points.count > 1 else { return first.distance(to: point) }
        var best = Double.infinity
        for i in 1..<points.count {
            best = min(best, Self.distance(from: point, toSegment: points[i - 1], points[i]))
        }
        return best
    }

    /// The stroke moved by (dx, dy). A point it would take past the edge of the plane
    /// (±`Limit.coordinate`) stops there, so a moved stroke is one a drawing file can hold.
    public func translated(dx: Double, dy: Double) -> Stroke {
        func moved(_ p: Point) -> Point {
            Point(x: min(max(p.x + dx, -Limit.coordinate), Limit.coordinate),
                  y: min(max(p.y + dy, -Limit.coordinate), Limit.coordinate))
        }
        var copy = self
        if let (a, b) = pair {
            copy.points = StrokePoints(moved(a), moved(b))
        } else {
            copy.points = StrokePoints(points.map(moved))
        }
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

extension Stroke {
    /// How far the stroke runs along its points, in points (a circle's two corners: the diagonal).
    var pathLength: Double {
        let points = self.points
        return zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}

extension Collection where Element == Stroke {
    /// The box the strokes paint in, caps and edges included; nil for none.
    public var paintedBounds: Rect? {
        guard let first else { return nil }
        return dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
    }
}
