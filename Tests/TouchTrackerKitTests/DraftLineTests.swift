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
            #expect(context.strokePixels([Polyline(points: points, width: width, color: .red)]))
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
        let line = Polyline(points: [Point(x: 10, y: 10), Point(x: 90, y: 90)], width: 8, color: .red)
        var translucent = line
        translucent.color = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        #expect(!context.strokePixels([line, translucent]))
        context.clip(to: Rect(x: 0.5, y: 0, width: 50, height: 100))
        #expect(!context.strokePixels([line]))
        #expect(image.color(x: 20, y: 20) == Color(red: 0, green: 0, blue: 0, alpha: 0), "nothing drawn")
    }

    @Test("Ten long lines past the drafting budget are drawn by rows of pixels as Cairo would draw them: the same pixels but for a few on their edges")
    func sameAsCairo() {
        let lines = (0..<10).map { i in
            Polyline(points: [Point(x: 5 + Double(i) * 20, y: 5), Point(x: 230 - Double(i) * 15, y: 150)], width: 10, color: .red)
        }
        let rows = ImageSurface(width: Self.size.width, height: Self.size.height)
        #expect(CairoContext(surface: rows).strokePixels(lines))
        let cairo = ImageSurface(width: Self.size.width, height: Self.size.height)
        let context = CairoContext(surface: cairo)
        context.setAntialiasing(.draft)
        // Cairo's own unsmoothed stroke, through the path.
        for line in lines { context.strokeAsPath(line) }
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

@Suite("Finished lines as rows of pixels")
struct SmoothLineTests {
    static let size = (width: 120, height: 80)

    /// The largest difference of any channel between two images, in 0...1.
    static func worst(_ a: ImageSurface, _ b: ImageSurface, in box: (x: Range<Int>, y: Range<Int>)) -> Double {
        var worst = 0.0
        for y in box.y {
            for x in box.x {
                guard let p = a.color(x: x, y: y), let q = b.color(x: x, y: y) else { return 1 }
                worst = max(worst, abs(p.red - q.red), abs(p.green - q.green), abs(p.blue - q.blue))
            }
        }
        return worst
    }

    @Test("A1: a finished straight line is drawn as rows of pixels where Cairo draws it (within a tenth of a pixel's coverage of Cairo's smooth stroke: steep, flat, diagonal, a dot, at scale 1 and 2), and a tile of the line cache re-made through its clip gets exactly the pixels of the whole line")
    func rowsMatchCairoAndTiles() {
        let cases: [(Point, Point, Double, Bool)] = [
            (Point(x: 5, y: 7), Point(x: 110, y: 70), 10, false), (Point(x: 60, y: -5), Point(x: 61, y: 85), 3, true),
            (Point(x: -8, y: 40), Point(x: 128, y: 43), 24, false), (Point(x: 90, y: 10), Point(x: 20, y: 75), 1.5, true),
            (Point(x: 50, y: 35), Point(x: 50, y: 35), 12, false), (Point(x: 10, y: 70), Point(x: 115, y: 5), 7.3, true),
        ]
        for (a, b, width, doubled) in cases {
            let scale = doubled ? 2.0 : 1.0
            let (w, h) = (Self.size.width * Int(scale), Self.size.height * Int(scale))
            let stroke = Stroke.line(StrokeID(1), from: a, to: b, color: .black, width: width)
            func paper() -> (ImageSurface, CairoContext) {
                let image = ImageSurface(width: w, height: h)
                let context = CairoContext(surface: image)
                context.setFillColor(.white)
                context.fill(Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
                context.scaleBy(x: scale, y: scale)
                return (image, context)
            }
            let (rows, rowsContext) = paper()
            StrokeRenderer.draw(stroke, in: rowsContext)
            // Cairo's own smooth stroke.
            let (cairo, cairoContext) = paper()
            cairoContext.setStrokeColor(.black)
            cairoContext.setLineWidth(width)
            cairoContext.setLineCap(.round)
            cairoContext.move(to: a)
            cairoContext.addLine(to: b)
            cairoContext.strokePath()
            let all = (x: 0..<w, y: 0..<h)
            #expect(Self.worst(rows, cairo, in: all) <= 0.1, "against Cairo: \(a) \(b) width \(width) scale \(scale)")
            // A tile (whole pixels at this scale) re-made through its clip.
            let (tile, tileContext) = paper()
            let box = Rect(x: 30, y: 20, width: 40, height: 30)
            tileContext.clip(to: box)
            StrokeRenderer.draw(stroke, in: tileContext)
            let inside = (x: Int(box.minX * scale)..<Int(box.maxX * scale), y: Int(box.minY * scale)..<Int(box.maxY * scale))
            #expect(Self.worst(tile, rows, in: inside) == 0, "the tile's pixels are the whole line's")
            let blank = paper().0
            let outside = max(Self.worst(tile, blank, in: (x: 0..<w, y: 0..<inside.y.lowerBound)),
                              Self.worst(tile, blank, in: (x: 0..<w, y: inside.y.upperBound..<h)),
                              Self.worst(tile, blank, in: (x: 0..<inside.x.lowerBound, y: inside.y)),
                              Self.worst(tile, blank, in: (x: inside.x.upperBound..<w, y: inside.y)))
            #expect(outside == 0, "nothing drawn outside the tile")
        }
    }
}
