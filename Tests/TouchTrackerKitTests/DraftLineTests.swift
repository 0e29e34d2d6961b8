// Drafted live lines (whole pixels, for frames with many long lines moving) written as rows of
// pixels instead of through Cairo's unsmoothed stroke: the same pixels, within the frame's clip.
import Graphics
import PropertyBased
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Drafted lines")
struct DraftLineTests {
    static let size = (width: 240, height: 160)
    /// A polyline of 1 to 6 points over (and a little beyond) the image.
    static let polyline = zip(Gen.double(in: -20...260), Gen.double(in: -20...180)).map { Point(x: $0, y: $1) }.array(of: 1...6)

    /// Distance from `p` to the polyline `points`.
    static func distance(_ p: Point, _ points: [Point]) -> Double {
        guard points.count > 1 else { return p.distance(to: points[0]) }
        return zip(points, points.dropFirst()).map { a, b in
            let dx = b.x - a.x, dy = b.y - a.y
            let length = dx * dx + dy * dy
            let t = length == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
            return Point(x: a.x + t * dx, y: a.y + t * dy).distance(to: p)
        }.min()!
    }

    @Test("A1: a drafted line fills exactly the pixels whose centres lie within half its width of it (round caps and joins, any direction, at scale 1 and 2), and nothing outside the clip")
    func pixelsAreTheStroke() async {
        await propertyCheck(count: 80, input: Self.polyline, Gen.double(in: 1...24), Gen.bool) { points, width, doubled in
            let scale = doubled ? 2.0 : 1.0
            let image = ImageSurface(width: Self.size.width * Int(scale), height: Self.size.height * Int(scale))
            let context = CairoContext(surface: image)
            // The window's clip: whole pixels, two boxes with a gap between them.
            let clip = [Rect(x: 0, y: 0, width: 100 * scale, height: 160 * scale),
                        Rect(x: 140 * scale, y: 20 * scale, width: 100 * scale, height: 120 * scale)]
            context.clip(toUnionOf: clip)
            context.scaleBy(x: scale, y: scale)
            #expect(context.strokeDraft([SketchLine(points: points, width: width, color: .red)]))
            let r = width * scale / 2
            let pixels = points.map { Point(x: $0.x * scale, y: $0.y * scale) }
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let d = Self.distance(centre, pixels)
                    // A hair's breadth either side of the edge may go either way.
                    guard abs(d - r) > 1e-6 else { continue }
                    let inside = clip.contains { $0.contains(centre) }
                    let red = image.color(x: x, y: y) == .red
                    if red != (d < r && inside) {
                        Issue.record("pixel \(x),\(y) at \(d) px from a line \(width * scale) px wide, \(inside ? "in" : "outside") the clip: \(red ? "filled" : "empty")")
                        return
                    }
                }
            }
        }
    }

    @Test("A drafted line is left to Cairo where rows of pixels cannot match it: a translucent colour, a clip off the pixel grid")
    func fallsBack() {
        let image = ImageSurface(width: 100, height: 100)
        let context = CairoContext(surface: image)
        let line = SketchLine(points: [Point(x: 10, y: 10), Point(x: 90, y: 90)], width: 8, color: .red)
        var translucent = line
        translucent.color = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        #expect(!context.strokeDraft([line, translucent]))
        context.clip(to: Rect(x: 0.5, y: 0, width: 50, height: 100))
        #expect(!context.strokeDraft([line]))
        #expect(image.color(x: 20, y: 20) == Color(red: 0, green: 0, blue: 0, alpha: 0), "nothing drawn")
    }

    @Test("Ten long lines past the drafting budget are drawn by rows of pixels as Cairo would draw them: the same pixels but for a few on their edges")
    func sameAsCairo() {
        let lines = (0..<10).map { i in
            SketchLine(points: [Point(x: 5 + Double(i) * 20, y: 5), Point(x: 230 - Double(i) * 15, y: 150)], width: 10, color: .red)
        }
        let rows = ImageSurface(width: Self.size.width, height: Self.size.height)
        #expect(CairoContext(surface: rows).strokeDraft(lines))
        let cairo = ImageSurface(width: Self.size.width, height: Self.size.height)
        let context = CairoContext(surface: cairo)
        context.setAntialiasing(.draft)
        for line in lines {
            let stroke = Stroke.line(StrokeID(1), from: line.points[0], to: line.points[1], color: .red, width: 10)
            StrokeRenderer.draw(stroke, in: context)
        }
        var differing = 0, red = 0
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                if rows.color(x: x, y: y) == .red { red += 1 }
                if rows.color(x: x, y: y) != cairo.color(x: x, y: y) { differing += 1 }
            }
        }
        #expect(red > 10_000)
        #expect(differing * 50 < red, "\(differing) of \(red) pixels differ")
    }
}
