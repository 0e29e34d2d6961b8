// The line cache's whole build drawn in bands of rows on several threads: the bands share the
// work where the drawing is, and the raster is the one a single pass draws. A scroll moves the
// raster's pixels in place.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("The line cache's build in bands")
struct LineCacheBandsTests {
    /// Lines, freehand strokes and circles of many colours and widths in `area`, the same every run.
    static func mixed(_ count: Int, in area: Rect) -> [Stroke] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ limit: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * limit
        }
        func point() -> Point { Point(x: area.minX + next(area.width), y: area.minY + next(area.height)) }
        let colors: [Color] = [.black, .blue, .red, Color(red: 0.2, green: 0.7, blue: 0.3)]
        return (0..<count).map { i in
            let id = StrokeID(i + 1), color = colors[i % colors.count], width = 1 + next(20)
            switch i % 5 {
            case 0: return Stroke(id: id, kind: .circle, points: [point(), point()], color: color, width: width)
            case 1: return Stroke(id: id, points: (0..<6).map { _ in point() }, color: color, width: width)
            default: return .line(id, from: point(), to: point(), color: color, width: width)
            }
        }
    }

    /// Whether two ARGB32 pixels differ by more than one step in a channel.
    static func channelsDiffer(_ p: UInt32, _ q: UInt32) -> Bool {
        for shift: UInt32 in [0, 8, 16, 24] {
            let a = Int((p >> shift) & 0xFF), b = Int((q >> shift) & 0xFF)
            if abs(a - b) > 1 { return true }
        }
        return false
    }

    @Test("a drawing in the top tenth of the window is cut there, not at half the window's height")
    func cutsWhereTheWorkIs() {
        let strokes = Self.mixed(2_000, in: Rect(x: 0, y: 0, width: 800, height: 60))
        let cuts = LineCache.workCuts(strokes, rows: 600, count: 2, rowOf: { $0 })
        #expect(cuts.count == 3 && cuts.first == 0 && cuts.last == 600)
        #expect((15...60).contains(cuts[1]), "cut at row \(cuts[1])")
        // Nothing shown: equal heights.
        #expect(LineCache.workCuts(strokes, rows: 600, count: 2, rowOf: { $0 + 5_000 }) == [0, 300, 600])
    }

    /// Strips of the whole raster's height, and of 16 rows (the least): strokes cross strips.
    @Test("the raster built in bands, at 100 %, 250 % and 10 %, and at scale 2, is what one pass draws",
          arguments: [1 << 20, 0])
    func bandsDrawWhatOnePassDraws(stripBytes: Int) throws {
        let strokes = Self.mixed(600, in: Rect(x: -50, y: -50, width: 500, height: 400))
        let size = Size(width: 400, height: 300)
        for (viewport, scale) in [(CanvasViewport.identity, 1.0), (CanvasViewport(origin: Point(x: 30, y: 20), zoom: 2.5), 1),
                                  (CanvasViewport(origin: Point(x: -100, y: -80), zoom: 0.1), 1), (.identity, 2)] {
            let cache = LineCache(drawing: Drawing(strokes: strokes), ink: .trueColors)
            cache.stripBytes = stripBytes
            let built = cache.image(size: size, scale: scale, viewport: viewport)
            let bands = LineCache.bands(of: built, viewport: viewport, strokes: strokes)
            #expect(bands.count == min(LineCache.buildThreads, built.height / 16) || bands.count < LineCache.buildThreads)

            let single = ImageSurface(size: size, scale: scale)
            let context = LineCache.strokeContext(single, viewport: viewport, area: Rect(origin: .zero, size: size),
                                                  paper: ScreenInk.trueColors.paper)
            StrokeRenderer.draw(strokes, in: context, ink: .trueColors)

            let a = built.pixelWords(), b = single.pixelWords()
            try #require(a.count == b.count)
            let differing = zip(a, b).count { p, q in Self.channelsDiffer(p, q) }
            #expect(differing == 0, "\(viewport) at scale \(scale): \(differing) of \(a.count) pixels differ")
        }
    }

    @Test("a scroll's move of the raster's pixels in place, in every direction, is the copy it stands for")
    func pixelsShiftInPlace() {
        let (width, height) = (37, 23)
        func patterned() -> ImageSurface {
            let image = ImageSurface(width: width, height: height)
            let context = CairoContext(surface: image)
            for y in 0..<height {
                for x in 0..<width where (x * 7 + y * 13) % 5 != 0 {
                    context.replace(Rect(x: Double(x), y: Double(y), width: 1, height: 1),
                                    with: Color(red: Double(x) / 40, green: Double(y) / 30, blue: 0.5))
                }
            }
            return image
        }
        let original = patterned().pixelWords()
        for dx in [-40, -5, 0, 3] {
            for dy in [-4, 0, 6, 30] {
                let image = patterned()
                image.shiftPixels(dx: dx, dy: dy)
                let shifted = image.pixelWords()
                var wrong = 0
                for y in 0..<height {
                    for x in 0..<width {
                        let (sx, sy) = (x - dx, y - dy)
                        let moved = (0..<width).contains(sx) && (0..<height).contains(sy)
                        // Moved pixels come from their old place; uncovered ones keep theirs.
                        let expected = moved ? original[sy * width + sx] : original[y * width + x]
                        if shifted[y * width + x] != expected { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "shift by (\(dx), \(dy)): \(wrong) pixels wrong")
            }
        }
    }
}
