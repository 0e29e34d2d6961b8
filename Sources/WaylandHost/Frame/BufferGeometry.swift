// How big a window buffer is and how logical rectangles map into it, for integer scales
// (wl_surface.set_buffer_scale) and fractional ones (wp_fractional_scale_v1 + wp_viewporter).
// Whatever the compositor asks, scales lie within Limit.outputScale and buffers within the raster
// limits.
import Limits
import TouchKit

struct BufferGeometry: Equatable {
    /// Buffer pixels per point.
    let scale: Double
    /// True when the scale comes from wp_fractional_scale_v1: the buffer keeps scale 1 and a
    /// viewport maps it onto the logical size.
    let isFractional: Bool

    /// Integer scale: the buffer is exactly `scale` times the logical size.
    static func integer(_ scale: Int32) -> BufferGeometry {
        BufferGeometry(scale: Double(min(max(Int(scale), 1), Limit.outputScale)), isFractional: false)
    }

    /// A fractional scale as wp_fractional_scale_v1 sends it: a numerator over 120.
    static func fractional(numerator: UInt32) -> BufferGeometry {
        BufferGeometry(scale: min(max(Double(numerator), 1) / 120, Double(Limit.outputScale)), isFractional: true)
    }

    /// The buffer's size in pixels for a logical size. The protocol asks for the logical size
    /// times the scale, rounded half away from zero.
    func pixelSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The logical size the window takes when asked for `width` x `height` points: as asked when
    /// its buffer fits the raster limits (Limit.rasterSide a side, Limit.rasterPixels in all),
    /// else the largest that does, a side too long cut to the limit and then both shrunk alike.
    func boundedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        func fits(_ w: Int, _ h: Int) -> Bool {
            let pixels = pixelSize(width: w, height: h)
            return pixels.width <= Limit.rasterSide && pixels.height <= Limit.rasterSide
                && pixels.width * pixels.height <= Limit.rasterPixels
        }
        let side = Int(Double(Limit.rasterSide) / scale)
        var w = max(1, min(width, side)), h = max(1, min(height, side))
        // Shrunk alike to about the limit, then by a point at a time for the rounding.
        if !fits(w, h) {
            let factor = (Double(Limit.rasterPixels) / (Double(w) * scale * Double(h) * scale)).squareRoot()
            (w, h) = (max(1, Int(Double(w) * factor)), max(1, Int(Double(h) * factor)))
        }
        while !fits(w, h) { (w, h) = (max(1, w - 1), max(1, h - 1)) }
        return (w, h)
    }
}
