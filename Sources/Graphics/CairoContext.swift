// Cairo behind TouchKit's drawing interface, so views draw without knowing Cairo.
import CCairo
import TouchKit

/// A Cairo drawing context that implements TouchKit's `GraphicsContext`.
public final class CairoContext: GraphicsContext {
    /// The underlying `cairo_t`, for code in this module that needs more than the protocol offers.
    let cairo: OpaquePointer
    private var fill = Color.black
    private var stroke = Color.black
    /// The views whose sketches the window's painter draws itself into this context's target.
    var sketchedViews: Set<ObjectIdentifier> = []

    public func omitsSketch(of view: View) -> Bool { sketchedViews.contains(ObjectIdentifier(view)) }

    /// Draws into `surface` (the context keeps its own reference).
    public convenience init(surface: ImageSurface) {
        self.init(cairoSurface: surface.surface)
    }

    /// Draws into any Cairo surface (image, SVG).
    init(cairoSurface: OpaquePointer) {
        cairo = cairo_create(cairoSurface)
        cairo_set_line_width(cairo, 1)
        // Round caps and joins flattened to within a quarter pixel instead of Cairo's tenth: no
        // visible difference, and about a quarter less time per stroke.
        cairo_set_tolerance(cairo, 0.25)
    }

    deinit { cairo_destroy(cairo) }

    public func saveGState() { cairo_save(cairo) }
    public func restoreGState() { cairo_restore(cairo) }
    public func translateBy(x: Double, y: Double) { cairo_translate(cairo, x, y) }
    /// Scales user space, e.g. by the buffer scale on a HiDPI output.
    public func scaleBy(x: Double, y: Double) { cairo_scale(cairo, x, y) }

    /// Device pixels per point in the current transformation (the buffer scale, for caches that
    /// want to match it).
    public var deviceScale: Double {
        var dx = 1.0, dy = 0.0
        cairo_user_to_device_distance(cairo, &dx, &dy)
        return max((dx * dx + dy * dy).squareRoot(), 1)
    }

    public func clip(to rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cairo)
    }

    /// Clips to the union of `rects`: one pass then paints a region of several rectangles, and
    /// what overlaps several of them is drawn once.
    public func clip(toUnionOf rects: [Rect]) {
        cairo_new_path(cairo)
        for rect in rects { cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height) }
        cairo_clip(cairo)
    }

    public func setFillColor(_ color: Color) { fill = color }
    public func setStrokeColor(_ color: Color) { stroke = color }

    public func fill(_ rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        apply(fill)
        cairo_fill(cairo)
    }

    public func setLineWidth(_ width: Double) { cairo_set_line_width(cairo, width) }

    public func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_SQUARE)
        }
    }

    public func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    public var antialiasing: Antialiasing {
        switch cairo_get_antialias(cairo) {
        case CAIRO_ANTIALIAS_NONE: .draft
        case CAIRO_ANTIALIAS_FAST: .fast
        default: .smooth
        }
    }

    public func setAntialiasing(_ antialiasing: Antialiasing) {
        switch antialiasing {
        case .smooth: cairo_set_antialias(cairo, CAIRO_ANTIALIAS_DEFAULT)
        // A 4x4 sample grid instead of Cairo's 256x15: ten live lines paint in about a sixth less
        // time (cold caches, as at 60 Hz).
        case .fast: cairo_set_antialias(cairo, CAIRO_ANTIALIAS_FAST)
        // Cairo's mono scan converter: about a quarter of the instructions of the 4x4 grid on a
        // long 10-point line (its cost is per pixel row crossed, about a thousand instructions).
        case .draft: cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        }
    }

    public func move(to point: Point) { cairo_move_to(cairo, point.x, point.y) }
    public func addLine(to point: Point) { cairo_line_to(cairo, point.x, point.y) }

    public func addEllipse(in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX, rect.midY)
        cairo_scale(cairo, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cairo)
    }

    public func strokePath() {
        apply(stroke)
        cairo_stroke(cairo)
    }

    public func fillPath() {
        apply(fill)
        cairo_fill(cairo)
    }

    /// Draws `image` with its top-left corner at `origin`, blended over what is there, limited to
    /// `rect` when given: Cairo's own painting, which ``copy(_:clippedTo:)`` matches.
    public func draw(_ image: ImageSurface, at origin: Point = .zero, clippedTo rect: Rect? = nil) {
        cairo_save(cairo)
        if let rect { clip(to: rect) }
        cairo_set_source_surface(cairo, image.surface, origin.x, origin.y)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// Copies `bitmap` (at the origin) over whatever is there, without blending: as rows of
    /// memory where its pixels fall on whole pixels of an image target, else through Cairo.
    public func copy(_ bitmap: Bitmap, clippedTo rect: Rect) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        clip(to: rect)
        _ = bitmap.withPixels { pixels in
            if copyRows(of: pixels, scale: bitmap.scale) { return }
            // Cairo only reads a source surface; it wants a mutable pointer all the same.
            let source = cairo_image_surface_create_for_data(
                UnsafeMutablePointer(mutating: pixels.base.assumingMemoryBound(to: UInt8.self)), CAIRO_FORMAT_ARGB32,
                Int32(pixels.width), Int32(pixels.height), Int32(pixels.stride))
            defer { cairo_surface_destroy(source) }
            cairo_surface_set_device_scale(source, bitmap.scale, bitmap.scale)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cairo, source, 0, 0)
            cairo_paint(cairo)
        }
    }

    /// The copy above as rows of memory, where the image's pixels fall on whole pixels of an
    /// image target and the clip is whole pixel boxes (a frame's region is): a frame clips to
    /// tens of boxes, and a Cairo paint costs more per box in setting up than in copying. False,
    /// having drawn nothing, where that does not hold.
    private func copyRows(of image: BitmapPixels, scale: Double) -> Bool {
        let target = cairo_get_group_target(cairo)!
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return false }
        var sx = 0.0, sy = 0.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &ox, &oy)
        guard sx == 1, sy == 1, ox == 0, oy == 0 else { return false }
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        func whole(_ v: Double) -> Int? { abs(v - v.rounded()) < 1e-6 ? Int(v.rounded()) : nil }
        guard m.xy == 0, m.yx == 0, m.xx == scale, m.yy == scale,
              let dx = whole(m.x0), let dy = whole(m.y0),
              let list = cairo_copy_clip_rectangle_list(cairo) else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        // Every box in whole pixels of the target and inside the image (at dx, dy there), checked
        // before anything is copied; else Cairo does it all (it clears what the image does not cover).
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        var boxes: [PixelBox] = []
        for r in UnsafeBufferPointer(start: list.pointee.rectangles, count: Int(list.pointee.num_rectangles)) {
            guard let left = whole(r.x * m.xx + m.x0), let top = whole(r.y * m.yy + m.y0),
                  let right = whole((r.x + r.width) * m.xx + m.x0), let bottom = whole((r.y + r.height) * m.yy + m.y0) else { return false }
            let box = PixelBox(x0: max(left, 0), y0: max(top, 0), x1: min(right, width), y1: min(bottom, height))
            guard box.x0 < box.x1, box.y0 < box.y1 else { continue }
            guard box.x0 >= dx, box.y0 >= dy, box.x1 <= dx + image.width, box.y1 <= dy + image.height else { return false }
            boxes.append(box)
        }
        copyPixelRows(from: image, into: target, boxes, offset: (dx, dy))
        return true
    }

    /// Makes every pixel of `rect` exactly `color`, ignoring what was there (no blending).
    public func replace(_ rect: Rect, with color: Color) {
        cairo_save(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        setFillColor(color)
        fill(rect)
        cairo_restore(cairo)
    }

    private func apply(_ color: Color) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }
}

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
    public func strokePixels(_ lines: [Polyline], smooth: Bool = false) -> Bool {
        guard lines.allSatisfy({ $0.color.alpha >= 1 && (!smooth || $0.points.count <= 2) }) else { return false }
        // Drawn over what is there, into the surface being drawn (a group's, if one is pushed).
        guard cairo_get_operator(cairo) == CAIRO_OPERATOR_OVER, let target = cairo_get_group_target(cairo),
              cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return false }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        var sx = 1.0, sy = 1.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        var ox = 0.0, oy = 0.0
        cairo_surface_get_device_offset(target, &ox, &oy)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == matrix.yy, matrix.xx > 0, sx == sy else { return false }
        let scale = matrix.xx * sx
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        guard let clips = clipBoxes(scale: (sx, sy), offset: (ox, oy), imageHeight: height) else { return false }
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
        for line in lines {
            let pixels = PixelLine(points: line.points.map { p in
                (x: (p.x * matrix.xx + matrix.x0) * sx + ox, y: (p.y * matrix.yy + matrix.y0) * sy + oy)
            }, radius: line.width * scale / 2, pixel: Self.opaquePixel(line.color), smooth: smooth)
            pixels.fill(pixels.runs(limit: image, clip: clips), into: data, stride: stride)
        }
        cairo_surface_mark_dirty(target)
        return true
    }

    /// Opaque lines that rows of pixels can draw as Cairo would (straight ones, or any unsmoothed)
    /// go in as rows (``strokePixels(_:smooth:)``), a run of them at a time so the clip is read
    /// once: a finished line hundreds of pixels long costs its frame, and the line cache's
    /// repairs and builds draw thousands. The rest, and all of them where rows cannot be
    /// written, go through Cairo's path; the order is kept.
    public func stroke(_ lines: [Polyline]) {
        let smooth = antialiasing != .draft
        var run: [Polyline] = []
        func flush() {
            guard !run.isEmpty else { return }
            if !strokePixels(run, smooth: smooth) { for line in run { strokeAsPath(line) } }
            run.removeAll(keepingCapacity: true)
        }
        for line in lines {
            if line.color.alpha >= 1, !smooth || line.points.count == 2 {
                run.append(line)
            } else {
                flush()
                strokeAsPath(line)
            }
        }
        flush()
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

    /// ARGB32 of an opaque colour.
    static func opaquePixel(_ color: Color) -> UInt32 {
        func channel(_ c: Double) -> UInt32 { UInt32((min(1, max(0, c)) * 255).rounded()) }
        return 0xFF00_0000 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
    }
}

/// Boxes with, for each pixel row, the range of those that cover it: a frame's clip has up to
/// about a hundred boxes, and a row meets a few.
struct RowBoxes {
    /// Sorted by their top row.
    let boxes: [PixelBox]
    /// Per row: the first box that may cover it and the end of those that may (all before
    /// `end` start at or above the row; those that end above it are skipped as they come).
    private let start: [Int32]
    private let end: [Int32]
    /// The one box, when there is one (a whole image, a view, a tile): no index, and a row is
    /// cut by two comparisons (asking an array for its only box, per row, cost a few percent of
    /// a frame of long live lines).
    private let single: PixelBox?

    init(_ boxes: [PixelBox], height: Int) {
        single = boxes.count == 1 ? boxes[0] : nil
        guard boxes.count > 1 else {
            self.boxes = boxes
            start = []
            end = []
            return
        }
        let sorted = boxes.sorted { ($0.y0, $0.x0) < ($1.y0, $1.x0) }
        self.boxes = sorted
        var start = [Int32](repeating: 0, count: max(height, 0) + 1)
        var end = [Int32](repeating: 0, count: max(height, 0) + 1)
        // Per row, the boxes covering it are a contiguous run only for banded clips (pixman's);
        // in general take from the first box still open to the last that has begun.
        var first = 0, begun = 0
        for y in 0...max(height, 0) {
            while begun < sorted.count, sorted[begun].y0 <= y { begun += 1 }
            while first < begun, sorted[first].y1 <= y, first < sorted.count { first += 1 }
            start[y] = Int32(first)
            end[y] = Int32(max(first, begun))
        }
        self.start = start
        self.end = end
    }

    /// Cuts `span` to the boxes; calls `body` with each piece.
    @inline(__always)
    func cut(_ span: PixelSpan, _ body: (Int, Int) -> Void) {
        if let box = single {
            guard span.y >= box.y0, span.y < box.y1 else { return }
            let x0 = max(span.x0, box.x0), x1 = min(span.x1, box.x1)
            if x0 < x1 { body(x0, x1) }
            return
        }
        for i in band(span.y) {
            let box = boxes[i]
            guard span.y >= box.y0, span.y < box.y1 else { continue }
            let x0 = max(span.x0, box.x0), x1 = min(span.x1, box.x1)
            if x0 < x1 { body(x0, x1) }
        }
    }

    /// The boxes that may cover row `y` (check each box's rows).
    @inline(__always)
    func band(_ y: Int) -> Range<Int> {
        if let box = single { return y >= box.y0 && y < box.y1 ? 0..<1 : 0..<0 }
        guard y >= 0, y < start.count else { return 0..<0 }
        return Int(start[y])..<Int(end[y])
    }
}
