// A frame brought into a window buffer as the host does it: what the buffer lacks from earlier
// frames copied from the buffer shown last, the frame's own change painted through a few boxes
// of the exact union of what changed.
import Graphics
import PropertyBased
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Buffer updates")
struct BufferUpdateTests {
    /// Random rectangles over a 1000 x 700 pixel area.
    static let rects = zip(Gen.int(in: 0...900), Gen.int(in: 0...600), Gen.int(in: 1...300), Gen.int(in: 1...200))
        .map { x, y, w, h in Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h)) }

    @Test("The few boxes a region is painted through cover every one of its pixels, do not overlap, and stay within the count")
    func coarseBoxesCover() async {
        await propertyCheck(count: 200, input: Self.rects.array(of: 1...300), Gen.int(in: 4...128)) { pixels, count in
            let region = PixelRegion(pixels: pixels)
            let boxes = region.coarseRects(count: count)
            #expect(boxes.count <= count)
            let covered = PixelRegion(pixels: boxes)
            let missing = PixelRegion(pixels: pixels)
            missing.subtract(covered)
            #expect(missing.isEmpty, "pixels left out: \(missing.rects)")
            #expect(covered.area == boxes.reduce(0) { $0 + Int($1.width * $1.height) }, "boxes overlap")
        }
    }

    @Test("A region's pixels round outwards: damage at scale 2 and 1.5 covers every pixel a rectangle touches")
    func pixelsRoundOutwards() {
        #expect(PixelRegion(DirtyRegion([Rect(x: 10.25, y: 5.5, width: 10, height: 1)]), scale: 2).rects
                == [Rect(x: 20, y: 11, width: 21, height: 2)])
        // 1.5...3 covers pixels 1 and 2.
        #expect(PixelRegion(DirtyRegion([Rect(x: 1, y: 1, width: 1, height: 1)]), scale: 1.5).rects
                == [Rect(x: 1, y: 1, width: 2, height: 2)])
    }

    @Test("Six long lines swinging across a 1920x1080 window repaint about the bands along them, not the window")
    func longLinesRepaintTheirBands() {
        var region = DirtyRegion()
        var bands = DirtyRegion()
        for i in 0..<6 {
            let pivot = Point(x: 100 + Double(i) * 300, y: i % 2 == 0 ? 60 : 1000)
            let old = Stroke.line(StrokeID(i + 1), from: pivot, to: Point(x: 1800 - Double(i) * 290, y: i % 2 == 0 ? 980 : 80))
            let new = Stroke.line(StrokeID(i + 1), from: pivot, to: Point(x: 1830 - Double(i) * 290, y: i % 2 == 0 ? 990 : 70))
            let window = Rect(x: 0, y: 0, width: 1920, height: 1080)
            for rect in old.bands(within: window) + new.bands(within: window) {
                region.add(rect)
                bands.add(rect)
            }
        }
        let exact = PixelRegion(region, scale: 1).area
        let painted = PixelRegion(region, scale: 1).coarseRects(count: Window.clipRects)
        let area = painted.reduce(0) { $0 + Int($1.width * $1.height) }
        // The rectangles merged as they came used to grow into boxes as large as the window
        // (about 1.3 of its 2 million pixels for lines like these).
        #expect(area < 1920 * 1080 * 4 / 10, "painted \(area) px of \(1920 * 1080)")
        #expect(area < exact * 2, "painted \(area) px for \(exact) px of bands")
    }

    /// The pixels where `a` and `b` differ by more than `beyond` in some channel, and the largest
    /// difference there.
    func differences(_ a: ImageSurface, _ b: ImageSurface, beyond: Double = 4.0 / 255) -> (count: Int, largest: Double, first: (x: Int, y: Int)?) {
        var count = 0, largest = 0.0
        var first: (x: Int, y: Int)?
        for y in 0..<a.height {
            for x in 0..<a.width {
                guard let p = a.color(x: x, y: y), let q = b.color(x: x, y: y) else { return (Int.max, 1, (x, y)) }
                let delta = [p.red - q.red, p.green - q.green, p.blue - q.blue, p.alpha - q.alpha].map(abs).max() ?? 0
                if delta > beyond {
                    count += 1
                    largest = max(largest, delta)
                    first = first ?? (x, y)
                }
            }
        }
        return (count, largest, first)
    }

    @Test("A1: two buffers in turn, each copying what it lacks from the other and painting only the frame's change, show what a full repaint shows",
          arguments: [1.0, 1.5])
    func twoBuffersMatchAFullRepaint(scale: Double) throws {
        let lines: [Stroke] = (0..<12).map { i in
            .line(StrokeID(i + 1), from: Point(x: 10 + Double(i) * 30, y: 10), to: Point(x: 380 - Double(i) * 25, y: 250))
        }
        let canvas = Canvas(drawing: Drawing(strokes: lines))
        canvas.window.layoutIfNeeded()
        let size = (Int(400 * scale), Int(300 * scale))
        let buffers = [ImageSurface(width: size.0, height: size.1), ImageSurface(width: size.0, height: size.1)]
        let all = DirtyRegion([canvas.window.bounds])
        var stale = [all, all]
        var shown: Int?
        _ = canvas.window.takeDirtyRegion()
        var random = SplitMix(seed: 11)
        let pivots = (0..<4).map { i in Point(x: 40 + Double(i) * 100, y: 40 + Double(i % 2) * 150) }
        for (i, p) in pivots.enumerated() { canvas.down(Int32(i), p.x, p.y) }
        canvas.frame()
        for frame in 0..<24 {
            // Fingers swing their lines across the canvas; one lifts and lands again midway.
            for i in pivots.indices {
                canvas.move(Int32(i), Double.random(in: 5...380, using: &random), Double.random(in: 5...250, using: &random))
            }
            if frame == 12 {
                canvas.up(2)
                canvas.frame()
                canvas.down(2, 200, 120)
            }
            canvas.frame()
            // Painted once the lines rest: a frame painted while fast lines move may draft them
            // (LiveLineQuality), judged by the lines it repaints, which a full repaint judges apart.
            canvas.clock.advance(by: 0.1)
            let next = frame % 2
            let dirty = canvas.window.takeDirtyRegion()
            canvas.window.update(buffers[next], stale: stale[next], dirty: dirty,
                                 copyingFrom: shown.map { buffers[$0] }, others: buffers, scale: scale)
            stale[next] = DirtyRegion()
            stale[1 - next].add(dirty)
            shown = next
            let full = ImageSurface(width: size.0, height: size.1)
            canvas.window.paint(DirtyRegion([canvas.window.bounds]), into: full, scale: scale)
            // The live lines are the window's to draw, their edges smoothed by their coverage of
            // each pixel; a full repaint draws them with Cairo's fast smoothing, whose 4x4 grid
            // is off from a line's coverage by up to about half a pixel on sloped edges (the
            // live lines are within a tenth of Cairo's best). A pixel the frame failed to repaint (a
            // line left behind, one missing) differs by all of it, over many pixels.
            let (count, largest, first) = differences(buffers[next], full, beyond: 0.55)
            if count > 4, let first {
                Issue.record("frame \(frame): \(count) pixels differ from a full repaint, by up to \(largest); first \(first): \(String(describing: buffers[next].color(x: first.x, y: first.y))), a full repaint \(String(describing: full.color(x: first.x, y: first.y)))")
                return
            }
        }
    }

    @Test("A5: a line drawn into a section of an image at scale 1, 1.5 or 2 and pasted back makes exactly the pixels drawing it into the image makes")
    func sectionDrawsLikeTheImage() {
        for scale in [1.0, 1.5, 2.0] {
            let size = Size(width: 200, height: 120)
            let direct = ImageSurface(size: size, scale: scale), aside = ImageSurface(size: size, scale: scale)
            for image in [direct, aside] { CairoContext(surface: image).replace(Rect(origin: .zero, size: size), with: .white) }
            let area = Rect(x: 33, y: 21, width: 64, height: 64)
            let line = Stroke.line(StrokeID(1), from: Point(x: 10, y: 100), to: Point(x: 180, y: 7), color: .black, width: 10)
            func draw(into image: ImageSurface) {
                let context = CairoContext(surface: image)
                context.clip(to: area)
                StrokeRenderer.draw(line, in: context)
            }
            draw(into: direct)
            let pixels = Rect(x: area.minX * scale, y: area.minY * scale, width: area.width * scale, height: area.height * scale).integral
            let section = aside.section(pixels)
            draw(into: section)
            aside.paste(section)
            var differing = 0, inked = 0
            for y in 0..<direct.height {
                for x in 0..<direct.width {
                    if direct.color(x: x, y: y) != aside.color(x: x, y: y) { differing += 1 }
                    if direct.color(x: x, y: y) != .white { inked += 1 }
                }
            }
            #expect(inked > 500, "the line was drawn at scale \(scale)")
            #expect(differing == 0, "\(differing) pixels differ at scale \(scale)")
        }
    }

    @Test("A5: a finished straight line makes the same pixels through any tile of the line cache as drawn whole, its ends on the touch grid or not (a drawing file's)")
    func lineIsTheSameThroughAnyTile() async {
        let ends = zip(Gen.double(in: -20...220), Gen.double(in: -20...140), Gen.double(in: -20...220), Gen.double(in: -20...140))
        let tiles = zip(Gen.int(in: 0...180), Gen.int(in: 0...100), Gen.int(in: 1...64), Gen.int(in: 1...64))
        await propertyCheck(count: 60, input: ends, tiles, Gen.bool) { ends, tile, onGrid in
            func grid(_ v: Double) -> Double { onGrid ? (v * 256).rounded() / 256 : v }
            let line = Stroke.line(StrokeID(1), from: Point(x: grid(ends.0), y: grid(ends.1)),
                                   to: Point(x: grid(ends.2), y: grid(ends.3)), color: .blue, width: 10)
            let area = Rect(x: Double(tile.0), y: Double(tile.1), width: Double(tile.2), height: Double(tile.3))
            let whole = ImageSurface(width: 200, height: 120), tiled = ImageSurface(width: 200, height: 120)
            StrokeRenderer.draw(line, in: CairoContext(surface: whole))
            let context = CairoContext(surface: tiled)
            context.clip(to: area)
            StrokeRenderer.draw(line, in: context)
            for y in tile.1..<min(tile.1 + tile.3, 120) {
                for x in tile.0..<min(tile.0 + tile.2, 200) where whole.color(x: x, y: y) != tiled.color(x: x, y: y) {
                    Issue.record("pixel \(x),\(y) of tile \(area): \(String(describing: tiled.color(x: x, y: y))), drawn whole \(String(describing: whole.color(x: x, y: y)))")
                    return
                }
            }
        }
    }

    @Test("A1: the canvas's cache copied under a frame's boxes, row by row where it falls on whole pixels, makes the pixels Cairo's paint makes, at scale 1 and 1.5")
    func cacheCopyMatchesCairo() {
        var random = SplitMix(seed: 5)
        // Whole-pixel placements (copied by rows) and fractional ones (left to Cairo).
        let cases: [(scale: Double, offset: Point)] = [(1, .zero), (1, Point(x: 7, y: 40)), (1.5, Point(x: 0, y: 40)), (1.5, Point(x: 0.5, y: 3.25))]
        for (scale, offset) in cases {
            // An opaque image of random blocks, as the cache is.
            let image = ImageSurface(size: Size(width: 120, height: 90), scale: scale)
            let painter = CairoContext(surface: image)
            for y in stride(from: 0.0, to: 90, by: 6) {
                for x in stride(from: 0.0, to: 120, by: 6) {
                    let color = Color(red: .random(in: 0...1, using: &random), green: .random(in: 0...1, using: &random),
                                      blue: .random(in: 0...1, using: &random), alpha: 1)
                    painter.replace(Rect(x: x, y: y, width: 6, height: 6), with: color)
                }
            }
            // A frame's boxes in window pixels, one partly off the window, as the host clips.
            let boxes = [Rect(x: 3, y: 5, width: 40, height: 17), Rect(x: 30, y: 50, width: 90, height: 30),
                         Rect(x: 100, y: 0, width: 60, height: 200), Rect(x: -5, y: 60, width: 20, height: 10)]
            func frame(_ copy: (CairoContext, Rect) -> Void) -> ImageSurface {
                let target = ImageSurface(width: 200, height: 220)
                let context = CairoContext(surface: target)
                context.replace(Rect(x: 0, y: 0, width: 200, height: 220), with: .white)
                context.clip(toUnionOf: boxes)
                context.scaleBy(x: scale, y: scale)
                context.translateBy(x: offset.x, y: offset.y)
                copy(context, Rect(x: 2, y: 2, width: 110, height: 80))
                target.flush()
                return target
            }
            let copied = frame { $0.copy(image, clippedTo: $1) }
            let painted = frame { $0.draw(image, clippedTo: $1) }
            let (count, largest, first) = differences(copied, painted)
            #expect(count == 0, "scale \(scale), offset \(offset): \(count) pixels differ, by up to \(largest), first at \(String(describing: first))")
            #expect(copied.color(x: 60, y: 70) != .white, "scale \(scale), offset \(offset): the image was copied")
        }
    }
}
