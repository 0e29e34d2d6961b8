// A banner's message wrapped to its width: at spaces, and after the slashes of a path.
import Testing
@testable import TouchTrackerKit

@Suite("Banner lines")
struct BannerLinesTests {
    /// One unit a character.
    static func width(_ text: String) -> Double { Double(text.count) }

    @Test("Words wrap at spaces, a path after its slashes; every line fits; nothing is lost")
    func wraps() {
        let message = "New drawing drawing 2.json in /home/someone/.local/share/touchtracker; drawing.json is kept"
        let lines = BannerLines.wrap(message, width: 36, measure: Self.width)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.allSatisfy { Self.width($0) <= 36 }, "\(lines)")
        #expect(lines.joined(separator: " ").filter { $0 != " " } == message.filter { $0 != " " })
        #expect(lines[1].hasPrefix("someone/") || lines[0].hasSuffix("/"), "a path breaks after a slash: \(lines)")
    }

    @Test("A message that fits is one line; more than three lines end the third with an ellipsis that fits")
    func fitsAndEllipsis() {
        #expect(BannerLines.wrap("Exported", width: 30, measure: Self.width) == ["Exported"])
        let long = String(repeating: "word ", count: 40)
        let lines = BannerLines.wrap(long, width: 20, measure: Self.width)
        #expect(lines.count == BannerLines.maxLines && lines.last!.hasSuffix("…") && lines.allSatisfy { Self.width($0) <= 20 })
    }
}
