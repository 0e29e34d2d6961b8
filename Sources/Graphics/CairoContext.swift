// Cairo behind TouchKit's drawing interface, so views draw without knowing Cairo.
import CCairo
import TouchKit

/// A Cairo drawing context that implements TouchKit's `GraphicsContext`.
public final class CairoContext: GraphicsContext {
    /// The underlying `cairo_t`, for code in this module that needs more than the protocol offers.
    let cairo: OpaquePointer
    private var fill = Color.black
    private var stroke = Color.black
    /// The views whose live lines the window's painter draws itself into this context's target.
    var viewsWithLiveLines: Set<ObjectIdentifier> = []

    public func omitsLiveLines(of view: View) -> Bool { viewsWithLiveLines.contains(ObjectIdentifier(view)) }

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
    /// Applies `transform` to user space (a view's transform).
    public func concatenate(_ transform: AffineTransform) {
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty)
        cairo_transform(cairo, &matrix)
    }

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
    public func copy(_ bitmap: Bitmap, clippedTo rect: Rect) { copy(bitmap, clippedTo: rect, filter: CAIRO_FILTER_BILINEAR) }

    /// A stand-in's copy takes the nearest pixel: bilinear cost a pinch's frame 8 to 11 ms at
    /// 4K, the nearest pixel 2 to 4.
    public func copyStandIn(_ bitmap: Bitmap, clippedTo rect: Rect) { copy(bitmap, clippedTo: rect, filter: CAIRO_FILTER_FAST) }

    /// Whether a stand-in's scaled copy goes by rows (``copyScaledRows(of:scale:)``) where it can;
    /// tests compare it with Cairo's.
    var copiesScaledRows = true

    private func copy(_ bitmap: Bitmap, clippedTo rect: Rect, filter: cairo_filter_t) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        clip(to: rect)
        _ = bitmap.withPixels { pixels in
            if copyRows(of: pixels, scale: bitmap.scale) { return }
            if filter == CAIRO_FILTER_FAST, copiesScaledRows, copyScaledRows(of: pixels, scale: bitmap.scale) { return }
            // Cairo only reads a source surface; it wants a mutable pointer all the same.
            let source = cairo_image_surface_create_for_data(
                UnsafeMutablePointer(mutating: pixels.base.assumingMemoryBound(to: UInt8.self)), CAIRO_FORMAT_ARGB32,
                Int32(pixels.width), Int32(pixels.height), Int32(pixels.stride))
            defer { cairo_surface_destroy(source) }
            cairo_surface_set_device_scale(source, bitmap.scale, bitmap.scale)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cairo, source, 0, 0)
            // Not Cairo's default: when shrinking it cost a frame 10 to 20 ms at 1080p.
            cairo_pattern_set_filter(cairo_get_source(cairo), filter)
            cairo_paint(cairo)
        }
    }

    /// The copy above as rows of memory, where the image's pixels fall on whole pixels of an
    /// image target and the clip is whole pixel boxes (a frame's region is): a frame clips to
    /// tens of boxes, and a Cairo paint costs more per box in setting up than in copying. False,
    /// having drawn nothing, where that does not hold.
    private func copyRows(of image: BitmapPixels, scale: Double) -> Bool {
        guard let (target, m, dx, dy) = pixelGrid, m.xx == scale, let boxes = clipBoxes(target, m) else { return false }
        // Every box inside the image (at dx, dy there), checked before anything is copied; else
        // Cairo does it all (it clears what the image does not cover).
        for box in boxes {
            guard box.x0 >= dx, box.y0 >= dy, box.x1 <= dx + image.width, box.y1 <= dy + image.height else { return false }
        }
        copyPixelRows(from: image, into: target, boxes, offset: (dx, dy))
        return true
    }

    /// The copy above scaled, each pixel of the target the image's pixel under its centre (as
    /// Cairo's nearest filter takes it), where the target is an image, user space maps onto it
    /// unturned and the clip is whole pixel boxes. A row that takes the same image row as the one
    /// above is that row copied: a pinch in shows each of the older zoom's rows on several rows,
    /// which pixman read pixel by pixel again (4K's canvas at twice the stand-in's size 3.8 ms,
    /// by rows 2.9; at 1.1 times 4.2 and 3.8; shrunk, the same). False, having drawn nothing,
    /// where that does not hold.
    func copyScaledRows(of image: BitmapPixels, scale: Double) -> Bool {
        let target = cairo_get_group_target(cairo)!
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE, image.width > 0, image.height > 0 else { return false }
        var sx = 0.0, sy = 0.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &ox, &oy)
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        // Target pixels per image pixel.
        let k = m.xx / scale
        guard sx == 1, sy == 1, ox == 0, oy == 0, m.xy == 0, m.yx == 0, m.xx == m.yy, k > 0,
              let boxes = clipBoxes(target, m) else { return false }
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return false }
        let stride = Int(cairo_image_surface_get_stride(target))
        // A target pixel's centre falls on image pixel (centre - origin) / k, taken as Cairo's fixed
        // point does: a centre on an edge takes the pixel before.
        func exact(_ pixel: Int, origin: Double) -> Double { (Double(pixel) + 0.5 - origin) / k - 1.0 / 65536 }
        func source(_ pixel: Int, origin: Double, count: Int) -> Int {
            min(max(Int(exact(pixel, origin: origin).rounded(.down)), 0), count - 1)
        }
        // Across a row, the image's column in 32.32 fixed point, a step a pixel: no table to read,
        // and a drift of a millionth of a pixel over a 4K row.
        let step = Int64((1 / k * 4_294_967_296).rounded())
        for box in boxes {
            let width = box.x1 - box.x0
            let start = Int64((exact(box.x0, origin: m.x0) * 4_294_967_296).rounded(.down))
            // Every column within the image (the canvas clips its stand-in to it), else each is held to it.
            let inside = start >= 0 && Int((start + Int64(width - 1) * step) >> 32) < image.width
            var last = -1
            for y in box.y0..<box.y1 {
                let row = source(y, origin: m.y0, count: image.height)
                let out = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self) + box.x0
                if row == last {
                    out.update(from: out - stride / 4, count: width)
                    continue
                }
                let from = (image.base + row * image.stride).assumingMemoryBound(to: UInt32.self)
                if inside {
                    var v = start
                    for i in 0..<width {
                        out[i] = from[Int(truncatingIfNeeded: v >> 32)]
                        v &+= step
                    }
                } else {
                    for i in 0..<width { out[i] = from[source(box.x0 + i, origin: m.x0, count: image.width)] }
                }
                last = row
            }
        }
        cairo_surface_mark_dirty(target)
        return true
    }

    /// The clip as boxes of whole pixels of `target`, an ARGB32 image (cut to it), through the
    /// user-to-pixel matrix `m`; nil where a box edge falls within a pixel, or the target is not.
    private func clipBoxes(_ target: OpaquePointer, _ m: cairo_matrix_t) -> [PixelBox]? {
        guard cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32,
              let list = cairo_copy_clip_rectangle_list(cairo) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        var boxes: [PixelBox] = []
        for r in UnsafeBufferPointer(start: list.pointee.rectangles, count: Int(list.pointee.num_rectangles)) {
            guard let left = wholePixel(r.x * m.xx + m.x0), let top = wholePixel(r.y * m.yy + m.y0),
                  let right = wholePixel((r.x + r.width) * m.xx + m.x0), let bottom = wholePixel((r.y + r.height) * m.yy + m.y0) else { return nil }
            let box = PixelBox(x0: max(left, 0), y0: max(top, 0), x1: min(right, width), y1: min(bottom, height))
            if box.x0 < box.x1, box.y0 < box.y1 { boxes.append(box) }
        }
        return boxes
    }

    /// Lays `color`, opaque, over `rect` within the clip, without blending, each pixel as an image
    /// filled with it holds it (``ImageSurface/fill(rows:columns:with:)``): rows of memory where the
    /// clip falls on whole pixels of an image target (a copy of a picture of that one colour reads
    /// the picture too, twice the memory's traffic), else Cairo's fill.
    public func fillOpaque(_ rect: Rect, with color: Color) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        clip(to: rect)
        guard let (target, m, _, _) = pixelGrid, let boxes = clipBoxes(target, m) else { return replace(rect, with: color) }
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return }
        let stride = Int(cairo_image_surface_get_stride(target)), pixel = Self.opaquePixel(color)
        for box in boxes {
            for row in box.y0..<box.y1 {
                (UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self) + box.x0)
                    .update(repeating: pixel, count: box.x1 - box.x0)
            }
        }
        cairo_surface_mark_dirty(target)
    }

    /// A picture drawn as a window's buffer is, in its own pixels with user space scaled (icons
    /// and text ask the context for the scale), then marked with that scale for copying back.
    /// Only for an image target: a vector file gets vectors.
    public func makePicture(size: Size, _ draw: (GraphicsContext) -> Void) -> Bitmap? {
        guard cairo_surface_get_type(cairo_get_target(cairo)) == CAIRO_SURFACE_TYPE_IMAGE else { return nil }
        let picture = ImageSurface(size: size, scale: deviceScale)
        Self.draw(into: picture, draw)
        return picture
    }

    public func drawAgain(into picture: Bitmap, _ draw: (GraphicsContext) -> Void) -> Bool {
        guard let picture = picture as? ImageSurface else { return false }
        Self.draw(into: picture, draw)
        return true
    }

    /// Draws into a picture with user space scaled to its device pixels, then marks it with its
    /// scale for copying back.
    private static func draw(into picture: ImageSurface, _ draw: (GraphicsContext) -> Void) {
        cairo_surface_set_device_scale(picture.surface, 1, 1)
        do {
            let context = CairoContext(surface: picture)
            context.scaleBy(x: picture.scale, y: picture.scale)
            draw(context)
        }
        cairo_surface_flush(picture.surface)
        cairo_surface_set_device_scale(picture.surface, picture.scale, picture.scale)
    }

    public var isPixelAligned: Bool { pixelGrid.map { $0.matrix.xx >= 1 } ?? false }

    /// The image target, the user-to-pixel matrix and where user space's origin lies in the
    /// target's pixels, when user space maps onto those pixels by one scale, unturned, from a
    /// whole pixel (no device scale or offset on the target); nil otherwise.
    private var pixelGrid: (target: OpaquePointer, matrix: cairo_matrix_t, x: Int, y: Int)? {
        let target = cairo_get_group_target(cairo)!
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else { return nil }
        var sx = 0.0, sy = 0.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &ox, &oy)
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        guard sx == 1, sy == 1, ox == 0, oy == 0, m.xy == 0, m.yx == 0, m.xx == m.yy,
              let x = wholePixel(m.x0), let y = wholePixel(m.y0) else { return nil }
        return (target, m, x, y)
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

/// `v` as a whole number of pixels, when it is one to within rounding.
func wholePixel(_ v: Double) -> Int? {
    let r = v.rounded()
    return abs(r - v) < 1e-6 ? Int(r) : nil
}
