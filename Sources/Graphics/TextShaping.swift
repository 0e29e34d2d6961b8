// Which strings can be drawn character by character and which need a shaping engine. Wrong in the
// safe direction: anything doubtful goes to Pango, which only costs loading it.

enum TextShaping {
    /// True when `text` has a character whose look depends on its neighbours or whose order on
    /// screen differs from the order in memory.
    static func needsShaping(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: needsShaping)
    }

    static func needsShaping(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        switch scalar.properties.generalCategory {
        // Combining marks: placed on their base letter by the font's tables.
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: break
        }
        return complexRanges.contains { $0.contains(scalar.value) }
    }

    private static let complexRanges: [ClosedRange<UInt32>] = [
        0x0590...0x08FF,   // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic: right to left, joining
        0x0900...0x0DFF,   // Indic scripts: conjuncts and reordering
        0x0E00...0x0EFF,   // Thai, Lao
        0x0F00...0x109F,   // Tibetan, Myanmar
        0x1100...0x11FF,   // Hangul jamo, composed into syllables
        0x1700...0x18AF,   // Philippine scripts, Khmer, Mongolian
        0x1900...0x1CFF,   // Limbu, Tai, Balinese, Sundanese, Batak, Lepcha, Vedic ...
        0x200C...0x200F,   // joiners and direction marks
        0x202A...0x202E,   // bidi embeddings and overrides
        0x2066...0x2069,   // bidi isolates
        0xA800...0xABFF,   // Syloti Nagri ... Meetei Mayek
        0xD7B0...0xD7FF,   // Hangul jamo extended
        0xFB1D...0xFDFF,   // Hebrew and Arabic presentation forms
        0xFE00...0xFE0F,   // variation selectors
        0xFE70...0xFEFF,   // Arabic presentation forms B
        0x10800...0x11FFF, // historic right-to-left and Brahmic scripts
        0x1E800...0x1EFFF, // Mende Kikakui, Adlam, Arabic mathematical letters
        0x1F1E6...0x1F1FF, // regional indicators: flags are pairs
        0x1F3FB...0x1F3FF, // emoji skin tones
        0xE0000...0xE01EF, // tags and variation selectors supplement
    ]
}
