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

    /// A rendered icon: a Cairo image surface, destroyed with it.
    final class Mask: @unchecked Sendable {
        let surface: OpaquePointer
        init(_ surface: OpaquePointer) { self.surface = surface }
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
        guard pixels > 0, pixels <= 1024, let rsvg = RsvgLibrary.shared else { return nil }
        let themed = icon.names.isEmpty ? nil : theme.svg(for: icon.names, theme: themeName ?? "Adwaita")
        for source in [themed, Array(icon.fallback.utf8)].compactMap({ $0 }) {
            if let surface = rsvg.render(source, pixels: pixels) { return Mask(surface) }
        }
        return nil
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
