// Pixel memory Cairo can draw into: our own (an offscreen cache) or someone else's (a wl_shm buffer).
import CCairo
import TouchKit

/// A 32-bit premultiplied ARGB image (Cairo's ARGB32, which is wl_shm's ARGB8888 on little-endian).
public final class ImageSurface {
    let surface: OpaquePointer
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// Pixels per point: drawing is in points, so a scale-2 image of 100x100 points has 200x200 pixels.
    public let scale: Double

    /// An image that owns its pixels, cleared to transparent.
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        scale = 1
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
    }

    /// An image of `size` points at `scale` pixels per point (crisp on HiDPI outputs).
    public init(size: Size, scale: Double) {
        let scale = max(scale, 1)
        width = max(Int((size.width * scale).rounded(.up)), 1)
        height = max(Int((size.height * scale).rounded(.up)), 1)
        self.scale = scale
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cairo_surface_set_device_scale(surface, scale, scale)
    }

    /// An image over memory that stays owned by the caller (it must outlive the image).
    public init(wrapping data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.width = width
        self.height = height
        scale = 1
        surface = cairo_image_surface_create_for_data(
            data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The row length in bytes Cairo wants for a width (it may pad rows for speed).
    public static func stride(forWidth width: Int) -> Int {
        Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
    }

    /// Makes the pixels of `region` those of `other`, an image of the same size.
    public func copyPixels(from other: ImageSurface, in region: PixelRegion) {
        guard !region.isEmpty else { return }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        region.clip(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cairo, other.surface, 0, 0)
        cairo_paint(cairo)
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
