// The pixels a round-capped, round-joined polyline covers, row by row. Such a stroke is exactly the
// union of one capsule per segment (a rectangle with a half disc at each end), and a capsule meets
// a row of pixel centres in one interval, found in a few multiplications. Filling or clearing those
// intervals costs a fraction of Cairo's scan converter (about 850 instructions a pixel row per
// line), and no clip region is needed: the overlay clears exactly what a line covered.

/// One pixel row's run: pixels `x0..<x1` of row `y`.
struct PixelSpan: Equatable {
    var y: Int
    var x0: Int
    var x1: Int
}

enum StrokeSpans {
    /// Calls `body` with the runs of pixels whose centres lie within `radius` of the polyline
    /// `points` (pixels), inside `limit`. Segments are visited one at a time, so runs of
    /// neighbouring segments overlap: fine for filling with one colour or clearing. Inlined, so
    /// that `body` is too: a call per row cost more than finding the row's run.
    @inline(__always)
    static func forEach(_ points: [(x: Double, y: Double)], radius: Double, limit: PixelBox,
                        _ body: (PixelSpan) -> Void) {
        guard let first = points.first, radius > 0 else { return }
        if points.count == 1 {
            capsule(first, first, radius: radius, limit: limit, body)
            return
        }
        for i in 1..<points.count {
            capsule(points[i - 1], points[i], radius: radius, limit: limit, body)
        }
    }

    /// The runs of the capsule from `p` to `q`.
    @inline(__always)
    static func capsule(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), radius r: Double,
                        limit: PixelBox, _ body: (PixelSpan) -> Void) {
        let capsule = Capsule(p, q, radius: r, limit: limit)
        guard capsule.top <= capsule.bottom else { return }
        for y in capsule.top...capsule.bottom {
            let (x0, x1) = capsule.span(y)
            if x0 < x1 { body(PixelSpan(y: y, x0: x0, x1: x1)) }
        }
    }

    /// A capsule (the segment from `p` to `q` widened by `r`, round ends) met by rows of pixel
    /// centres, inside `limit`. Per row only multiplications and the square roots of the end
    /// discs: the divisions are made once.
    struct Capsule {
        let p: (x: Double, y: Double), q: (x: Double, y: Double)
        let limit: PixelBox
        /// The rows it may touch, within `limit` (none when `top > bottom`).
        let top: Int, bottom: Int
        private let dx, dy, lengthSquared, rr, r, length: Double
        private let hasBody: Bool
        private let alongSlope, alongEnd, acrossSlope, acrossHalf: Double

        @inline(__always)
        init(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), radius r: Double, limit: PixelBox) {
            (self.p, self.q, self.r, self.limit) = (p, q, r, limit)
            top = max(limit.y0, StrokeSpans.ceiling(min(p.y, q.y) - r - 0.5))
            bottom = min(limit.y1 - 1, StrokeSpans.floor(max(p.y, q.y) + r - 0.5))
            let dx = q.x - p.x, dy = q.y - p.y
            (self.dx, self.dy) = (dx, dy)
            lengthSquared = dx * dx + dy * dy
            length = lengthSquared.squareRoot()
            rr = r * r
            hasBody = length > 1e-9
            // With u = x - p.x and v = y - p.y, the rectangle is u·dx + v·dy in [0, length²] and
            // dx·v - dy·u in [-r·length, r·length]: per row, two intervals of u linear in v.
            alongSlope = abs(dx) > 1e-12 ? -dy / dx : 0
            alongEnd = abs(dx) > 1e-12 ? lengthSquared / dx : 0
            acrossSlope = abs(dy) > 1e-12 ? dx / dy : 0
            acrossHalf = abs(dy) > 1e-12 ? abs(r * length / dy) : 0
        }

        /// Where the body meets the row of centres `v` below `p`: `u` from `a` to `b` right of `p`
        /// (with u = x - p.x, the rectangle's two intervals of `u`, each linear in `v`); `a > b`
        /// where it misses the row (not an optional: the live lines' rows take this per row).
        @inline(__always)
        private func bodyChord(_ v: Double) -> (a: Double, b: Double) {
            var a = -Double.infinity, b = Double.infinity
            if abs(dx) > 1e-12 {
                let u0 = v * alongSlope, u1 = alongEnd + u0
                a = min(u0, u1); b = max(u0, u1)
            } else if v * dy < 0 || v * dy > lengthSquared {
                b = -.infinity
            }
            if abs(dy) > 1e-12 {
                let mid = v * acrossSlope
                a = max(a, mid - acrossHalf); b = min(b, mid + acrossHalf)
            } else if abs(dx * v) > r * length {
                b = -.infinity
            }
            return (a, b)
        }

        /// The pixels `x0..<x1` of row `y` whose centres lie inside, cut to `limit` (none when
        /// `x0 >= x1`).
        @inline(__always)
        func span(_ y: Int) -> (x0: Int, x1: Int) {
            let v = Double(y) + 0.5 - p.y
            var lo = Double.infinity, hi = -Double.infinity
            // The discs at both ends.
            if v * v <= rr {
                let h = (rr - v * v).squareRoot()
                lo = p.x - h
                hi = p.x + h
            }
            let vq = Double(y) + 0.5 - q.y
            if vq * vq <= rr {
                let h = (rr - vq * vq).squareRoot()
                lo = min(lo, q.x - h)
                hi = max(hi, q.x + h)
            }
            if hasBody {
                let (a, b) = bodyChord(v)
                if a <= b {
                    lo = min(lo, p.x + a)
                    hi = max(hi, p.x + b)
                }
            }
            guard lo <= hi else { return (0, 0) }
            // Pixels whose centre x + 0.5 lies in [lo, hi].
            return (max(limit.x0, StrokeSpans.ceiling(lo - 0.5)), min(limit.x1, StrokeSpans.floor(hi - 0.5) + 1))
        }
        /// The columns of pixels whose centres may lie inside in rows `a...b`, cut to `limit`: a
        /// bound found without a square root. The body is a rectangle, so its leftmost and
        /// rightmost points in the rows lie on their first or last row or at its corners; an end's
        /// disc reaches its radius either way of its centre.
        @inline(__always)
        func reach(_ a: Int, _ b: Int) -> (x0: Int, x1: Int) {
            let ya = Double(a) + 0.5, yb = Double(b) + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            if p.y + r >= ya, p.y - r <= yb { lo = p.x - r; hi = p.x + r }
            if q.y + r >= ya, q.y - r <= yb { lo = min(lo, q.x - r); hi = max(hi, q.x + r) }
            if hasBody {
                // The chords at the first and last rows (no array of the two: a call per group).
                let top = bodyChord(ya - p.y), bottom = bodyChord(yb - p.y)
                if top.a <= top.b { lo = min(lo, p.x + top.a); hi = max(hi, p.x + top.b) }
                if bottom.a <= bottom.b { lo = min(lo, p.x + bottom.a); hi = max(hi, p.x + bottom.b) }
                // The corners, r either way across the segment from its ends.
                let nx = -dy / length * r, ny = dx / length * r
                @inline(__always)
                func corner(_ x: Double, _ y: Double) {
                    if y >= ya, y <= yb { lo = min(lo, x); hi = max(hi, x) }
                }
                corner(p.x + nx, p.y + ny)
                corner(p.x - nx, p.y - ny)
                corner(q.x + nx, q.y + ny)
                corner(q.x - nx, q.y - ny)
            }
            guard lo <= hi else { return (0, 0) }
            // A hair wider than the pixels' centres for the rounding of the corners.
            return (max(limit.x0, StrokeSpans.ceiling(lo - 0.5 - 1e-6)), min(limit.x1, StrokeSpans.floor(hi - 0.5 + 1e-6) + 1))
        }
    }

    /// ⌈v⌉ and ⌊v⌋ for pixel coordinates, without a call into libm (the baseline x86-64 target
    /// has no rounding instruction): a few per row of every line.
    @inline(__always)
    static func ceiling(_ v: Double) -> Int {
        let clamped = min(max(v, -1e9), 1e9), t = Int(clamped)
        return Double(t) < clamped ? t + 1 : t
    }

    @inline(__always)
    static func floor(_ v: Double) -> Int {
        let clamped = min(max(v, -1e9), 1e9), t = Int(clamped)
        return Double(t) > clamped ? t - 1 : t
    }
}
