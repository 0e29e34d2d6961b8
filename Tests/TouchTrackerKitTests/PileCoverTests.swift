// Lines piled over each other drawn only where they show, found from the topmost line down (Graphics'
// PileCover, the line cache's whole build): the picture must be the one drawing every line makes,
// pixel for pixel, whatever the lines' widths, directions, colours and kinds.
import Graphics
import Testing
import TouchKit

@Suite("Piled lines drawn without what is hidden")
struct PileCoverTests {
    /// Lines 2 to 40 pixels wide in every direction (level, upright, slanted, a dot), opaque and
    /// not, with freehand strokes among them, piled about ten times over a 300x200 point image.
    static func pile(_ count: Int) -> [Polyline] {
        var random = SplitMix(seed: 37)
        func next(_ limit: Double) -> Double { Double.random(in: 0..<limit, using: &random) }
        let colors: [Color] = [.black, .red, .blue, Color(red: 0.2, green: 0.7, blue: 0.3), Color(red: 0, green: 0, blue: 1, alpha: 0.5)]
        return (0..<count).map { i in
            let a = Point(x: next(340) - 20, y: next(240) - 20)
            let b: Point
            switch i % 6 {
            case 0: b = Point(x: a.x + next(200) - 100, y: a.y)
            case 1: b = Point(x: a.x, y: a.y + next(200) - 100)
            case 2: b = a
            default: b = Point(x: next(340) - 20, y: next(240) - 20)
            }
            let points = i % 11 == 0 ? [a, Point(x: (a.x + b.x) / 2 + 15, y: (a.y + b.y) / 2), b] : [a, b]
            return Polyline(points: points, width: 1 + next(20), color: colors[i % colors.count])
        }
    }

    /// A white 300x200 point image at `scale`, and a context drawing into it.
    static func canvas(scale: Double) -> (ImageSurface, CairoContext) {
        let image = ImageSurface(size: Size(width: 300, height: 200), scale: scale)
        image.fill(rows: 0..<image.height, with: .white)
        return (image, CairoContext(surface: image))
    }

    /// Level bars 12 points wide across the image, one every 10 points down for each of `rows`.
    static func bars(_ rows: ClosedRange<Int>, color: (Int) -> Color) -> [Polyline] {
        rows.map { Polyline(points: [Point(x: -10, y: Double($0) * 10), Point(x: 310, y: Double($0) * 10)], width: 12, color: color($0)) }
    }

    /// `lines` with the first `beneath` of them replaced by `stray`, as a build leaves a hidden
    /// line's slot holding an earlier line.
    static func standIns(_ lines: [Polyline], beneath: Int, stray: Polyline) -> [Polyline] {
        lines.indices.map { $0 < beneath ? stray : lines[$0] }
    }

    /// How many pixels of `a` and `b` differ, and where the first one is.
    static func differences(_ a: ImageSurface, _ b: ImageSurface) throws -> (count: Int, first: (x: Int, y: Int)) {
        let pa = a.pixelWords(), pb = b.pixelWords()
        try #require(pa.count == pb.count)
        let differing = pa.indices.filter { pa[$0] != pb[$0] }
        let first = differing.first ?? 0
        return (differing.count, (first % a.width, first / a.width))
    }

    @Test("a pile drawn only where each line shows is, pixel for pixel, the pile drawn line over line; rows were left out",
          arguments: [1.0, 2.0, 1.5])
    func samePicture(scale: Double) throws {
        let lines = Self.pile(400)
        let (plain, plainContext) = Self.canvas(scale: scale)
        plainContext.stroke(lines)
        let (piled, piledContext) = Self.canvas(scale: scale)
        let cover = PileCover()
        #expect(cover.reset(for: piledContext))
        // In batches, as the build looks at them: from the top of the pile down.
        for start in stride(from: 0, to: lines.count, by: 64).reversed() {
            piledContext.cover(lines[start..<min(start + 64, lines.count)], from: UInt32(start + 1), in: cover)
        }
        for start in stride(from: 0, to: lines.count, by: 8) {
            piledContext.stroke(lines[start..<min(start + 8, lines.count)], from: UInt32(start + 1), over: cover)
        }
        #expect(cover.hidden > 500, "\(cover.hidden) groups of rows hidden")
        let wholeHidden = (1...UInt32(lines.count)).filter { cover.isHidden($0) }.count
        #expect(wholeHidden > 20, "\(wholeHidden) lines hidden everywhere")
        let differing = try Self.differences(plain, piled)
        #expect(differing.count == 0, "\(differing.count) pixels differ, the first at \(differing.first)")
    }

    @Test("lines beneath a pile that covers the image whole are found hidden everywhere and not drawn, and the picture is the same",
          arguments: [1.0, 2.0])
    func buried(scale: Double) throws {
        // Level bars over the whole image; beneath them, any lines.
        let bars = Self.bars(0...20) { $0 % 2 == 0 ? .blue : .red }
        // Lines a pile looks at: opaque, straight and at least three pixels wide.
        let beneath = Self.pile(150).filter { $0.points.count == 2 && $0.color.alpha >= 1 && $0.width * scale >= 3 }
        let lines = beneath + bars
        let (plain, plainContext) = Self.canvas(scale: scale)
        plainContext.stroke(lines)
        let (piled, piledContext) = Self.canvas(scale: scale)
        let cover = PileCover()
        #expect(cover.reset(for: piledContext))
        piledContext.cover(lines[...], from: 1, in: cover)
        let count = UInt32(beneath.count)
        #expect(count > 80 && (1...count).allSatisfy { cover.isHidden($0) })
        #expect(!(count + 1...UInt32(lines.count)).contains { cover.isHidden($0) })
        // The lines beneath handed over as stand-ins, as the build leaves a hidden line's slot
        // holding an earlier line: the pile does not read them.
        let standIns = Self.standIns(lines, beneath: beneath.count,
                                     stray: Polyline(points: [Point(x: 0, y: 0), Point(x: 300, y: 200)], width: 30, color: .green))
        piledContext.stroke(standIns[...], from: 1, over: cover)
        let differing = try Self.differences(plain, piled)
        #expect(differing.count == 0, "\(differing.count) pixels differ, the first at \(differing.first)")
    }

    @Test("where a clip is not the pile's, lines the pile hides are left out and the rest drawn whole",
          arguments: [1.0, 2.0])
    func otherClip(scale: Double) throws {
        // Bars over the top half; beneath them, short lines the pile finds hidden.
        let bars = Self.bars(0...10) { _ in .blue }
        let beneath = (0..<20).map { Polyline(points: [Point(x: 20 + Double($0) * 12, y: 20), Point(x: 30 + Double($0) * 12, y: 80)],
                                             width: 6, color: .red) }
        let lines = beneath + bars
        let cover = PileCover()
        let (_, piledContext) = Self.canvas(scale: scale)
        #expect(cover.reset(for: piledContext))
        piledContext.cover(lines[...], from: 1, in: cover)
        #expect((1...UInt32(beneath.count)).allSatisfy { cover.isHidden($0) })
        // Handed over as stand-ins that would show in the bottom half, as the build leaves a
        // hidden line's slot holding an earlier line, to a clip of two boxes.
        let standIns = Self.standIns(lines, beneath: beneath.count,
                                     stray: Polyline(points: [Point(x: 0, y: 150), Point(x: 300, y: 150)], width: 30, color: .green))
        let halves = [Rect(x: 0, y: 0, width: 150, height: 200), Rect(x: 150, y: 50, width: 150, height: 150)]
        let (plain, plainContext) = Self.canvas(scale: scale)
        plainContext.clip(toUnionOf: halves)
        plainContext.stroke(lines)
        let (other, otherContext) = Self.canvas(scale: scale)
        otherContext.clip(toUnionOf: halves)
        otherContext.stroke(standIns[...], from: 1, over: cover)
        let differing = try Self.differences(plain, other)
        #expect(differing.count == 0, "\(differing.count) pixels differ, the first at \(differing.first)")
    }

    @Test("no pile where the clip is not one box of whole pixels, or lines are drafted: every line is drawn whole")
    func noPile() {
        let image = ImageSurface(width: 100, height: 100)
        let context = CairoContext(surface: image)
        context.clip(toUnionOf: [Rect(x: 0, y: 0, width: 40, height: 40), Rect(x: 60, y: 60, width: 40, height: 40)])
        #expect(!PileCover().reset(for: context))
        let halves = CairoContext(surface: ImageSurface(width: 100, height: 100))
        halves.clip(to: Rect(x: 0.5, y: 0, width: 50, height: 50))
        #expect(!PileCover().reset(for: halves))
        let drafted = CairoContext(surface: ImageSurface(width: 100, height: 100))
        drafted.setAntialiasing(.draft)
        #expect(!PileCover().reset(for: drafted))
        #expect(PileCover().reset(for: CairoContext(surface: ImageSurface(width: 100, height: 100))))
    }
}
