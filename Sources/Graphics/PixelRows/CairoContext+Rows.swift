// Lines written straight into an image target as rows of pixels, where Cairo's rasterizer would
// cost several times as much: the fast path behind CairoContext.stroke(_:).
import CCairo
import TouchKit

extension CairoContext {
    /// Strokes `lines` as rows of pixels written straight into the image (``StrokeSpans``): a
    /// line without smoothing fills the pixels whose centres lie within half its width of it,
    /// what Cairo's unsmoothed stroke fills give or take a pixel on the very edge; a smooth one
    /// (straight, at most two points) also blends its edge pixels by how much of each it covers,
    /// within a tenth of Cairo's smoothing. Cairo spends about 280 instructions a pixel row on an
    /// unsmoothed stroke and about 850 on a smoothed one, and lines across a big canvas are
    /// hundreds of rows tall.
    ///
    /// Returns false, having drawn nothing, where only Cairo can: a colour not opaque, a smooth
    /// line of more than two points, a target that is not an ARGB32 image, a rotated or unevenly
    /// scaled transformation, or a clip that is not whole pixels.
    public func strokePixels(_ lines: [Polyline], smooth: Bool = false) -> Bool { strokePixels(lines[...], smooth: smooth) }

    /// ``strokePixels(_:smooth:)`` of a part of an array.
    public func strokePixels(_ lines: ArraySlice<Polyline>, smooth: Bool = false) -> Bool {
        guard lines.allSatisfy({ $0.color.alpha >= 1 && (!smooth || $0.points.count <= 2) }) else { return false }
        // Drawn over what is there, into the surface being drawn (a group's, if one is pushed).
        guard cairo_get_operator(cairo) == CAIRO_OPERATOR_OVER, let space = pixelSpace() else { return false }
        let (target, scale, width, height, clips) = (space.target, space.scale, space.width, space.height, space.clip)
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return false }
        let stride = Int(cairo_image_surface_get_stride(target))
        // Rows outside the clip are not even computed: a line across the canvas drawn into one
        // tile of the line cache costs that tile's rows.
        guard let first = clips.boxes.first else { return true }
        let extent = clips.boxes.dropFirst().reduce(first) {
            PixelBox(x0: min($0.x0, $1.x0), y0: min($0.y0, $1.y0), x1: max($0.x1, $1.x1), y1: max($0.y1, $1.y1))
        }
        let image = PixelBox(x0: max(extent.x0, 0), y0: max(extent.y0, 0), x1: min(extent.x1, width), y1: min(extent.y1, height))
        // Each line's pixel coordinates in the same memory (a heap block a line was a tenth of a
        // whole build of 100,000 short lines).
        var points = PixelLine.Points()
        for line in lines {
            let pixels = PixelLine(points: points.mapped(line.points, by: space.map), radius: line.width * scale / 2,
                                   pixel: Self.opaquePixel(line.color), smooth: smooth)
            // One box (a whole image, a band of rows, a tile): drawn as its rows are found.
            if clips.boxes.count == 1 {
                pixels.draw(limit: image, into: data, stride: stride)
            } else {
                pixels.fill(pixels.runs(limit: image, clip: clips), into: data, stride: stride)
            }
        }
        cairo_surface_mark_dirty(target)
        return true
    }

    /// Opaque lines that rows of pixels can draw as Cairo would (straight ones, or any unsmoothed)
    /// go in as rows (``strokePixels(_:smooth:)``), a run of them at a time so the clip is read
    /// once: a finished line hundreds of pixels long costs its frame, and the line cache's
    /// repairs and builds draw thousands. The rest, and all of them where rows cannot be
    /// written, go through Cairo's path; the order is kept.
    public func stroke(_ lines: [Polyline]) { stroke(lines[...]) }

    /// ``stroke(_:)`` of a part of an array: each run of lines drawn as rows is a slice of it,
    /// not a copy.
    public func stroke(_ lines: ArraySlice<Polyline>) {
        let smooth = antialiasing != .draft
        var start = lines.startIndex
        func flush(upTo end: Int) {
            guard start < end else { return }
            if !strokePixels(lines[start..<end], smooth: smooth) { for line in lines[start..<end] { strokeAsPath(line) } }
        }
        for i in lines.indices where !(smooth ? Self.drawsSmoothAsRows(lines[i]) : lines[i].color.alpha >= 1) {
            flush(upTo: i)
            strokeAsPath(lines[i])
            start = i + 1
        }
        flush(upTo: lines.endIndex)
    }

    /// Where user space lands in the ARGB32 image being drawn (a group's, if one is pushed), when
    /// that is one scale and an offset (no rotation, the same scale both ways): the image, a point's
    /// pixel coordinates, the scale, the image's size and the clip in whole pixels; nil otherwise.
    func pixelSpace() -> (target: OpaquePointer, map: PixelMapping, scale: Double, width: Int, height: Int, clip: RowBoxes)? {
        guard let target = cairo_get_group_target(cairo), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        var sx = 1.0, sy = 1.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        var ox = 0.0, oy = 0.0
        cairo_surface_get_device_offset(target, &ox, &oy)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == matrix.yy, matrix.xx > 0, sx == sy else { return nil }
        let height = Int(cairo_image_surface_get_height(target))
        guard let clip = clipBoxes(scale: (sx, sy), offset: (ox, oy), imageHeight: height) else { return nil }
        return (target, PixelMapping(matrix: matrix, scale: (sx, sy), offset: (ox, oy)), matrix.xx * sx,
                Int(cairo_image_surface_get_width(target)), height, clip)
    }

    /// The clip as boxes of whole image pixels, with the boxes covering each row; nil when it is
    /// not whole pixels.
    private func clipBoxes(scale: (x: Double, y: Double), offset: (x: Double, y: Double), imageHeight: Int) -> RowBoxes? {
        // The identity matrix makes Cairo list the clip in device units.
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        let list = cairo_copy_clip_rectangle_list(cairo)
        cairo_restore(cairo)
        guard let list else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
        var boxes: [PixelBox] = []
        for i in 0..<Int(list.pointee.num_rectangles) {
            let r = list.pointee.rectangles[i]
            // Device units to the image's pixels: Cairo multiplies by the device scale, then
            // adds the device offset.
            let edges = (x0: r.x * scale.x + offset.x, y0: r.y * scale.y + offset.y,
                         x1: (r.x + r.width) * scale.x + offset.x, y1: (r.y + r.height) * scale.y + offset.y)
            let box = PixelBox(x0: Int(edges.x0.rounded()), y0: Int(edges.y0.rounded()),
                               x1: Int(edges.x1.rounded()), y1: Int(edges.y1.rounded()))
            guard abs(Double(box.x0) - edges.x0) < 1e-6, abs(Double(box.y0) - edges.y0) < 1e-6,
                  abs(Double(box.x1) - edges.x1) < 1e-6, abs(Double(box.y1) - edges.y1) < 1e-6 else { return nil }
            if box.x0 < box.x1, box.y0 < box.y1 { boxes.append(box) }
        }
        return RowBoxes(boxes, height: imageHeight)
    }

    /// Whether rows of pixels draw `line` smooth as Cairo would: opaque and straight (the rest go
    /// through Cairo's path).
    static func drawsSmoothAsRows(_ line: Polyline) -> Bool { line.color.alpha >= 1 && line.points.count == 2 }

    /// ARGB32 of an opaque colour.
    static func opaquePixel(_ color: Color) -> UInt32 {
        // Half up, without a call into libm: a build asks this for every line in every strip.
        func channel(_ c: Double) -> UInt32 { UInt32(min(1, max(0, c)) * 255 + 0.5) }
        return 0xFF00_0000 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
    }
}

/// User space to an image's pixels as Cairo takes a point there: its matrix (a scale and an
/// offset), then the surface's device scale and offset.
struct PixelMapping {
    private let xx, x0, yy, y0, sx, sy, ox, oy: Double

    init(matrix: cairo_matrix_t, scale: (x: Double, y: Double), offset: (x: Double, y: Double)) {
        (xx, x0, yy, y0) = (matrix.xx, matrix.x0, matrix.yy, matrix.y0)
        (sx, sy, ox, oy) = (scale.x, scale.y, offset.x, offset.y)
    }

    @inline(__always)
    func apply(_ p: Point) -> (x: Double, y: Double) {
        (x: (p.x * xx + x0) * sx + ox, y: (p.y * yy + y0) * sy + oy)
    }
}
