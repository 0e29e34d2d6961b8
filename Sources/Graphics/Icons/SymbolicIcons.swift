// Symbolic icons as the desktop draws them: found in its icon theme (or the app's own drawing),
// rendered by librsvg at the exact number of device pixels they cover, kept, and painted in one
// colour through their alpha, the way GTK recolours symbolic icons. Rendering at the device's size
// rather than scaling a bitmap keeps them sharp at every scale, fractional ones included.
#if canImport(Glibc)
import Glibc
#endif
import CCairo
import Synchronization
import TouchKit

final class SymbolicIcons: Sendable {
    static let shared = SymbolicIcons()

    /// A rendered icon: its coverage as a Cairo alpha surface, destroyed with it.
    final class Mask: @unchecked Sendable {
        let surface: OpaquePointer

        init?(coverage: [UInt8], pixels: Int) {
            guard coverage.count == pixels * pixels,
                  let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(pixels), Int32(pixels))
            else { return nil }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
                cairo_surface_destroy(surface)
                return nil
            }
            cairo_surface_flush(surface)
            let stride = Int(cairo_image_surface_get_stride(surface))
            coverage.withUnsafeBytes { source in
                for y in 0..<pixels {
                    (data + y * stride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * pixels, count: pixels)
                }
            }
            cairo_surface_mark_dirty(surface)
            self.surface = surface
        }

        deinit { cairo_surface_destroy(surface) }
    }

    private struct Key: Hashable {
        var icon: Icon
        var theme: String?
        var pixels: Int
    }

    /// At most this many renderings are kept (a window shows a few dozen at two or three sizes).
    static let capacity = 256
    private let masks = Mutex<[Key: Mask?]>([:])
    private let theme = IconTheme { name in getenv(name).map { String(cString: $0) } }
    /// The renderer process icons are drawn by; nil draws them in this process.
    private let renderer = Mutex<IconRendererProcess?>(nil)
    /// The largest icon drawn, in pixels square.
    static let largestPixels = 1024

    /// Icons are drawn from now on by `executable` started as an icon renderer.
    func useRenderer(_ executable: String) {
        renderer.withLock { $0 = IconRendererProcess(executable: executable) }
    }

    /// `icon` at `pixels` square, from `themeName` when it has it; nil without librsvg or when
    /// neither the theme's file nor the icon's own drawing can be read.
    func mask(_ icon: Icon, theme themeName: String?, pixels: Int) -> Mask? {
        let key = Key(icon: icon, theme: themeName, pixels: pixels)
        if let known = masks.withLock({ $0[key] }) { return known }
        let rendered = render(icon, themeName: themeName, pixels: pixels)
        masks.withLock { masks in
            if masks.count >= Self.capacity { masks.removeAll() }
            masks[key] = rendered
        }
        return rendered
    }

    private func render(_ icon: Icon, themeName: String?, pixels: Int) -> Mask? {
        guard pixels > 0, pixels <= Self.largestPixels else { return nil }
        let themed = icon.names.isEmpty ? nil : theme.svg(for: icon.names, theme: themeName ?? "Adwaita")
        for source in [themed, Array(icon.fallback.utf8)].compactMap({ $0 }) {
            if let coverage = coverage(of: source, pixels: pixels) { return Mask(coverage: coverage, pixels: pixels) }
        }
        return nil
    }

    private func coverage(of svg: [UInt8], pixels: Int) -> [UInt8]? {
        let answer = renderer.withLock { $0?.coverage(of: svg, pixels: pixels) }
        switch answer {
        case .drawn(let coverage): return coverage
        case .notDrawn, .lost: return nil
        case .unavailable, nil: return IconRendererService.coverage(of: svg, pixels: pixels)
        }
    }
}

extension CairoContext {
    public func drawIcon(_ icon: Icon, in rect: Rect, color: Color, theme: String?) {
        let scale = deviceScale
        let pixels = Int((min(rect.width, rect.height) * scale).rounded())
        guard let mask = SymbolicIcons.shared.mask(icon, theme: theme, pixels: pixels) else { return }
        // On whole device pixels, unscaled: the rendering is already the size it covers.
        var x = rect.minX, y = rect.minY
        cairo_user_to_device(cairo, &x, &y)
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cairo, mask.surface, x.rounded(), y.rounded())
        cairo_restore(cairo)
    }
}
