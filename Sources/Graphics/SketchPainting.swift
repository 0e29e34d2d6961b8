// The window's painter side of sketches (TouchKit's Sketch): lines drawn straight into a window
// buffer as rows of pixels (StrokeSpans), each buffer remembering the rows it holds, so that the
// next frame in that buffer copies the view's backdrop back along exactly those rows before it
// draws the lines where they are now. No region is built for them and nothing is stroked twice:
// a frame costs the lines' own pixels, where bands along them cost several times as many.
import CCairo
import TouchKit

/// The sketch lines an image holds, by view: the rows of pixels each filled (to erase them) and
/// boxes around them, a few per line (the compositor's damage). A line's rows are kept as the
/// array they were made in, not joined into one: joining copied every row again per line.
struct SketchPixels {
    var lines: [ObjectIdentifier: [[PixelSpan]]] = [:]
    var boxes: [ObjectIdentifier: [PixelBox]] = [:]

    var isEmpty: Bool { boxes.values.allSatisfy(\.isEmpty) }
    var allBoxes: [PixelBox] { boxes.values.flatMap { $0 } }

    /// Adds one line's `runs` of `view`, in order of rows.
    mutating func add(line runs: [PixelSpan], of view: ObjectIdentifier) {
        lines[view, default: []].append(runs)
        var box: PixelBox?
        for run in runs {
            if var b = box, b.y0 >> SketchDamage.blockShift == run.y >> SketchDamage.blockShift {
                b.x0 = min(b.x0, run.x0)
                b.x1 = max(b.x1, run.x1)
                b.y0 = min(b.y0, run.y)
                b.y1 = max(b.y1, run.y + 1)
                box = b
            } else {
                if let box { boxes[view, default: []].append(box) }
                box = PixelBox(x0: run.x0, y0: run.y, x1: run.x1, y1: run.y + 1)
            }
        }
        if let box { boxes[view, default: []].append(box) }
    }

    /// Adds what `other` holds of `view`.
    mutating func add(_ other: SketchPixels, of view: ObjectIdentifier) {
        lines[view, default: []] += other.lines[view] ?? []
        boxes[view, default: []] += other.boxes[view] ?? []
    }
}

extension ImageSurface {
    /// Called after this image's pixels were copied whole from `other`: it holds the same
    /// sketch lines.
    public func pixelsCopied(from other: ImageSurface) {
        sketched = other.sketched
    }
}

/// A view's sketch in an image's pixels, when it can be drawn as rows of pixels: its backdrop at
/// the image's scale and on whole pixels, its clip whole pixels, its lines opaque.
struct PixelSketch {
    let view: ObjectIdentifier
    let backdrop: Bitmap
    /// Where the backdrop's pixel (0, 0) lies in the image.
    let offset: (x: Int, y: Int)
    let clip: RowBoxes
    let lines: [PixelLine]

    init?(_ sketch: WindowSketch, scale: Double, image: ImageSurface) {
        let backdrop = sketch.backdrop
        guard sketch.drawable, backdrop.scale == scale,
              sketch.lines.allSatisfy({ $0.color.alpha >= 1 && (!sketch.smooth || $0.points.count <= 2) }) else { return nil }
        func whole(_ v: Double) -> Int? {
            let r = v.rounded()
            return abs(r - v) < 1e-6 ? Int(r) : nil
        }
        guard let ox = whole(sketch.backdropOrigin.x * scale), let oy = whole(sketch.backdropOrigin.y * scale) else { return nil }
        var boxes: [PixelBox] = []
        for rect in sketch.clip {
            guard let x0 = whole(rect.minX * scale), let y0 = whole(rect.minY * scale),
                  let x1 = whole(rect.maxX * scale), let y1 = whole(rect.maxY * scale) else { return nil }
            // Inside the image and the backdrop: nothing is erased from outside the backdrop.
            let box = PixelBox(x0: max(x0, 0, ox), y0: max(y0, 0, oy),
                               x1: min(x1, image.width, ox + backdrop.pixelWidth), y1: min(y1, image.height, oy + backdrop.pixelHeight))
            if box.x0 < box.x1, box.y0 < box.y1 { boxes.append(box) }
        }
        view = sketch.view
        self.backdrop = backdrop
        offset = (ox, oy)
        clip = RowBoxes(boxes, height: image.height)
        lines = sketch.lines.map { line in
            PixelLine(points: line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2,
                      pixel: CairoContext.opaquePixel(line.color), smooth: sketch.smooth)
        }
    }

    /// The lines' runs of pixels cut to the clip, per line.
    func runs(in image: ImageSurface) -> [PixelLine.Runs] {
        let limit = PixelBox(x0: 0, y0: 0, x1: image.width, y1: image.height)
        return lines.map { $0.runs(limit: limit, clip: clip) }
    }

    /// Copies the backdrop back into `image` along the rows of `lines` (cut to the clip), only
    /// inside `within` when given. Pixels the lines cover again are copied too, then filled: leaving
    /// them out costs more in finding them than copying them does (a row's run is a few dozen
    /// bytes), and a smooth edge must blend over the backdrop anyway.
    func erase(_ lines: [[PixelSpan]], within: RowBoxes? = nil, in image: ImageSurface) {
        _ = backdrop.withPixels { erase(lines, within: within, in: image, from: $0) }
    }

    private func erase(_ lines: [[PixelSpan]], within: RowBoxes?, in image: ImageSurface, from src: BitmapPixels) {
        guard let dst = cairo_image_surface_get_data(image.surface) else { return }
        let dstStride = Int(cairo_image_surface_get_stride(image.surface))
        func copy(_ y: Int, _ x0: Int, _ x1: Int) {
            let to = UnsafeMutableRawPointer(dst + y * dstStride + x0 * 4).assumingMemoryBound(to: UInt32.self)
            to.update(from: src.pixels(atRow: y - offset.y, column: x0 - offset.x), count: x1 - x0)
        }
        for line in lines {
            for span in line {
                clip.cut(span) { x0, x1 in
                    guard let within else { return copy(span.y, x0, x1) }
                    for i in within.band(span.y) {
                        let box = within.boxes[i]
                        guard span.y >= box.y0, span.y < box.y1 else { continue }
                        let a = max(x0, box.x0), b = min(x1, box.x1)
                        if a < b { copy(span.y, a, b) }
                    }
                }
            }
        }
    }

    /// Draws the lines (`runs`, in order) into `image`.
    func fill(_ runs: [PixelLine.Runs], in image: ImageSurface) {
        guard let data = cairo_image_surface_get_data(image.surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        for (line, runs) in zip(lines, runs) { line.fill(runs, into: data, stride: stride) }
    }

    /// The rows of pixels the sketches' restored lines (``Sketch/restored``) may have changed in
    /// their backdrops, not cut to the clip (cut as they are copied, to the clip of then).
    static func restoredRows(of sketches: [WindowSketch], scale: Double, image: ImageSurface) -> SketchPixels {
        var record = SketchPixels()
        let limit = PixelBox(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for sketch in sketches {
            for line in sketch.restored {
                var rows: [PixelSpan] = []
                // A pixel wider each way: however the backdrop drew the line, its smoothed edge lies within.
                StrokeSpans.forEach(line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2 + 1,
                                    limit: limit) { rows.append($0) }
                record.add(line: rows, of: sketch.view)
            }
        }
        return record
    }

    /// Adds to `record` the rows of pixels the lines cover, not cut to the clip (for a frame
    /// that paints them through the view instead).
    static func addRows(of sketch: WindowSketch, scale: Double, image: ImageSurface, to record: inout SketchPixels) {
        let limit = PixelBox(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for line in sketch.lines {
            var rows: [PixelSpan] = []
            // A pixel wider each way: the view's own stroke may smooth or round its edge differently.
            StrokeSpans.forEach(line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2 + 1.5,
                                limit: limit) { rows.append($0) }
            record.add(line: rows, of: sketch.view)
        }
    }
}

/// A round-capped, round-joined opaque polyline in an image's pixels, drawn as rows of pixels:
/// the live lines of sketches, and lines stroked through ``CairoContext/strokePixels(_:smooth:)``.
struct PixelLine {
    var points: [(x: Double, y: Double)]
    var radius: Double
    var pixel: UInt32
    /// Edges smoothed (a straight line only: at most two points).
    var smooth: Bool

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
        let p = points[0], q = points.count > 1 ? points[1] : points[0]
        let dx = q.x - p.x, dy = q.y - p.y
        let lengthSquared = dx * dx + dy * dy
        let inverse = lengthSquared > 0 ? 1 / lengthSquared : 0
        let edge = radius + 0.5
        let pixel = self.pixel
        for run in runs.covered {
            let row = UnsafeMutableRawPointer(data + run.y * stride).assumingMemoryBound(to: UInt32.self)
            let i = run.y - runs.innerTop
            let (i0, i1) = i >= 0 && i < runs.inner.count ? (Int(runs.inner[i].x0), Int(runs.inner[i].x1)) : (0, 0)
            let s0 = max(run.x0, i0), s1 = min(run.x1, i1)
            if s0 < s1 { (row + s0).update(repeating: pixel, count: s1 - s0) }
            let cy = Double(run.y) + 0.5 - p.y
            func blend(_ x: Int) {
                let cx = Double(x) + 0.5 - p.x
                let t = min(1, max(0, (cx * dx + cy * dy) * inverse))
                let ex = cx - t * dx, ey = cy - t * dy
                let coverage = edge - (ex * ex + ey * ey).squareRoot()
                guard coverage > 0 else { return }
                guard coverage < 1 else { return row[x] = pixel }
                row[x] = Self.blend(pixel, over: row[x], coverage: UInt32(coverage * 256))
            }
            if s0 < s1 {
                for x in run.x0..<s0 { blend(x) }
                for x in s1..<run.x1 { blend(x) }
            } else {
                for x in run.x0..<run.x1 { blend(x) }
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

enum SketchDamage {
    /// Boxes are kept within blocks of 32 rows: a straight line crosses a block in a narrow box.
    static let blockShift = 5

    /// `boxes` (each within one block of rows) merged where they overlap or nearly meet within
    /// a block, as rectangles (image pixels); blocks are paired up until at most `limit` remain,
    /// so the compositor gets a few boxes however many lines there are. Boxes are put in their
    /// block once and sorted there: sorting all of them again for each coarser block size cost
    /// a few percent of a frame of long lines.
    static func rects(covering boxes: [PixelBox], limit: Int = 128) -> [Rect] {
        guard let bottom = boxes.map(\.y0).max() else { return [] }
        var shift = blockShift
        var blocks = [[PixelBox]](repeating: [], count: max(bottom, 0) >> shift + 1)
        for box in boxes { blocks[max(box.y0, 0) >> shift].append(box) }
        for i in blocks.indices where blocks[i].count > 1 { blocks[i] = merged(blocks[i]) }
        var count = blocks.reduce(0) { $0 + $1.count }
        while count > limit, shift < 12 {
            shift += 1
            blocks = stride(from: 0, to: blocks.count, by: 2).map { i in
                merged(i + 1 < blocks.count ? blocks[i] + blocks[i + 1] : blocks[i])
            }
            count = blocks.reduce(0) { $0 + $1.count }
        }
        return blocks.joined().map { Rect(x: Double($0.x0), y: Double($0.y0), width: Double($0.x1 - $0.x0), height: Double($0.y1 - $0.y0)) }
    }

    /// One block's boxes in order of x, each merged into the one before where they overlap or
    /// nearly meet.
    private static func merged(_ boxes: [PixelBox]) -> [PixelBox] {
        guard boxes.count > 1 else { return boxes }
        var merged: [PixelBox] = []
        merged.reserveCapacity(boxes.count)
        for box in boxes.sorted(by: { $0.x0 < $1.x0 }) {
            if let last = merged.last, box.x0 <= last.x1 + 16 {
                merged[merged.count - 1] = PixelBox(x0: last.x0, y0: min(last.y0, box.y0), x1: max(last.x1, box.x1), y1: max(last.y1, box.y1))
            } else {
                merged.append(box)
            }
        }
        return merged
    }
}
