// Text on the Cairo context: menu items, button titles, messages. Most strings are drawn glyph by
// glyph in fontconfig's fonts (GlyphLine), so "删除" renders with whatever CJK font the system has;
// those that need shaping go to Pango, loaded only then (PangoLine).
import CCairo
import TouchKit

extension CairoContext: TextRenderingContext {
    /// Draws one line of text centred in `rect`.
    public func drawText(_ text: String, centeredIn rect: Rect, color: Color, fontSize: Double) {
        cairo_save(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        switch TextLine(text, fontSize: fontSize, cairo: cairo) {
        case .glyphs(let line):
            let size = line.size
            line.draw(in: cairo, left: rect.midX - size.width / 2, top: rect.midY - size.height / 2)
        case .shaped(let line):
            let size = line.size
            cairo_move_to(cairo, rect.midX - size.width / 2, rect.midY - size.height / 2)
            line.show(in: cairo)
        }
        cairo_restore(cairo)
    }

    /// The size one line of text takes, in points.
    public func measureText(_ text: String, fontSize: Double) -> Size {
        switch TextLine(text, fontSize: fontSize, cairo: cairo) {
        case .glyphs(let line): line.size
        case .shaped(let line): line.size
        }
    }
}

/// One laid-out line, by whichever engine the text needs.
enum TextLine {
    case glyphs(GlyphLine)
    case shaped(PangoLine)

    init(_ text: String, fontSize: Double, cairo: OpaquePointer) {
        if TextShaping.needsShaping(text), let shaped = PangoLine(text, fontSize: fontSize, cairo: cairo) {
            self = .shaped(shaped)
        } else {
            self = .glyphs(GlyphLine(text, fontSize: fontSize, cairo: cairo))
        }
    }

    /// Which engine drew it, for tests.
    var isShaped: Bool {
        if case .shaped = self { true } else { false }
    }
}
