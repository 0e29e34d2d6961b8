// Which way the window runs, from the catalogue gettext uses, and the mirrored layouts (A12).
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Layout direction")
struct LayoutDirectionTests {
    @Test("A12: a catalogue in Hebrew, Arabic or Persian runs right to left; German, none, or no Language line left to right",
          arguments: [("Language: he\n", true), ("Project-Id-Version: x\nLanguage: ar_EG\n", true), ("Language: fa@latin\n", true),
                      ("Language: de\n", false), ("", false), ("Content-Type: text/plain\n", false), ("Language: hr\n", false)])
    func direction(_ header: String, _ rightToLeft: Bool) {
        #expect(LayoutDirection.of(catalogueHeader: header) == (rightToLeft ? .rightToLeft : .leftToRight))
    }

    @Test("A12: right to left, every control and swatch is its left-to-right frame mirrored about the middle; undo's and redo's icons turned")
    func mirrored() {
        for width in [360.0, 1024] {
            let ltr = ToolbarView.layout(width: width), rtl = ToolbarView.layout(width: width, direction: .rightToLeft)
            #expect(ltr.keys == rtl.keys)
            for (item, frame) in ltr {
                #expect(rtl[item] == Rect(x: width - frame.maxX, y: frame.minY, width: frame.width, height: frame.height), "\(item) at \(width)")
            }
            let swatches = zip(PaletteView.swatchFrames(width: width), PaletteView.swatchFrames(width: width, direction: .rightToLeft))
            for (left, right) in swatches { #expect(right.minX == width - left.maxX && right.minY == left.minY) }
        }
        let undo = ToolbarView.Item.undo.icon(.rightToLeft)
        #expect(undo.names == ["edit-undo-symbolic-rtl", "edit-undo-symbolic"])
        #expect(undo.fallback != ToolbarView.Item.undo.icon.fallback && undo.fallback.contains("matrix(-1 0 0 1 16 0)"))
        #expect(ToolbarView.Item.line.icon(.rightToLeft) == ToolbarView.Item.line.icon)
    }
}
