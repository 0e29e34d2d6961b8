// Text through Pango: Latin and Chinese menu titles render with real glyphs.
import Graphics
import Testing
import TouchKit

@Suite("Text")
struct TextTests {
    func inkedPixels(_ text: String) -> (count: Int, size: Size) {
        let image = ImageSurface(width: 200, height: 60)
        let context = CairoContext(surface: image)
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: 200, height: 60))
        context.drawText(text, centeredIn: Rect(x: 0, y: 0, width: 200, height: 60), color: .black, fontSize: 20)
        var count = 0
        for y in 0..<60 {
            for x in 0..<200 where (image.color(x: x, y: y)?.red ?? 1) < 0.5 { count += 1 }
        }
        return (count, context.measureText(text, fontSize: 20))
    }

    @Test("M2: 'Delete' and '删除' render as glyphs, not boxes, centred where asked")
    func menuTitlesRender() {
        let latin = inkedPixels("Delete")
        #expect(latin.count > 100)
        #expect(latin.size.width > 40 && latin.size.height >= 20)
        let chinese = inkedPixels("删除")
        #expect(chinese.count > 100)
        // A missing CJK font draws hex boxes, which are wider than two ideographs of 20 pt.
        #expect(chinese.size.width <= 44, "删除 is \(chinese.size.width) pt wide: is a CJK font installed?")
    }
}
