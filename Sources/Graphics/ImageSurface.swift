// Pixel memory Cairo can draw into: our own (an offscreen cache) or someone else's (a wl_shm buffer).
// An image is made whatever size it is asked for, each side within Limit.rasterSide (a NaN or
// infinite side included); the pixels in all are the caller's to bound (Limit.rasterPixels), as
// only it can say what to do instead: the window draws at a smaller size, an export scales.
import CCairo
import Limits
import TouchKit

/// A 32-bit premultiplied ARGB image (Cairo's ARGB32, which is wl_shm's ARGB8888 on little-endian).
public final class ImageSurface: Bitmap {
    private(set) var surface: OpaquePointer
    /// The shared memory of an image a scroll moves without copying (``init(scrollable:scale:)``).
    let scrolling: ScrollingPixels?
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// Pixels per point: drawing is in points, so a scale-2 image of 100x100 points has 200x200 pixels.
    public let scale: Double
    /// The live lines drawn into these pixels as rows, to erase in the next frame here
    /// (LiveLineLayer).
    var heldLines = HeldLineRows()
    /// The number of the window's frame this image was last brought up to date for
    /// (`Window.update`), 0 for none: of a window's buffers, the one with the highest is the one
    /// the compositor shows.
    var frameNumber = 0

    /// An image that owns its pixels, cleared to transparent: `width` x `height` pixels, each
    /// side within 1...Limit.rasterSide.
    public init(width: Int, height: Int) {
        (self.width, self.height) = Self.bounded(width: Double(width), height: Double(height))
        scale = 1
        scrolling = nil
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
    }

    /// An image of `size` points at `scale` pixels per point (crisp on HiDPI outputs), each side
    /// within 1...Limit.rasterSide pixels.
    public init(size: Size, scale: Double) {
        let scale = min(max(scale, 1), Double(Limit.outputScale))
        (width, height) = Self.pixelSize(size, scale: scale)
        self.scale = scale
        scrolling = nil
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cairo_surface_set_device_scale(surface, scale, scale)
    }

    /// An image of `size` points at `scale` (as ``init(size:scale:)``) whose
    /// ``shiftPixels(dx:dy:)`` moves no pixel: a raster that scrolls, in shared memory mapped so
    /// that a scroll only moves where the image starts (ScrollingPixels). Ordinary memory where
    /// the system offers none.
    public init(scrollable size: Size, scale: Double) {
        let scale = min(max(scale, 1), Double(Limit.outputScale))
        (width, height) = Self.pixelSize(size, scale: scale)
        self.scale = scale
        let (w, h) = (width, height)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(w)))
        let pixels = ScrollingPixels(stride: stride, rows: h)
        scrolling = pixels
        surface = pixels.map { Self.surface(over: $0, width: w, height: h, stride: stride) }
            ?? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
        cairo_surface_set_device_scale(surface, scale, scale)
    }

    /// A scrollable image's memory faulted in on another thread (ScrollingPixels): nothing is
    /// written, so drawing may begin at once.
    public func populateAside() { scrolling?.populateAside() }

    /// Bytes the scrollable images hold, in shared memory and no part of the heap (for
    /// measurements of what a window holds).
    public static var scrollableBytes: Int { ScrollingPixels.bytesHeld.load(ordering: .relaxed) }

    /// The name of a scrollable image's shared memory in /proc/PID/maps and smaps.
    public static let scrollableFileName = ScrollingPixels.fileName

    /// Whether a scroll moves no pixel here (``init(scrollable:scale:)`` had its shared memory).
    public var scrollsInPlace: Bool { scrolling != nil }

    private static func surface(over pixels: ScrollingPixels, width: Int, height: Int, stride: Int) -> OpaquePointer {
        cairo_image_surface_create_for_data(pixels.start.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                            Int32(width), Int32(height), Int32(stride))
    }

    /// The pixels an image of `size` points at `scale` has (see ``init(size:scale:)``).
    public static func pixelSize(_ size: Size, scale: Double) -> (width: Int, height: Int) {
        bounded(width: (size.width * scale).rounded(.up), height: (size.height * scale).rounded(.up))
    }

    /// A size in pixels with each side within 1...Limit.rasterSide (NaN taken as 1).
    private static func bounded(width: Double, height: Double) -> (width: Int, height: Int) {
        func side(_ v: Double) -> Int { v >= 1 ? Int(min(v, Double(Limit.rasterSide))) : 1 }
        return (side(width), side(height))
    }

    /// An image over memory that stays owned by the caller (it must outlive the image), which
    /// checks the geometry first (``stride(forWidth:)``).
    public init(wrapping data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.width = width
        self.height = height
        scale = 1
        scrolling = nil
        surface = cairo_image_surface_create_for_data(
            data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(clamping: width), Int32(clamping: height), Int32(clamping: stride))
    }

    /// The image whose pixels a ``rows(_:)`` view draws into: kept alive by the view.
    private var parent: ImageSurface?

    /// Rows `range` of this image's pixels as an image of their own, no copy, in this image's
    /// points: what is drawn on it lands on the pixels it would land on here. Views of rows that
    /// do not overlap may be drawn on from different threads at once (each is its own Cairo
    /// surface); this image is told of their drawing by ``markDirty()``.
    public func rows(_ range: Range<Int>) -> ImageSurface {
        let rows = range.clamped(to: 0..<height)
        let stride = Int(cairo_image_surface_get_stride(surface))
        flush()
        return ImageSurface(viewOf: self, rows: rows, data: cairo_image_surface_get_data(surface).map { $0 + rows.lowerBound * stride },
                            stride: stride)
    }

    private init(viewOf parent: ImageSurface, rows: Range<Int>, data: UnsafeMutablePointer<UInt8>?, stride: Int) {
        let (width, height) = (parent.width, max(rows.count, 0))
        (self.width, self.height, scale) = (width, height, parent.scale)
        self.parent = parent
        scrolling = nil
        // An image Cairo could not allocate has no data: the view is as empty as it.
        surface = data.map {
            cairo_image_surface_create_for_data($0, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
        } ?? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 0, 0)
        cairo_surface_set_device_scale(surface, scale, scale)
        cairo_surface_set_device_offset(surface, 0, Double(-rows.lowerBound))
    }

    deinit { cairo_surface_destroy(surface) }

    public var pixelWidth: Int { width }
    public var pixelHeight: Int { height }

    public func withPixels<R>(_ body: (BitmapPixels) -> R) -> R? {
        flush()
        // Valid as long as the surface lives; nil for a surface Cairo could not allocate.
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        return body(BitmapPixels(base: UnsafeRawPointer(data), stride: Int(cairo_image_surface_get_stride(surface)),
                                 width: width, height: height))
    }

    /// The row length in bytes Cairo wants for a width (it may pad rows for speed); nil for a
    /// width past Limit.rasterSide.
    public static func stride(forWidth width: Int) -> Int? {
        guard (1...Limit.rasterSide).contains(width) else { return nil }
        return Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
    }

    /// Makes the pixels of `region` those of `other`, an image of the same size.
    public func copyPixels(from other: ImageSurface, in region: PixelRegion) {
        precondition(other.width == width && other.height == height, "copyPixels needs images of one size")
        let boxes = region.rects.compactMap { box -> PixelBox? in
            let b = PixelBox(x0: max(0, Int(box.minX)), y0: max(0, Int(box.minY)),
                             x1: min(width, Int(box.maxX)), y1: min(height, Int(box.maxY)))
            return b.x0 < b.x1 && b.y0 < b.y1 ? b : nil
        }
        copyPixelRows(from: other.surface, into: surface, boxes, offset: (0, 0))
    }

    /// A copy of the pixels of `rect` (whole pixels, inside the image) to draw on aside, in this
    /// image's points: what is drawn on it lands on the pixels it would land on here, so
    /// ``paste(_:)`` then puts back exactly what drawing here would have made.
    public func section(_ rect: Rect) -> ImageSurface {
        let x = max(0, min(Int(rect.minX), width)), y = max(0, min(Int(rect.minY), height))
        let part = ImageSurface(width: min(Int(rect.width), width - x), height: min(Int(rect.height), height - y))
        part.origin = (x, y)
        part.copied = (max(0, min(Int(rect.width), width - x)), max(0, min(Int(rect.height), height - y)))
        cairo_surface_set_device_scale(part.surface, scale, scale)
        cairo_surface_set_device_offset(part.surface, Double(-x), Double(-y))
        Self.copyRows(from: self, at: (x, y), to: part, at: (0, 0), width: Int(rect.width), height: Int(rect.height))
        return part
    }

    /// Puts `section` (see ``section(_:)``) back where it was taken from.
    public func paste(_ section: ImageSurface) {
        Self.copyRows(from: section, at: (0, 0), to: self, at: section.origin, width: section.copied.width, height: section.copied.height)
    }

    /// Where a section was taken from, and how many of its pixels came from there.
    private var origin = (x: 0, y: 0)
    private var copied = (width: 0, height: 0)

    private static func copyRows(from source: ImageSurface, at from: (x: Int, y: Int), to target: ImageSurface,
                                 at to: (x: Int, y: Int), width: Int, height: Int) {
        // Within both images: a section off the image's edge is one pixel with nothing copied.
        let width = min(width, source.width - from.x, target.width - to.x)
        let height = min(height, source.height - from.y, target.height - to.y)
        guard width > 0, height > 0 else { return }
        copyPixelRows(from: source.surface, into: target.surface,
                      [PixelBox(x0: to.x, y0: to.y, x1: to.x + width, y1: to.y + height)],
                      offset: (to.x - from.x, to.y - from.y))
    }

    /// Moves the pixels by `dx`, `dy` whole pixels within the image, as a scroll moves what it
    /// shows: what moves past an edge is lost, what the move uncovers holds pixels of no meaning
    /// (the caller draws there). No new memory: a new image's pages cost their faults, several
    /// milliseconds for a window's worth. A scrollable image only moves where it starts; any
    /// other copies its pixels (a 4K raster: over a millisecond).
    public func shiftPixels(dx: Int, dy: Int) {
        flush()
        guard dx != 0 || dy != 0 else { return }
        if let scrolling {
            let stride = Int(cairo_image_surface_get_stride(surface))
            scrolling.move(by: -(dy * stride + dx * 4))
            cairo_surface_destroy(surface)
            surface = Self.surface(over: scrolling, width: width, height: height, stride: stride)
            cairo_surface_set_device_scale(surface, scale, scale)
            return
        }
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let bytes = (width - abs(dx)) * 4, rows = height - abs(dy)
        guard bytes > 0, rows > 0, dx != 0 || dy != 0 else { return }
        let (fromX, toX) = (max(0, -dx) * 4, max(0, dx) * 4)
        // Rows moving down go bottom first, so none is overwritten before it moves.
        for i in 0..<rows {
            let row = dy > 0 ? rows - 1 - i : i
            UnsafeMutableRawPointer(data + (row + max(0, dy)) * stride + toX)
                .copyMemory(from: data + (row + max(0, -dy)) * stride + fromX, byteCount: bytes)
        }
        markDirty()
    }

    /// Makes every pixel of rows `range` (of `columns` of them, or all) `color`, made opaque
    /// (paper): straight into memory, so that a fresh image's rows may be laid a few at a time,
    /// each write whole pixels, and what a scroll uncovers is paper to its last pixel at any scale.
    public func fill(rows range: Range<Int>, columns: Range<Int>? = nil, with color: Color) {
        let rows = range.clamped(to: 0..<height), columns = (columns ?? 0..<width).clamped(to: 0..<width)
        flush()
        guard !rows.isEmpty, !columns.isEmpty, let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixel = CairoContext.opaquePixel(color)
        for row in rows {
            (UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self) + columns.lowerBound)
                .update(repeating: pixel, count: columns.count)
        }
        markDirty()
    }

    /// Finishes pending drawing so the memory holds the pixels (before handing it to a compositor).
    public func flush() { cairo_surface_flush(surface) }

    /// Tells Cairo that the pixels were written behind its back (a copy from another buffer).
    public func markDirty() { cairo_surface_mark_dirty(surface) }

    /// The pixel at (x, y) as an unpremultiplied colour, for tests.
    public func color(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface) else { return nil }
        flush()
        let stride = Int(cairo_image_surface_get_stride(surface))
        let v = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)[x]
        let a = Double(v >> 24) / 255
        guard a > 0 else { return .clear }
        func channel(_ shift: UInt32) -> Double { min(1, Double((v >> shift) & 0xFF) / 255 / a) }
        return Color(red: channel(16), green: channel(8), blue: channel(0), alpha: a)
    }

    /// Every pixel as premultiplied ARGB32, row after row, for tests that compare whole images.
    public func pixelWords() -> [UInt32] {
        flush()
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var words: [UInt32] = []
        words.reserveCapacity(width * height)
        for y in 0..<height {
            words += UnsafeBufferPointer(start: UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self), count: width)
        }
        return words
    }

    /// Writes the image as PNG.
    public func writePNG(to path: String) throws {
        flush()
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw GraphicsError("cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

extension ImageSurface {
    /// The image as PNG bytes, in memory (for the clipboard).
    public func pngData() throws -> [UInt8] {
        flush()
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw GraphicsError("cannot make a PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.bytes
    }
}

/// Collects what Cairo writes to a stream (a PNG, an SVG document) into memory.
final class ByteSink {
    var bytes: [UInt8] = []

    /// Cairo's `cairo_write_func_t`; `closure` is an unretained `ByteSink`.
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        if let data, length > 0 { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
        return CAIRO_STATUS_SUCCESS
    }
}

/// A drawing failure with a message for the user.
public struct GraphicsError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A box of whole pixels, `x1` and `y1` excluded.
struct PixelBox {
    var x0, y0, x1, y1: Int
}

/// Copies the pixels of `boxes` (in `target`'s pixels) from the ARGB32 image `source`, which sits
/// at `offset` in the target, row by row as memory: a frame copies tens of small boxes, and a
/// Cairo paint per box cost more in setting up than in copying. The boxes must lie inside both.
func copyPixelRows(from source: OpaquePointer, into target: OpaquePointer, _ boxes: [PixelBox], offset: (x: Int, y: Int)) {
    cairo_surface_flush(source)
    guard let src = cairo_image_surface_get_data(source) else { return }
    let pixels = BitmapPixels(base: UnsafeRawPointer(src), stride: Int(cairo_image_surface_get_stride(source)),
                              width: Int(cairo_image_surface_get_width(source)), height: Int(cairo_image_surface_get_height(source)))
    copyPixelRows(from: pixels, into: target, boxes, offset: offset)
}

/// The same from pixels in memory.
func copyPixelRows(from source: BitmapPixels, into target: OpaquePointer, _ boxes: [PixelBox], offset: (x: Int, y: Int)) {
    cairo_surface_flush(target)
    guard let dst = cairo_image_surface_get_data(target) else { return }
    let dstStride = Int(cairo_image_surface_get_stride(target))
    for box in boxes {
        let bytes = (box.x1 - box.x0) * 4
        for row in box.y0..<box.y1 {
            let from = source.base + ((row - offset.y) * source.stride + (box.x0 - offset.x) * 4)
            UnsafeMutableRawPointer(dst + (row * dstStride + box.x0 * 4)).copyMemory(from: from, byteCount: bytes)
        }
    }
    cairo_surface_mark_dirty(target)
}
