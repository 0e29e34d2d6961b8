// How big a window buffer is and how logical rectangles map into it, for integer scales
// (wl_surface.set_buffer_scale) and fractional ones (wp_fractional_scale_v1 + wp_viewporter).
import TouchKit

struct BufferGeometry: Equatable {
    /// Buffer pixels per point.
    let scale: Double
    /// True when the scale comes from wp_fractional_scale_v1: the buffer keeps scale 1 and a
    /// viewport maps it onto the logical size.
    let isFractional: Bool

    /// Integer scale: the buffer is exactly `scale` times the logical size.
    static func integer(_ scale: Int32) -> BufferGeometry {
        BufferGeometry(scale: Double(max(scale, 1)), isFractional: false)
    }

    /// A fractional scale as wp_fractional_scale_v1 sends it: a numerator over 120.
    static func fractional(numerator: UInt32) -> BufferGeometry {
        BufferGeometry(scale: max(Double(numerator), 1) / 120, isFractional: true)
    }

    /// The buffer's size in pixels for a logical size. The protocol asks for the logical size
    /// times the scale, rounded half away from zero.
    func pixelSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
