// The UI font and its fallbacks, as fontconfig orders them for "sans-serif" in the user's language:
// DejaVu Sans first here, then Noto Sans CJK for Chinese, and so on. Each character is drawn in the
// first font that has it, as Pango would choose, without loading Pango (about 4 MiB of libraries).
import CCairo

/// The sans-serif fonts in fontconfig's order, each ready for Cairo. Built once per process and
/// never changed afterwards, so every thread can read it.
final class FontList: @unchecked Sendable {
    struct Font {
        let face: OpaquePointer
        /// The characters the font has (owned by `fontSet`).
        let charset: OpaquePointer?
    }

    static let shared = FontList()

    let fonts: [Font]
    private let fontSet: UnsafeMutablePointer<FcFontSet>?

    private init() {
        let pattern = FcPatternCreate()
        "sans-serif".withCString {
            _ = FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        // Trimmed: fonts that add no characters to those before them are left out.
        fontSet = FcFontSort(nil, pattern, FcTrue, nil, &result)
        var fonts: [Font] = []
        if let set = fontSet?.pointee, let entries = set.fonts {
            for i in 0..<Int(set.nfont) {
                guard let candidate = entries[i],
                      let prepared = FcFontRenderPrepare(nil, pattern, candidate) else { continue }
                var charset: OpaquePointer?
                FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset)
                // The face keeps its own reference to the pattern.
                let face = cairo_ft_font_face_create_for_pattern(prepared)
                FcPatternDestroy(prepared)
                if let face, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS {
                    fonts.append(Font(face: face, charset: charset))
                }
            }
        }
        FcPatternDestroy(pattern)
        if fonts.isEmpty {
            // No font configured at all: Cairo's built-in choice still draws something.
            fonts.append(Font(face: cairo_toy_font_face_create("sans-serif", CAIRO_FONT_SLANT_NORMAL,
                                                               CAIRO_FONT_WEIGHT_NORMAL), charset: nil))
        }
        self.fonts = fonts
    }

    /// The index in `fonts` of the first font that has every scalar of `character`; the first
    /// font when none has them (it draws its missing-glyph box, as Pango does).
    func fontIndex(for character: Character) -> Int {
        let scalars = character.unicodeScalars
        for (index, font) in fonts.enumerated() {
            guard let charset = font.charset else { continue }
            if scalars.allSatisfy({ FcCharSetHasChar(charset, $0.value) != 0 || Self.isInvisible($0) }) {
                return index
            }
        }
        return 0
    }

    /// Format characters fonts often lack but that draw nothing anyway.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format
    }
}
