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
    /// neighbouring segments overlap: fine for filling with one colour or clearing.
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
    static func capsule(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), radius r: Double,
                        limit: PixelBox, _ body: (PixelSpan) -> Void) {
        let top = max(limit.y0, Int((min(p.y, q.y) - r - 0.5).rounded(.up)))
        let bottom = min(limit.y1 - 1, Int((max(p.y, q.y) + r - 0.5).rounded(.down)))
        guard top <= bottom else { return }
        let dx = q.x - p.x, dy = q.y - p.y
        let lengthSquared = dx * dx + dy * dy
        let length = lengthSquared.squareRoot()
        let rr = r * r
        for y in top...bottom {
            let cy = Double(y) + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            // The discs at both ends.
            let vp = cy - p.y, vq = cy - q.y
            if vp * vp <= rr {
                let h = (rr - vp * vp).squareRoot()
                lo = p.x - h
                hi = p.x + h
            }
            if vq * vq <= rr {
                let h = (rr - vq * vq).squareRoot()
                lo = min(lo, q.x - h)
                hi = max(hi, q.x + h)
            }
            // The rectangle between them: along the segment 0...length², across it within r.
            if length > 1e-9 {
                let v = cy - p.y
                var a = -Double.infinity, b = Double.infinity
                // u·dx + v·dy in [0, length²], u = x - p.x.
                if abs(dx) > 1e-12 {
                    let u0 = -v * dy / dx, u1 = (lengthSquared - v * dy) / dx
                    a = max(a, min(u0, u1)); b = min(b, max(u0, u1))
                } else if v * dy < 0 || v * dy > lengthSquared {
                    b = -.infinity
                }
                // dx·v - dy·u in [-r·length, r·length].
                if abs(dy) > 1e-12 {
                    let u0 = (dx * v - r * length) / dy, u1 = (dx * v + r * length) / dy
                    a = max(a, min(u0, u1)); b = min(b, max(u0, u1))
                } else if abs(dx * v) > r * length {
                    b = -.infinity
                }
                if a <= b {
                    lo = min(lo, p.x + a)
                    hi = max(hi, p.x + b)
                }
            }
            guard lo <= hi else { continue }
            // Pixels whose centre x + 0.5 lies in [lo, hi].
            let x0 = max(limit.x0, Int((lo - 0.5).rounded(.up)))
            let x1 = min(limit.x1, Int((hi - 0.5).rounded(.down)) + 1)
            if x0 < x1 { body(PixelSpan(y: y, x0: x0, x1: x1)) }
        }
    }
}
