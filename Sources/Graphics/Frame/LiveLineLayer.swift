// The window's painter side of live lines (TouchKit's LiveLines): lines drawn straight into a
// window buffer as rows of pixels (StrokeSpans), each buffer remembering the rows it holds
// (HeldLineRows), so that the next frame in that buffer copies the view's backdrop back along
// exactly those rows before it draws the lines where they are now. No region is built for them
// and nothing is stroked twice: a frame costs the lines' own pixels, where bands along them cost
// several times as many.
import CCairo
import TouchKit

/// A view's placed in an image's pixels, when it can be drawn as rows of pixels: its backdrop at
/// the image's scale and on whole pixels, its clip whole pixels, its lines opaque.
struct LiveLineLayer {
    let view: ObjectIdentifier
    let backdrop: Bitmap
    /// Where the backdrop's pixel (0, 0) lies in the image.
    let offset: (x: Int, y: Int)
    let clip: RowBoxes
    let lines: [PixelLine]

    init?(_ placed: PlacedLiveLines, scale: Double, image: ImageSurface) {
        let backdrop = placed.backdrop
        guard placed.drawable, backdrop.scale == scale,
              placed.lines.allSatisfy({ $0.color.alpha >= 1 && (!placed.smooth || $0.points.count <= 2) }) else { return nil }
        guard let ox = wholePixel(placed.backdropOrigin.x * scale), let oy = wholePixel(placed.backdropOrigin.y * scale) else { return nil }
        var boxes: [PixelBox] = []
        for rect in placed.clip {
            guard let x0 = wholePixel(rect.minX * scale), let y0 = wholePixel(rect.minY * scale),
                  let x1 = wholePixel(rect.maxX * scale), let y1 = wholePixel(rect.maxY * scale) else { return nil }
            // Inside the image and the backdrop: nothing is erased from outside the backdrop.
            let box = PixelBox(x0: max(x0, 0, ox), y0: max(y0, 0, oy),
                               x1: min(x1, image.width, ox + backdrop.pixelWidth), y1: min(y1, image.height, oy + backdrop.pixelHeight))
            if box.x0 < box.x1, box.y0 < box.y1 { boxes.append(box) }
        }
        view = placed.view
        self.backdrop = backdrop
        offset = (ox, oy)
        clip = RowBoxes(boxes, height: image.height)
        lines = placed.lines.map { line in
            PixelLine(points: line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2,
                      pixel: CairoContext.opaquePixel(line.color), smooth: placed.smooth)
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
    /// bytes), and a smooth edge must blend over the backdrop anyway. But not those in `sparing`
    /// (per row, pixels a wide line fills whole next): a line a hundred pixels wide and more.
    func erase(_ lines: [[PixelSpan]], within: RowBoxes? = nil, sparing: [(x0: Int32, x1: Int32)]? = nil, in image: ImageSurface) {
        _ = backdrop.withPixels { erase(lines, within: within, sparing: sparing, in: image, from: $0) }
    }

    private func erase(_ lines: [[PixelSpan]], within: RowBoxes?, sparing: [(x0: Int32, x1: Int32)]?,
                       in image: ImageSurface, from src: BitmapPixels) {
        guard let dst = cairo_image_surface_get_data(image.surface) else { return }
        let dstStride = Int(cairo_image_surface_get_stride(image.surface))
        func copy(_ y: Int, _ x0: Int, _ x1: Int) {
            if let sparing, y < sparing.count {
                let s0 = Int(sparing[y].x0), s1 = Int(sparing[y].x1)
                if s0 < s1, s0 < x1, x0 < s1 {
                    if x0 < s0 { copyRow(y, x0, s0) }
                    if s1 < x1 { copyRow(y, s1, x1) }
                    return
                }
            }
            copyRow(y, x0, x1)
        }
        func copyRow(_ y: Int, _ x0: Int, _ x1: Int) {
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

    /// The rows of pixels the settled lines (``LiveLines/settled``) may have changed in
    /// their backdrops, not cut to the clip (cut as they are copied, to the clip of then).
    static func settledRows(of placed: [PlacedLiveLines], scale: Double, image: ImageSurface) -> HeldLineRows {
        var record = HeldLineRows()
        let limit = PixelBox(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for placed in placed {
            for line in placed.settled {
                var rows: [PixelSpan] = []
                // A pixel wider each way: however the backdrop drew the line, its smoothed edge lies within.
                StrokeSpans.forEach(line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2 + 1,
                                    limit: limit) { rows.append($0) }
                record.add(line: rows, of: placed.view)
            }
        }
        return record
    }

    /// Adds to `record` the rows of pixels the lines cover, not cut to the clip (for a frame
    /// that paints them through the view instead).
    static func addRows(of placed: PlacedLiveLines, scale: Double, image: ImageSurface, to record: inout HeldLineRows) {
        let limit = PixelBox(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for line in placed.lines {
            var rows: [PixelSpan] = []
            // A pixel wider each way: the view's own stroke may smooth or round its edge differently.
            StrokeSpans.forEach(line.points.map { (x: $0.x * scale, y: $0.y * scale) }, radius: line.width * scale / 2 + 1.5,
                                limit: limit) { rows.append($0) }
            record.add(line: rows, of: placed.view)
        }
    }
}

