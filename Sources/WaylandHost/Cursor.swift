// The pointer's look: the user's cursor theme (XCURSOR_THEME, XCURSOR_SIZE), a crosshair over the
// canvas and the arrow elsewhere, at the window's scale. Only the two cursors shown are read
// (Xcursor.swift); libwayland-cursor is the fallback when the theme lacks one.
#if canImport(Glibc)
import Glibc
#endif
import CWaylandCursor
import Limits
import Wayland

final class CursorTheme {
    enum Shape: Hashable {
        case arrow
        case crosshair
        /// Over the window's resize border: which edge or corner.
        case resize(XdgToplevel.ResizeEdge)

        /// Theme names to try, most specific first (themes differ: CSS names in newer themes, X11
        /// names in older ones; libwayland-cursor's built-in fallback has left_ptr).
        var names: [String] {
            switch self {
            case .arrow: ["default", "left_ptr"]
            case .crosshair: ["crosshair", "cross", "tcross", "left_ptr"]
            case .resize(let edge):
                switch edge {
                case .top: ["n-resize", "top_side", "left_ptr"]
                case .bottom: ["s-resize", "bottom_side", "left_ptr"]
                case .left: ["w-resize", "left_side", "left_ptr"]
                case .right: ["e-resize", "right_side", "left_ptr"]
                case .topLeft: ["nw-resize", "top_left_corner", "left_ptr"]
                case .topRight: ["ne-resize", "top_right_corner", "left_ptr"]
                case .bottomLeft: ["sw-resize", "bottom_left_corner", "left_ptr"]
                case .bottomRight: ["se-resize", "bottom_right_corner", "left_ptr"]
                default: ["default", "left_ptr"]
                }
            }
        }
    }

    private let shm: WlShm
    private let surface: WlSurface
    private let baseSize: Int32
    private let name: String
    private let search = XcursorThemeSearch()
    /// Each shape's image at each scale it was shown at, kept for the next time it is shown.
    private var uploaded: [Key: Uploaded] = [:]
    /// libwayland-cursor's theme, loaded only when the user's theme lacks a shape (it carries a
    /// built-in arrow for systems without any theme).
    private var fallback: OpaquePointer?
    private var fallbackScale: Int32 = 0

    private struct Key: Hashable {
        let shape: Shape
        let scale: Int32
    }

    private struct Uploaded {
        let pool: ShmPool?
        let buffer: WlBuffer
        let width: Int32, height: Int32, hotspotX: Int32, hotspotY: Int32
    }

    init(compositor: WlCompositor, shm: WlShm) {
        self.shm = shm
        surface = compositor.createSurface()
        name = getenv("XCURSOR_THEME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let size = getenv("XCURSOR_SIZE").flatMap { Int32(String(cString: $0)) } ?? 24
        baseSize = (1...256).contains(size) ? size : 24
    }

    deinit { if let fallback { wl_cursor_theme_destroy(fallback) } }

    /// The size in pixels to load a cursor of `base` pixels at `scale` (taken within
    /// 1...Limit.outputScale), computed without overflow.
    static func pixelSize(base: Int32, scale: Int32) -> Int32 {
        Int32(clamping: Int(base) * Int(min(max(scale, 1), Int32(Limit.outputScale))))
    }

    /// Shows `shape` as `pointer`'s cursor; `serial` is the enter event's.
    func apply(_ shape: Shape, to pointer: WlPointer, serial: UInt32, scale: Int32) {
        let scale = min(max(scale, 1), Int32(Limit.outputScale))
        let key = Key(shape: shape, scale: scale)
        guard let image = uploaded[key] ?? load(key) else { return }
        uploaded[key] = image
        if surface.version >= 3 { surface.setBufferScale(scale: scale) }
        surface.attach(buffer: image.buffer, x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: image.width, height: image.height)
        surface.commit()
        pointer.setCursor(serial: serial, surface: surface,
                          hotspotX: image.hotspotX / scale, hotspotY: image.hotspotY / scale)
    }

    private func load(_ key: Key) -> Uploaded? {
        let size = Int(Self.pixelSize(base: baseSize, scale: key.scale))
        if let file = search.file(theme: name, names: key.shape.names),
           let image = XcursorImage(xcursorFile: file, size: size),
           let uploaded = try? upload(image) {
            return uploaded
        }
        return loadFallback(key)
    }

    /// Copies the image into its own small shared-memory buffer (the compositor reads it whenever
    /// the cursor is shown, so it stays).
    private func upload(_ image: XcursorImage) throws -> Uploaded {
        let stride = image.width * 4
        let pool = try ShmPool(shm: shm, size: stride * image.height, name: "touchtracker-cursor")
        image.pixels.withUnsafeBytes { pool.base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        let buffer = pool.createBuffer(offset: 0, width: Int32(image.width), height: Int32(image.height),
                                       stride: Int32(stride), format: .argb8888)
        return Uploaded(pool: pool, buffer: buffer, width: Int32(image.width), height: Int32(image.height),
                        hotspotX: Int32(image.hotspotX), hotspotY: Int32(image.hotspotY))
    }

    private func loadFallback(_ key: Key) -> Uploaded? {
        if fallback == nil || fallbackScale != key.scale {
            if let fallback {
                // Its buffers go with it: forget the images taken from it.
                uploaded = uploaded.filter { $0.value.pool != nil }
                wl_cursor_theme_destroy(fallback)
            }
            fallback = wl_cursor_theme_load(name, Self.pixelSize(base: baseSize, scale: key.scale), shm.proxy)
            fallbackScale = key.scale
        }
        guard let fallback else { return nil }
        for candidate in key.shape.names {
            guard let cursor = wl_cursor_theme_get_cursor(fallback, candidate), cursor.pointee.image_count > 0,
                  let image = cursor.pointee.images[0], let buffer = wl_cursor_image_get_buffer(image) else { continue }
            return Uploaded(pool: nil, buffer: WlBuffer(borrowing: buffer),
                            width: Int32(image.pointee.width), height: Int32(image.pointee.height),
                            hotspotX: Int32(image.pointee.hotspot_x), hotspotY: Int32(image.pointee.hotspot_y))
        }
        return nil
    }
}
