// Text on the Cairo context: menu items, button titles, messages. Most strings are drawn glyph by
// glyph in fontconfig's fonts (GlyphLine), so "删除" renders with whatever CJK font the system has;
// those that need shaping go to Pango, loaded only then (PangoLine).
import CCairo
import TouchKit

extension CairoContext {
    /// Draws one line of text centred in `rect`.
    public func drawText(_ text: String, centeredIn rect: Rect, color: Color, fontSize: Double) {
        cairo_save(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        let line = TextLine(text, fontSize: fontSize, cairo: cairo)
        let size = line.size
        line.draw(in: cairo, left: rect.midX - size.width / 2, top: rect.midY - size.height / 2)
        cairo_restore(cairo)
    }

    /// The size one line of text takes, in points.
    public func measureText(_ text: String, fontSize: Double) -> Size {
        TextLine(text, fontSize: fontSize, cairo: cairo).size
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

    /// Whole pixels, as Pango reports a layout's size.
    var size: Size {
        switch self {
        case .glyphs(let line): line.size
        case .shaped(let line): line.size
        }
    }

    /// Draws the line with the top left of its logical box at (`left`, `top`).
    func draw(in cairo: OpaquePointer, left: Double, top: Double) {
        switch self {
        case .glyphs(let line): line.draw(in: cairo, left: left, top: top)
        case .shaped(let line): line.draw(in: cairo, left: left, top: top)
        }
    }

    /// Which engine drew it, for tests.
    var isShaped: Bool {
        if case .shaped = self { true } else { false }
    }
}
