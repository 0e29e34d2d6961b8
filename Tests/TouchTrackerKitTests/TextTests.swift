// Text: the app's words (English, Chinese, and their other translations) drawn glyph by glyph in fontconfig's fonts, and text that
// needs shaping (Arabic, marks) through Pango, loaded on demand.
import CCairo
@testable import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Text")
struct TextTests {
    static let width = 240, height = 60

    /// Draws `text` centred on white; returns the dark pixels' count and columns, and its measured size.
    func render(_ text: String) -> (count: Int, minX: Int, maxX: Int, size: Size) {
        let image = ImageSurface(width: Self.width, height: Self.height)
        let context = CairoContext(surface: image)
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)))
        context.drawText(text, centeredIn: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)),
                         color: .black, fontSize: 20)
        var count = 0, minX = Self.width, maxX = -1
        for y in 0..<Self.height {
            for x in 0..<Self.width where (image.color(x: x, y: y)?.red ?? 1) < 0.5 {
                count += 1
                minX = min(minX, x)
                maxX = max(maxX, x)
            }
        }
        return (count, minX, maxX, context.measureText(text, fontSize: 20))
    }

    @Test("M2: 'Delete' and '删除' render as glyphs, not boxes, centred where asked")
    func menuTitlesRender() {
        let latin = render("Delete")
        #expect(latin.count > 100)
        #expect(latin.size.width > 40 && latin.size.height >= 20)
        // Centred: the ink's middle within a few pixels of the middle.
        #expect(abs(Double(latin.minX + latin.maxX) / 2 - Double(Self.width) / 2) < 4)
        let chinese = render("删除")
        #expect(chinese.count > 100)
        // A missing CJK font draws hex boxes, which are wider than two ideographs of 20 pt.
        #expect(chinese.size.width <= 44, "删除 is \(chinese.size.width) pt wide: is a CJK font installed?")
    }

    @Test("A line mixing scripts takes each character from a font that has it")
    func mixedScriptsInOneLine() {
        let mixed = render("Delete 删除")
        let latin = render("Delete"), chinese = render("删除")
        #expect(mixed.count > latin.count + chinese.count - 40)
        #expect(abs(mixed.size.width - (latin.size.width + chinese.size.width)) < 12)
    }

    @Test("The app's own words need no shaping engine, so Pango is not loaded for them")
    func appWordsAreDrawnGlyphByGlyph() {
        let words = [Strings.delete, Strings.undo, Strings.redo, Strings.line, Strings.freehand, Strings.circle,
                     Strings.angle, Strings.speed, Strings.fingers, Strings.colours,
                     "删除", "撤销", "重做", "直线", "自由", "圆", "角度色", "速度宽", "手指", "颜色",
                     "TouchTracker", "drawing.json: the file is damaged; the drawing was not opened (line 3)"]
        for word in words {
            #expect(!TextShaping.needsShaping(word), "\(word)")
        }
    }

    @Test("Right-to-left, joining and combining text is recognised as needing shaping")
    func complexTextIsRecognised() {
        for text in ["حذف", "מחק", "हिन्दी", "ไทย", "e\u{301}", "👍🏽", "a\u{200D}b"] {
            #expect(TextShaping.needsShaping(text), "\(text)")
        }
        for text in ["Ünïcødé", "Ελληνικά", "Кириллица", "日本語のテキスト", "한국어"] {
            #expect(!TextShaping.needsShaping(text), "\(text)")
        }
    }

    @Test("Arabic is laid out by Pango, joined, and drawn")
    func arabicIsShaped() throws {
        let image = ImageSurface(width: 10, height: 10)
        let context = CairoContext(surface: image)
        let line = TextLine("حذف", fontSize: 20, cairo: context.cairo)
        #expect(line.isShaped, "libpangocairo-1.0.so.0 could not be loaded")
        let drawn = render("حذف")
        #expect(drawn.count > 60)
        // Shaped, the letters take their joined forms and run right to left: the picture differs
        // from the same letters drawn one by one in memory order.
        #expect(pixels(of: "حذف", shaped: true) != pixels(of: "حذف", shaped: false))
    }

    @Test("Hebrew is laid out by Pango right to left: the first letter in memory is drawn rightmost")
    func hebrewRunsRightToLeft() throws {
        // Lamed (ל) rises above the other letters, final nun (ן) drops below the baseline: the
        // ascender's ink shows where the first letter went.
        let image = ImageSurface(width: 80, height: 40)
        let context = CairoContext(surface: image)
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: 80, height: 40))
        cairo_set_source_rgb(context.cairo, 0, 0, 0)
        let line = TextLine("לן", fontSize: 24, cairo: context.cairo)
        #expect(line.isShaped)
        line.draw(in: context.cairo, left: 4, top: 4)
        let ink = (0..<40).map { y in (0..<80).filter { x in (image.color(x: x, y: y)?.red ?? 1) < 0.5 } }
        let top = try #require(ink.first { !$0.isEmpty }), bottom = try #require(ink.last { !$0.isEmpty })
        let middle = { (columns: [Int]) in Double(columns.reduce(0, +)) / Double(columns.count) }
        #expect(middle(top) > middle(bottom) + 4, "lamed's top at x \(middle(top)), final nun's tail at x \(middle(bottom))")
    }

    /// The dark pixels of `text` drawn at the top left by one engine or the other.
    func pixels(of text: String, shaped: Bool) -> [Bool] {
        let image = ImageSurface(width: 80, height: 40)
        let context = CairoContext(surface: image)
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: 80, height: 40))
        cairo_set_source_rgb(context.cairo, 0, 0, 0)
        if shaped {
            PangoLine(text, fontSize: 20, cairo: context.cairo)?.draw(in: context.cairo, left: 4, top: 4)
        } else {
            GlyphLine(text, fontSize: 20, cairo: context.cairo).draw(in: context.cairo, left: 4, top: 4)
        }
        return (0..<40).flatMap { y in (0..<80).map { x in (image.color(x: x, y: y)?.red ?? 1) < 0.5 } }
    }

    @Test("Glyph-by-glyph text measures as Pango measures it, kerning included")
    func glyphLinesMatchPango() throws {
        let image = ImageSurface(width: 10, height: 10)
        let context = CairoContext(surface: image)
        for text in ["Delete", "Undo", "Colours", "删除", "TouchTracker 删除", "AV Wa To Ty"] {
            let glyphs = GlyphLine(text, fontSize: 20, cairo: context.cairo).size
            let pango = try #require(PangoLine(text, fontSize: 20, cairo: context.cairo)).size
            #expect(abs(glyphs.width - pango.width) <= 2, "\(text): \(glyphs) against Pango's \(pango)")
            #expect(abs(glyphs.height - pango.height) <= 2, "\(text): \(glyphs) against Pango's \(pango)")
        }
    }

    @Test("Empty text has no width but a line's height, and control characters draw nothing")
    func emptyAndControlText() {
        let empty = render("")
        #expect(empty.count == 0 && empty.size.width == 0 && empty.size.height >= 20)
        #expect(render("Delete\n").size == render("Delete").size)
    }
}
