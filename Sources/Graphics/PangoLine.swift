// Text that needs shaping (Arabic joining, Indic reordering, marks, right-to-left), laid out by
// Pango. Pango, HarfBuzz and GLib are loaded with dlopen the first time such text is drawn, so a
// session that never shows any does not carry them in memory.
#if canImport(Glibc)
import Glibc
#endif
import CCairo
import TouchKit

/// The few Pango calls a one-line layout needs, looked up at run time.
final class PangoLibrary: @unchecked Sendable {
    /// Nil when libpangocairo cannot be loaded; text is then drawn glyph by glyph.
    static let shared = PangoLibrary()

    typealias CreateLayout = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias DescriptionFromString = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias SetAbsoluteSize = @convention(c) (OpaquePointer?, Double) -> Void
    typealias SetDescription = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    typealias FreeDescription = @convention(c) (OpaquePointer?) -> Void
    typealias SetText = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Void
    typealias PixelSize = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    typealias ShowLayout = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    typealias Unref = @convention(c) (OpaquePointer?) -> Void

    let createLayout: CreateLayout
    let descriptionFromString: DescriptionFromString
    let setAbsoluteSize: SetAbsoluteSize
    let setDescription: SetDescription
    let freeDescription: FreeDescription
    let setText: SetText
    let pixelSize: PixelSize
    let showLayout: ShowLayout
    let unref: Unref

    /// Pango units per device unit (PANGO_SCALE).
    static let scale = 1024.0

    private init?() {
        guard let handle = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let createLayout = symbol("pango_cairo_create_layout", as: CreateLayout.self),
              let descriptionFromString = symbol("pango_font_description_from_string", as: DescriptionFromString.self),
              let setAbsoluteSize = symbol("pango_font_description_set_absolute_size", as: SetAbsoluteSize.self),
              let setDescription = symbol("pango_layout_set_font_description", as: SetDescription.self),
              let freeDescription = symbol("pango_font_description_free", as: FreeDescription.self),
              let setText = symbol("pango_layout_set_text", as: SetText.self),
              let pixelSize = symbol("pango_layout_get_pixel_size", as: PixelSize.self),
              let showLayout = symbol("pango_cairo_show_layout", as: ShowLayout.self),
              let unref = symbol("g_object_unref", as: Unref.self)
        else {
            dlclose(handle)
            return nil
        }
        self.createLayout = createLayout
        self.descriptionFromString = descriptionFromString
        self.setAbsoluteSize = setAbsoluteSize
        self.setDescription = setDescription
        self.freeDescription = freeDescription
        self.setText = setText
        self.pixelSize = pixelSize
        self.showLayout = showLayout
        self.unref = unref
    }
}

/// A Pango layout of one line in the UI font.
final class PangoLine {
    private let pango: PangoLibrary
    private let layout: OpaquePointer

    init?(_ text: String, fontSize: Double, cairo: OpaquePointer) {
        guard let pango = PangoLibrary.shared, let layout = pango.createLayout(cairo) else { return nil }
        self.pango = pango
        self.layout = layout
        let font = pango.descriptionFromString("Sans")
        pango.setAbsoluteSize(font, fontSize * PangoLibrary.scale)
        pango.setDescription(layout, font)
        pango.freeDescription(font)
        pango.setText(layout, text, -1)
    }

    deinit { pango.unref(layout) }

    var size: Size {
        var width: Int32 = 0, height: Int32 = 0
        pango.pixelSize(layout, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }

    /// Draws the layout with its top-left corner at (`left`, `top`).
    func draw(in cairo: OpaquePointer, left: Double, top: Double) {
        cairo_move_to(cairo, left, top)
        pango.showLayout(cairo, layout)
    }
}
