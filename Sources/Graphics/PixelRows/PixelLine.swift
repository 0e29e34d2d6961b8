// A line as rows of pixels: which pixels it covers in each row, and how its edge pixels blend.
// Live lines and the finished straight lines of the line cache are drawn this way.
import TouchKit

/// A round-capped, round-joined opaque polyline in an image's pixels, drawn as rows of pixels:
/// live lines, and lines stroked through ``CairoContext/strokePixels(_:smooth:)``.
struct PixelLine {
    var points: [(x: Double, y: Double)]
    var radius: Double
    var pixel: UInt32
    /// Edges smoothed (a straight line only: at most two points).
    var smooth: Bool

    /// Lines' points in pixels, one line after another in the same memory: a pile of thousands
    /// of lines made an array each, and allocating them was a twentieth of a whole build.
    struct Points {
        private var storage: [(x: Double, y: Double)] = []

        /// `points` mapped to pixels by `map`, in memory the line made from them may hold until the
        /// next call (then it is no longer shared, and is reused).
        mutating func mapped(_ points: [Point], by map: PixelMapping) -> [(x: Double, y: Double)] {
            // Written over in place when the count is the same (two, nearly always).
            if storage.count == points.count {
                for i in points.indices { storage[i] = map.apply(points[i]) }
            } else {
                storage.removeAll(keepingCapacity: true)
                for point in points { storage.append(map.apply(point)) }
            }
            return storage
        }
    }

    /// One line's pixels in an image, cut to the clip.
    struct Runs {
        /// Every pixel the line touches: what it fills or blends, and what is erased next time.
        var covered: [PixelSpan] = []
        /// A smooth line's whole pixels per row, from `innerTop` on (x1 <= x0: none), not cut.
        var inner: [(x0: Int32, x1: Int32)] = []
        var innerTop = 0
    }

    /// The line's runs of pixels inside `limit`, cut to `clip`. A smooth line touches the pixels
    /// whose centres lie within half a pixel more than its half width, and covers whole those
    /// within half a pixel less (its coverage of a pixel is taken as r + 0.5 - d, clamped, d the
    /// distance of the pixel's centre from the segment: a one-pixel box filter of its edge).
    func runs(limit: PixelBox, clip: RowBoxes) -> Runs {
        var runs = Runs()
        let outer = smooth ? radius + 0.5 : radius
        // A row each, about, for a straight line (more where it is flat: a span per row anyway),
        // counted within `limit`: a line reaching far beyond the image covers only its rows.
        let ys = points.map(\.y)
        let top = max((ys.min() ?? 0) - outer, Double(limit.y0)), bottom = min((ys.max() ?? 0) + outer, Double(limit.y1))
        let rows = top <= bottom ? Int((bottom - top).rounded(.up)) + 2 : 0
        let most = rows * max(points.count - 1, 1)
        if clip.boxes.count <= 1 {
            // At most a run per row per segment: written straight into an array of that size
            // (appending checked the array's room and ownership per row).
            let inClip = clip.boxes.first.map { min(rows, $0.y1 - $0.y0) } ?? 0
            runs.covered = [PixelSpan](unsafeUninitializedCapacity: inClip * max(points.count - 1, 1)) { buffer, count in
                StrokeSpans.forEach(points, radius: outer, limit: limit) { span in
                    clip.cut(span) { x0, x1 in
                        assert(count < buffer.count, "more runs than rows")
                        guard count < buffer.count else { return }
                        (buffer.baseAddress! + count).initialize(to: PixelSpan(y: span.y, x0: x0, x1: x1))
                        count += 1
                    }
                }
            }
        } else {
            runs.covered.reserveCapacity(most)
            StrokeSpans.forEach(points, radius: outer, limit: limit) { span in
                clip.cut(span) { runs.covered.append(PixelSpan(y: span.y, x0: $0, x1: $1)) }
            }
        }
        guard smooth else { return runs }
        runs.inner.reserveCapacity(rows)
        var first = true
        StrokeSpans.forEach(points, radius: radius - 0.5, limit: limit) { span in
            if first { runs.innerTop = span.y; first = false }
            while runs.innerTop + runs.inner.count < span.y { runs.inner.append((0, 0)) }
            runs.inner.append((Int32(span.x0), Int32(span.x1)))
        }
        return runs
    }

    /// Draws `runs` (this line's) into ARGB32 pixels: whole pixels filled, a smooth line's edge
    /// pixels blended over what is there by its coverage.
    func fill(_ runs: Runs, into data: UnsafeMutablePointer<UInt8>, stride: Int) {
        guard smooth else {
            for run in runs.covered {
                UnsafeMutableRawPointer(data + (run.y * stride + run.x0 * 4))
                    .assumingMemoryBound(to: UInt32.self).update(repeating: pixel, count: run.x1 - run.x0)
            }
            return
        }
        let edge = Edge(self)
        for run in runs.covered {
            let i = run.y - runs.innerTop
            let (i0, i1) = i >= 0 && i < runs.inner.count ? (Int(runs.inner[i].x0), Int(runs.inner[i].x1)) : (0, 0)
            edge.fill(row: run.y, run.x0..<run.x1, inner: i0, i1, into: data, stride: stride)
        }
    }

    /// Draws the line into ARGB32 pixels inside `limit` as its rows are found: what
    /// `fill(runs(limit:clip:))` draws for a clip of one box, without two arrays made per line
    /// (the line cache's whole build draws every line of the drawing).
    func draw(limit: PixelBox, into data: UnsafeMutablePointer<UInt8>, stride: Int) {
        guard let first = points.first else { return }
        guard smooth else {
            guard radius > 0 else { return }
            for i in 0..<max(points.count - 1, 1) {
                let capsule = StrokeSpans.Capsule(points[i], points[min(i + 1, points.count - 1)], radius: radius, limit: limit)
                guard capsule.top <= capsule.bottom else { continue }
                for y in capsule.top...capsule.bottom {
                    let (x0, x1) = capsule.span(y)
                    guard x0 < x1 else { continue }
                    UnsafeMutableRawPointer(data + (y * stride + x0 * 4))
                        .assumingMemoryBound(to: UInt32.self).update(repeating: pixel, count: x1 - x0)
                }
            }
            return
        }
        let (outer, inner, hasInner) = capsules(from: first, limit: limit)
        guard outer.top <= outer.bottom else { return }
        let edge = Edge(self)
        for y in outer.top...outer.bottom {
            let (x0, x1) = outer.span(y)
            guard x0 < x1 else { continue }
            let (i0, i1) = hasInner ? inner.span(y) : (0, 0)
            edge.fill(row: y, x0..<x1, inner: i0, i1, into: data, stride: stride)
        }
    }

    /// A smooth line's reach (the pixels it touches) and its whole pixels, as capsules about its
    /// segment from `first`; `hasInner`: it has whole pixels. Not an optional: unwrapping one
    /// copied the capsule every row.
    @inline(__always)
    private func capsules(from first: (x: Double, y: Double), limit: PixelBox)
        -> (outer: StrokeSpans.Capsule, inner: StrokeSpans.Capsule, hasInner: Bool) {
        let last = points.count > 1 ? points[1] : first
        return (StrokeSpans.Capsule(first, last, radius: radius + 0.5, limit: limit),
                StrokeSpans.Capsule(first, last, radius: max(radius - 0.5, 0), limit: limit), radius > 0.5)
    }

    /// Looks at this smooth line as line `index` of `pile`, the next one down: keeps where it
    /// shows, eight rows at a time, and covers its whole pixels (those ``draw(limit:into:stride:)``
    /// writes in its colour).
    func look(in pile: PileCover, index: UInt32) {
        guard let first = points.first else { return pile.looked(index, hiding: 0) }
        let box = pile.box
        let last = points.count > 1 ? points[1] : first
        var hiding = 0
        defer { pile.looked(index, hiding: hiding) }
        let s = PileCover.shift
        // Deep in a pile the whole line is hidden: found by its reach over all its rows and a bit
        // per cell, before a look at each group's. Over all its rows a capsule reaches as far as
        // its end discs do, so that reach is its box, found without making the capsule (most
        // lines of a deep pile go no further); cut by the strip's edge, it may reach less.
        let r = radius + 0.5
        let above = StrokeSpans.ceiling(min(first.y, last.y) - r - 0.5)
        let below = StrokeSpans.floor(max(first.y, last.y) + r - 0.5)
        let top = max(box.y0, above), bottom = min(box.y1 - 1, below)
        guard top <= bottom else { return }
        func hiddenWhole(_ left: Int, _ right: Int) -> Bool {
            guard left < right, pile.cellsCover(rows: top, bottom, left, right) else { return false }
            hiding = (bottom >> s) - (top >> s) + 1
            return true
        }
        if hiddenWhole(max(box.x0, StrokeSpans.ceiling(min(first.x, last.x) - r - 0.5 - 1e-6)),
                       min(box.x1, StrokeSpans.floor(max(first.x, last.x) + r - 0.5 + 1e-6) + 1)) { return }
        let outer = StrokeSpans.Capsule(first, last, radius: r, limit: box)
        if above < top || below > bottom {
            let (left, right) = outer.reach(top, bottom)
            if hiddenWhole(left, right) { return }
        }
        // Its whole pixels, made only for a line that may show.
        let (inner, hasInner) = (StrokeSpans.Capsule(first, last, radius: max(radius - 0.5, 0), limit: box), radius > 0.5)
        var rows = outer.top
        while rows <= outer.bottom {
            let end = min(outer.bottom, (((rows >> s) + 1) << s) - 1)
            defer { rows = end + 1 }
            // A group whose every pixel the line reaches is covered is passed over without its
            // rows' spans (most of a deep pile's).
            let (lo, hi) = outer.reach(rows, end)
            if lo < hi, pile.isCovered(rows: rows, end, lo, hi) {
                hiding += 1
                continue
            }
            var x0 = Int.max, x1 = Int.min
            for y in rows...end {
                let span = outer.span(y)
                guard span.x0 < span.x1 else { continue }
                // A row covered from end to end covers nothing more: its whole pixels lie within.
                guard let open = pile.uncovered(row: y, span.x0, span.x1) else { continue }
                x0 = min(x0, open.first)
                x1 = max(x1, open.last + 1)
                if hasInner {
                    let whole = inner.span(y)
                    pile.cover(row: y, whole.x0, whole.x1)
                }
            }
            if x0 < x1 { pile.show(index, row: rows, x0, x1) } else { hiding += 1 }
        }
    }

    /// ``draw(limit:into:stride:)`` of a smooth line numbered `index` in `pile`, only where it
    /// shows.
    func draw(limit: PixelBox, into data: UnsafeMutablePointer<UInt8>, stride: Int, over pile: PileCover, index: UInt32) {
        guard let first = points.first else { return pile.forEachShowing(of: index) { _ in } }
        let (outer, inner, hasInner) = capsules(from: first, limit: limit)
        let edge = Edge(self)
        let s = PileCover.shift
        pile.forEachShowing(of: index) { showing in
            let top = max(outer.top, Int(showing.row)), bottom = min(outer.bottom, ((Int(showing.row) >> s) + 1) << s - 1)
            guard top <= bottom else { return }
            for y in top...bottom {
                let (x0, x1) = outer.span(y)
                let from = max(x0, Int(showing.x0)), to = min(x1, Int(showing.x1))
                guard from < to else { continue }
                let (i0, i1) = hasInner ? inner.span(y) : (0, 0)
                edge.fill(row: y, from..<to, inner: i0, i1, into: data, stride: stride)
            }
        }
    }

    /// A smooth line's row: its whole pixels filled, the rest of its run blended by coverage.
    /// A pixel's coverage is taken from its centre's distance to the segment: beside the segment
    /// that is the distance to its line, linear along a row (a square root per edge pixel was
    /// the blend's slowest step), and only past the ends the distance to the end point.
    private struct Edge {
        let p: (x: Double, y: Double)
        let dx, dy, inverse, inverseLength, edge: Double
        let pixel: UInt32

        @inline(__always)
        init(_ line: PixelLine) {
            let p = line.points[0], q = line.points.count > 1 ? line.points[1] : line.points[0]
            self.p = p
            (dx, dy) = (q.x - p.x, q.y - p.y)
            let lengthSquared = dx * dx + dy * dy
            inverse = lengthSquared > 0 ? 1 / lengthSquared : 0
            inverseLength = lengthSquared > 0 ? 1 / lengthSquared.squareRoot() : 0
            edge = line.radius + 0.5
            pixel = line.pixel
        }

        /// Row `y`'s run `xs`, of which `i0..<i1` (uncut; none when `i1 <= i0`) is whole pixels.
        @inline(__always)
        func fill(row y: Int, _ xs: Range<Int>, inner i0: Int, _ i1: Int, into data: UnsafeMutablePointer<UInt8>, stride: Int) {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            let s0 = max(xs.lowerBound, i0), s1 = min(xs.upperBound, i1)
            if s0 < s1 { (row + s0).update(repeating: pixel, count: s1 - s0) }
            let cy = Double(y) + 0.5 - p.y
            // Along the row, with cx = x + 0.5 - p.x: the position along the segment (0 at p, 1
            // at q) and the cross product whose size over the length is the distance to its line.
            let along = cy * dy * inverse, acrossBase = -cy * dx
            func blend(_ x: Int) {
                let cx = Double(x) + 0.5 - p.x
                let t = cx * dx * inverse + along
                let distance: Double
                if t > 0, t < 1 {
                    distance = abs(cx * dy + acrossBase) * inverseLength
                } else {
                    let ex = t <= 0 ? cx : cx - dx, ey = t <= 0 ? cy : cy - dy
                    distance = (ex * ex + ey * ey).squareRoot()
                }
                let coverage = edge - distance
                guard coverage > 0 else { return }
                guard coverage < 1 else { return row[x] = pixel }
                row[x] = PixelLine.blend(pixel, over: row[x], coverage: UInt32(coverage * 256))
            }
            if s0 < s1 {
                for x in xs.lowerBound..<s0 { blend(x) }
                for x in s1..<xs.upperBound { blend(x) }
            } else {
                for x in xs { blend(x) }
            }
        }
    }

    /// `source` over `destination` (premultiplied ARGB) at `coverage` in 0...256.
    @inline(__always)
    static func blend(_ source: UInt32, over destination: UInt32, coverage a: UInt32) -> UInt32 {
        let b = 256 - a
        let redBlue = ((source & 0xFF00FF) &* a &+ (destination & 0xFF00FF) &* b) >> 8 & 0xFF00FF
        let alphaGreen = (((source >> 8) & 0xFF00FF) &* a &+ ((destination >> 8) & 0xFF00FF) &* b) & 0xFF00FF00
        return redBlue | alphaGreen
    }

}

