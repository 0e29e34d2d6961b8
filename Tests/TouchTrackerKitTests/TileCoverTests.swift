// A tile of the line cache under enough opaque lines is drawn from the first of the topmost that
// cover it whole: what lies beneath cannot show, so the tile's pixels are the same as with every
// stroke drawn.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("A line cache tile covered by its topmost lines")
struct TileCoverTests {
    /// Wide lines of many colours, some not opaque, over `area`, the same every run.
    static func wide(_ count: Int, in area: Rect, widths: ClosedRange<Double>, firstID: Int) -> [Stroke] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ limit: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * limit
        }
        func point() -> Point { Point(x: area.minX + next(area.width), y: area.minY + next(area.height)) }
        let colors: [Color] = [.black, .blue, Color(red: 0.9, green: 0.3, blue: 0.1), Color(red: 0.2, green: 0.6, blue: 0.3, alpha: 0.5)]
        return (0..<count).map { i in
            let id = StrokeID(firstID + i), color = colors[i % colors.count]
            let width = widths.lowerBound + next(widths.upperBound - widths.lowerBound)
            switch i % 7 {
            case 0: return Stroke(id: id, kind: .circle, points: [point(), point()], color: color, width: width)
            case 1: return Stroke(id: id, points: (0..<5).map { _ in point() }, color: color, width: width)
            default: return .line(id, from: point(), to: point(), color: color, width: width)
            }
        }
    }

    /// `strokes` drawn into `tile` of a raster like `cache`'s, on `paper`.
    static func draw(_ strokes: ArraySlice<Stroke>, tile: Rect, size: Size, viewport: CanvasViewport, paper: Color) -> [UInt32] {
        let image = ImageSurface(size: size, scale: 1)
        let context = LineCache.strokeContext(image, viewport: viewport, area: tile, paper: paper)
        StrokeRenderer.draw(strokes, in: context, ink: .trueColors)
        return image.pixelWords()
    }

    @Test("zoomed in on hundreds of wide lines, a tile is drawn from the first of the topmost lines covering it, to the same pixels")
    func coveredTileSkipsWhatIsBeneath() throws {
        // Lines of the drawing 10 to 40 pt wide within 60 pt, at 800 %: each wider than the tile.
        let area = Rect(x: 0, y: 0, width: 60, height: 60)
        let strokes = LineCacheBandsTests.mixed(300, in: area) + Self.wide(300, in: area, widths: 10...40, firstID: 1_000)
        let viewport = CanvasViewport(origin: Point(x: 10, y: 12), zoom: 8)
        let size = Size(width: 300, height: 300)
        let cache = LineCache(drawing: Drawing(strokes: strokes), ink: .trueColors)
        _ = cache.image(size: size, scale: 1, viewport: viewport)
        for tile in [Rect(x: 0, y: 0, width: 256, height: 256), Rect(x: 256, y: 0, width: 256, height: 256),
                     Rect(x: 100, y: 180, width: 64, height: 120)] {
            let shown = cache.shown(strokes, in: tile)
            #expect(shown.startIndex > strokes.count - LineCache.coverLook, "tile \(tile): drawn from stroke \(shown.startIndex) of \(strokes.count)")
            // Paper no pixel may show, under the strokes shown; every stroke on white.
            let fromCover = Self.draw(shown, tile: tile, size: size, viewport: viewport, paper: Color(red: 1, green: 0, blue: 1))
            let all = Self.draw(strokes[...], tile: tile, size: size, viewport: viewport, paper: .white)
            let differing = zip(fromCover, all).count { $0 != $1 }
            #expect(differing == 0, "tile \(tile): \(differing) pixels differ")
        }
    }

    @Test("lines 32 px wide stacked 28 px apart cover a tile; 33 px apart they leave a row bare between them, and every stroke is drawn")
    func coverIsExact() throws {
        let size = Size(width: 300, height: 300)
        let viewport = CanvasViewport(origin: .zero, zoom: 8)
        let tile = Rect(x: 0, y: 0, width: 256, height: 256)
        let beneath = LineCacheBandsTests.mixed(200, in: Rect(x: 0, y: 0, width: 32, height: 32))
        for (spacing, covers) in [(28.0, true), (33.0, false)] {
            // Across the tile and past it, 4 pt (32 px) wide, from above its top to below its bottom.
            let stacked = stride(from: 0.0, through: 300, by: spacing).enumerated().map { k, y in
                Stroke.line(StrokeID(1_000 + k), from: Point(x: -5, y: y / 8), to: Point(x: 40, y: y / 8), color: .black, width: 4)
            }
            let strokes = beneath + stacked
            let cache = LineCache(drawing: Drawing(strokes: strokes), ink: .trueColors)
            _ = cache.image(size: size, scale: 1, viewport: viewport)
            let shown = cache.shown(strokes, in: tile)
            #expect((shown.startIndex >= beneath.count) == covers, "\(spacing) px apart: drawn from stroke \(shown.startIndex) of \(strokes.count)")
            let fromCover = Self.draw(shown, tile: tile, size: size, viewport: viewport, paper: Color(red: 1, green: 0, blue: 1))
            let all = Self.draw(strokes[...], tile: tile, size: size, viewport: viewport, paper: covers ? .white : Color(red: 1, green: 0, blue: 1))
            #expect(zip(fromCover, all).count { $0 != $1 } == 0, "\(spacing) px apart: pixels differ")
        }
        // Covered, but too few strokes to look: all of them are drawn.
        let few = Array(beneath.prefix(2 * LineCache.coverLook))
        let cache = LineCache(drawing: Drawing(strokes: few), ink: .trueColors)
        _ = cache.image(size: size, scale: 1, viewport: viewport)
        #expect(cache.shown(few, in: tile).startIndex == 0)
    }
}
