// One line of text as positioned glyphs, character after character: right for the scripts the
// app's own words use (Latin, Chinese) and most names. `TextShaping` decides when a string needs
// more (joining, reordering, marks, right-to-left) and hands it to Pango instead.
import CCairo
import TouchKit

struct GlyphLine {
    /// Consecutive glyphs from one font.
    struct Run {
        let face: OpaquePointer
        let glyphs: [cairo_glyph_t]
    }

    let runs: [Run]
    let fontSize: Double
    /// From the origin of the first glyph to the pen position after the last.
    let width: Double
    /// The largest ascent and descent of the fonts used (Pango's logical height for one line).
    let ascent: Double
    let descent: Double

    /// Whole pixels, rounded out, as Pango reports a layout's pixel size.
    var size: Size { Size(width: width.rounded(.up), height: (ascent + descent).rounded(.up)) }

    init(_ text: String, fontSize: Double, cairo: OpaquePointer) {
        let fonts = FontList.shared.fonts
        var runs: [Run] = []
        var x = 0.0, ascent = 0.0, descent = 0.0
        cairo_save(cairo)
        cairo_set_font_size(cairo, fontSize)
        for (fontIndex, piece) in Self.pieces(of: text) {
            let face = fonts[fontIndex].face
            cairo_set_font_face(cairo, face)
            let scaled = cairo_get_scaled_font(cairo)
            var metrics = cairo_font_extents_t()
            cairo_scaled_font_extents(scaled, &metrics)
            ascent = max(ascent, metrics.ascent)
            descent = max(descent, metrics.descent)
            var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
            var count: Int32 = 0
            let status = piece.withCString {
                cairo_scaled_font_text_to_glyphs(scaled, x, 0, $0, -1, &glyphs, &count, nil, nil, nil)
            }
            guard status == CAIRO_STATUS_SUCCESS, let glyphs else { continue }
            defer { cairo_glyph_free(glyphs) }
            guard count > 0 else { continue }
            var extents = cairo_text_extents_t()
            cairo_scaled_font_glyph_extents(scaled, glyphs, count, &extents)
            var run = Array(UnsafeBufferPointer(start: glyphs, count: Int(count)))
            x += extents.x_advance + Self.kern(&run, scaled: scaled, fontSize: fontSize)
            runs.append(Run(face: face, glyphs: run))
        }
        cairo_restore(cairo)
        if runs.isEmpty, let first = fonts.first {
            // An empty line still has the primary font's height, as in Pango.
            cairo_save(cairo)
            cairo_set_font_size(cairo, fontSize)
            cairo_set_font_face(cairo, first.face)
            var metrics = cairo_font_extents_t()
            cairo_font_extents(cairo, &metrics)
            ascent = metrics.ascent
            descent = metrics.descent
            cairo_restore(cairo)
        }
        self.runs = runs
        self.fontSize = fontSize
        self.width = x
        self.ascent = ascent
        self.descent = descent
    }

    /// Draws the line with the top of its logical box at `top`, in the context's current source.
    func draw(in cairo: OpaquePointer, left: Double, top: Double) {
        cairo_save(cairo)
        cairo_translate(cairo, left, top + ascent)
        cairo_set_font_size(cairo, fontSize)
        for run in runs {
            cairo_set_font_face(cairo, run.face)
            run.glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cairo, $0.baseAddress, Int32($0.count)) }
        }
        cairo_restore(cairo)
    }

    /// Moves each glyph by the font's kerning with the one before it ("To", "AV"), from the font's
    /// `kern` table, and returns how far the run's end moved. Fonts that kern only through OpenType
    /// (GPOS) tables keep their designed advances: reading those would need HarfBuzz.
    static func kern(_ glyphs: inout [cairo_glyph_t], scaled: OpaquePointer?, fontSize: Double) -> Double {
        guard glyphs.count > 1, let face = cairo_ft_scaled_font_lock_face(scaled) else { return 0 }
        defer { cairo_ft_scaled_font_unlock_face(scaled) }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0, face.pointee.units_per_EM > 0 else { return 0 }
        let perUnit = fontSize / Double(face.pointee.units_per_EM)
        var shift = 0.0
        for i in 1..<glyphs.count {
            var delta = FT_Vector()
            if FT_Get_Kerning(face, FT_UInt(glyphs[i - 1].index), FT_UInt(glyphs[i].index),
                              FT_UInt(FT_KERNING_UNSCALED.rawValue), &delta) == 0 {
                shift += Double(delta.x) * perUnit
            }
            glyphs[i].x += shift
        }
        return shift
    }

    /// The text split where the font changes; line breaks and other controls are left out (one line).
    static func pieces(of text: String) -> [(font: Int, text: String)] {
        var pieces: [(font: Int, text: String)] = []
        let fonts = FontList.shared
        for character in text {
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { continue }
            let font = fonts.fontIndex(for: character)
            if let last = pieces.last, last.font == font {
                pieces[pieces.count - 1].text.append(character)
            } else {
                pieces.append((font, String(character)))
            }
        }
        return pieces
    }
}
