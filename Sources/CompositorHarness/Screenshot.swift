// A compositor screenshot read back from the PNG the plugin wrote, for pixel checks.
import CCairo

/// An 8-bit RGBA colour as it appears on screen.
public struct Pixel: Equatable, CustomStringConvertible, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let white = Pixel(red: 255, green: 255, blue: 255)
    public static let black = Pixel(red: 0, green: 0, blue: 0)
    public static let red = Pixel(red: 255, green: 0, blue: 0)
    public static let green = Pixel(red: 0, green: 255, blue: 0)

    /// Whether every channel is within `tolerance` of `other` (antialiased edges are never exact).
    public func isClose(to other: Pixel, tolerance: Int = 40) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance
    }

    public var description: String {
        "#" + [red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Pixels of a PNG file, loaded with Cairo.
public struct Screenshot: Sendable {
    public let width: Int
    public let height: Int
    public let path: String
    private let argb: [UInt32]

    public init(contentsOf path: String) throws {
        guard let surface = cairo_image_surface_create_from_png(path),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw HarnessError("cannot read screenshot PNG \(path)") }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw HarnessError("screenshot \(path) has no pixel data")
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { pixels[y * width + x] = row[x] }
        }
        self.width = width
        self.height = height
        self.path = path
        self.argb = pixels
    }

    /// The pixel at integer coordinates, or nil outside the picture.
    public func pixel(x: Int, y: Int) -> Pixel? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let v = argb[y * width + x]
        return Pixel(red: UInt8((v >> 16) & 0xFF), green: UInt8((v >> 8) & 0xFF),
                     blue: UInt8(v & 0xFF), alpha: UInt8(v >> 24))
    }

    public func pixel(x: Double, y: Double) -> Pixel? { pixel(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) }

    /// Counts the pixels inside a rectangle close to `colour`.
    public func count(_ colour: Pixel, inX xs: Range<Int>, y ys: Range<Int>, tolerance: Int = 40) -> Int {
        var n = 0
        for y in ys.clamped(to: 0..<height) {
            for x in xs.clamped(to: 0..<width) where pixel(x: x, y: y)!.isClose(to: colour, tolerance: tolerance) {
                n += 1
            }
        }
        return n
    }
}

extension Screenshot {
    /// Pixels handed over raw: `height` rows of `stride` bytes, each pixel ARGB32 in the machine's
    /// (little-endian) byte order, as Cairo and KWin lay them out. Also saved as a PNG at `path`,
    /// for a person to look at.
    public init(width: Int, height: Int, stride: Int, argb32 bytes: [UInt8], savingPNGTo path: String) throws {
        guard width > 0, height > 0, stride >= width * 4, bytes.count >= stride * height else {
            throw HarnessError("raw screenshot of \(bytes.count) bytes does not hold \(width)x\(height), stride \(stride)")
        }
        var copy = bytes
        let status = copy.withUnsafeMutableBytes { buffer -> cairo_status_t in
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard let surface = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(width),
                                                                    Int32(height), Int32(stride))
            else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(surface) }
            return cairo_surface_write_to_png(surface, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw HarnessError("cannot write screenshot PNG \(path)") }
        try self.init(contentsOf: path)
    }
}
