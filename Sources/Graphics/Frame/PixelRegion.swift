// The exact union of a dirty region's rectangles in whole pixels, kept by pixman (through Cairo's
// region API): what a frame paints, what a buffer copies from the newest one, and the few
// rectangles a compositor is told are damaged.
import CCairo
import TouchKit

/// A set of pixels as non-overlapping rectangles (pixman's y-x banded form).
public final class PixelRegion {
    let region: OpaquePointer

    /// The pixels of `region` (points) at `scale`, each rectangle rounded outwards.
    public convenience init(_ region: DirtyRegion, scale: Double) {
        self.init(pixels: region.rects.map { $0.scaled(by: scale).integral })
    }

    /// The union of `pixels`, rectangles in whole pixels; what lies past ±2^30 (beyond any
    /// image) is cut off there, and a rectangle that is no number is left out.
    public init(pixels: [Rect]) {
        func pixel(_ v: Double) -> Int32 { Int32(min(max(v, -Double(1 << 30)), Double(1 << 30))) }
        var boxes = pixels.compactMap { r -> cairo_rectangle_int_t? in
            guard !r.minX.isNaN, !r.minY.isNaN, !r.maxX.isNaN, !r.maxY.isNaN else { return nil }
            let x0 = pixel(r.minX), y0 = pixel(r.minY)
            return cairo_rectangle_int_t(x: x0, y: y0, width: pixel(r.maxX) - x0, height: pixel(r.maxY) - y0)
        }
        region = cairo_region_create_rectangles(&boxes, Int32(boxes.count))
    }

    deinit { cairo_region_destroy(region) }

    /// Takes away the pixels of `other`.
    public func subtract(_ other: PixelRegion) { cairo_region_subtract(region, other.region) }

    public var isEmpty: Bool { cairo_region_is_empty(region) != 0 }

    /// The rectangles, none overlapping, top to bottom.
    public var rects: [Rect] {
        let count = Int(cairo_region_num_rectangles(region))
        var box = cairo_rectangle_int_t()
        return (0..<count).map { i in
            cairo_region_get_rectangle(region, Int32(i), &box)
            return Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
        }
    }

    /// How many pixels.
    public var area: Int { rects.reduce(0) { $0 + Int($1.width * $1.height) } }

    /// At most about `count` rectangles covering the region, for a compositor's damage: the
    /// exact rectangles when few; else the region cut into horizontal strips, and in each strip
    /// the spans closer than a strip's height joined, with taller strips until few enough. A
    /// line across the window is then a staircase of boxes a strip high, not its bounding box.
    public func coarseRects(count: Int) -> [Rect] {
        let exact = rects
        guard exact.count > count, let bottom = exact.map(\.maxY).max() else { return exact }
        struct Span { var minX, maxX, minY, maxY: Double }
        var strip = 32.0
        while true {
            var rows = [[Span]](repeating: [], count: Int((bottom / strip).rounded(.up)) + 1)
            for r in exact {
                var top = r.minY
                while top < r.maxY {
                    let row = max(0, Int((top / strip).rounded(.down)))
                    let end = min(r.maxY, Double(row + 1) * strip)
                    rows[row].append(Span(minX: r.minX, maxX: r.maxX, minY: top, maxY: end))
                    top = end
                }
            }
            var boxes: [Rect] = []
            for var row in rows where !row.isEmpty {
                row.sort { $0.minX < $1.minX }
                var current = row[0]
                for span in row.dropFirst() {
                    if span.minX <= current.maxX + strip {
                        current.maxX = max(current.maxX, span.maxX)
                        current.minY = min(current.minY, span.minY)
                        current.maxY = max(current.maxY, span.maxY)
                    } else {
                        boxes.append(Rect(x: current.minX, y: current.minY, width: current.maxX - current.minX, height: current.maxY - current.minY))
                        current = span
                    }
                }
                boxes.append(Rect(x: current.minX, y: current.minY, width: current.maxX - current.minX, height: current.maxY - current.minY))
            }
            if boxes.count <= count { return boxes }
            strip *= 2
        }
    }

    /// Clips `cairo` to the region.
    func clip(_ cairo: OpaquePointer) {
        cairo_new_path(cairo)
        for rect in rects { cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height) }
        cairo_clip(cairo)
    }
}
