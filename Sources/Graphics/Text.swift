// Text through Pango on the Cairo context: menu items, button titles, messages. Pango picks fonts
// through fontconfig, so "删除" renders with whatever CJK font the system has (Noto CJK here).
import CCairo
import CPangoCairo
import TouchKit

extension CairoContext: TextRenderingContext {
    /// Draws one line of text centred in `rect`.
    public func drawText(_ text: String, centeredIn rect: Rect, color: Color, fontSize: Double) {
        let layout = TextLayout(text, fontSize: fontSize, cairo: cairo)
        let size = layout.size
        cairo_save(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        cairo_move_to(cairo, rect.midX - size.width / 2, rect.midY - size.height / 2)
        pango_cairo_show_layout(cairo, layout.layout)
        cairo_restore(cairo)
    }

    /// The size one line of text takes, in points.
    public func measureText(_ text: String, fontSize: Double) -> Size {
        TextLayout(text, fontSize: fontSize, cairo: cairo).size
    }
}

/// A Pango layout for one line of text in the UI font.
final class TextLayout {
    let layout: OpaquePointer

    init(_ text: String, fontSize: Double, cairo: OpaquePointer) {
        layout = pango_cairo_create_layout(cairo)
        let font = pango_font_description_from_string("Sans")
        pango_font_description_set_absolute_size(font, fontSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, text, -1)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    var size: Size {
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }
}
