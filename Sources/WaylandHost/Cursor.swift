// The pointer's look: the user's cursor theme (XCURSOR_THEME, XCURSOR_SIZE) through
// libwayland-cursor, a crosshair over the canvas and the arrow elsewhere, at the window's scale.
#if canImport(Glibc)
import Glibc
#endif
import CWaylandCursor
import Wayland

final class CursorTheme {
    enum Shape {
        case arrow
        case crosshair

        /// Theme names to try, most specific first (themes differ; libwayland-cursor's built-in
        /// fallback has left_ptr).
        var names: [String] {
            switch self {
            case .arrow: ["default", "left_ptr"]
            case .crosshair: ["crosshair", "cross", "tcross", "left_ptr"]
            }
        }
    }

    private let shm: WlShm
    private let compositor: WlCompositor
    private var theme: OpaquePointer?
    private var themeScale: Int32 = 0
    private let surface: WlSurface
    private let baseSize: Int32
    private let name: String?

    init(compositor: WlCompositor, shm: WlShm) {
        self.shm = shm
        self.compositor = compositor
        surface = compositor.createSurface()
        name = getenv("XCURSOR_THEME").map { String(cString: $0) }
        let size = getenv("XCURSOR_SIZE").flatMap { Int32(String(cString: $0)) } ?? 24
        baseSize = (1...256).contains(size) ? size : 24
    }

    deinit { if let theme { wl_cursor_theme_destroy(theme) } }

    /// Shows `shape` as `pointer`'s cursor; `serial` is the enter event's.
    func apply(_ shape: Shape, to pointer: WlPointer, serial: UInt32, scale: Int32) {
        guard let image = image(for: shape, scale: scale), let buffer = wl_cursor_image_get_buffer(image) else {
            return
        }
        let pixelScale = themeScale
        if surface.version >= 3 { surface.setBufferScale(scale: pixelScale) }
        surface.attach(buffer: WlBuffer(borrowing: buffer), x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: Int32(image.pointee.width), height: Int32(image.pointee.height))
        surface.commit()
        pointer.setCursor(serial: serial, surface: surface,
                          hotspotX: Int32(image.pointee.hotspot_x) / pixelScale,
                          hotspotY: Int32(image.pointee.hotspot_y) / pixelScale)
    }

    private func image(for shape: Shape, scale: Int32) -> UnsafeMutablePointer<wl_cursor_image>? {
        if theme == nil || themeScale != scale {
            if let theme { wl_cursor_theme_destroy(theme) }
            theme = wl_cursor_theme_load(name, baseSize * scale, shm.proxy)
            themeScale = scale
        }
        guard let theme else { return nil }
        for candidate in shape.names {
            if let cursor = wl_cursor_theme_get_cursor(theme, candidate), cursor.pointee.image_count > 0 {
                return cursor.pointee.images[0]
            }
        }
        return nil
    }
}
