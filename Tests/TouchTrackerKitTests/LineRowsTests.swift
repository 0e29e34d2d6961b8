// The compositor's damage for live lines between two frames: every pixel that differs lies in it,
// and a wide line swinging about where its finger landed is damaged along its edges and the
// wedge it swept, not over all of its pixels.
@testable import Graphics
import Foundation
import Testing
import TouchKit

@Suite("Live lines' damage between frames")
struct LineRowsTests {
    static let (width, height) = (160, 120)

    /// `lines` drawn in order over a backdrop of varied pixels, and what they leave per row.
    static func image(_ lines: [PixelLine], clip: [PixelBox]) -> (pixels: [UInt32], rows: [LineRows]) {
        let limit = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        let runs = lines.map { $0.runs(limit: limit, clip: RowBoxes(clip, height: height)) }
        var pixels = (0..<(width * height)).map { 0xff80_8080 ^ UInt32($0 % 7) }
        pixels.withUnsafeMutableBytes { raw in
            let data = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for (line, runs) in zip(lines, runs) { line.fill(runs, into: data, stride: width * 4) }
        }
        return (pixels, zip(lines, runs).map { LineRows($0, $1) })
    }

    /// The pixels that differ between `old` and `new` outside `damage`.
    static func undamaged(_ old: [UInt32], _ new: [UInt32], _ damage: [PixelBox]) -> [(x: Int, y: Int)] {
        (0..<(width * height)).filter { i in
            old[i] != new[i] && !damage.contains { i % width >= $0.x0 && i % width < $0.x1 && i / width >= $0.y0 && i / width < $0.y1 }
        }.map { ($0 % width, $0 / width) }
    }

    @Test("A1: between two frames of up to five lines (smooth or drafted, polylines, overlapping, in three colours, cut by a clip with a hole), every pixel that differs is damaged", arguments: 1...4)
    func everyChangedPixelIsDamaged(seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        func lines() -> [PixelLine] {
            (0..<Int.random(in: 0...5, using: &random)).map { _ in
                let smooth = Bool.random(using: &random)
                let points = (0..<(smooth ? 2 : Int.random(in: 1...4, using: &random))).map { _ in
                    (x: Double.random(in: -20...180, using: &random), y: Double.random(in: -20...140, using: &random))
                }
                return PixelLine(points: points, radius: Double.random(in: 0.3...30, using: &random),
                                 pixel: [0xff00_0000, 0xffff_0000, 0xff00_00ff].randomElement(using: &random)!, smooth: smooth)
            }
        }
        for trial in 0..<200 {
            let clip = Bool.random(using: &random)
                ? [PixelBox(x0: 0, y0: 0, x1: Self.width, y1: Self.height)]
                : [PixelBox(x0: 0, y0: 0, x1: 60, y1: Self.height), PixelBox(x0: 90, y0: 0, x1: Self.width, y1: Self.height)]
            let before = lines()
            // The same lines, some moved a little (a finger's next frame), and perhaps more.
            var after = before.map { line in
                var line = line
                if Bool.random(using: &random) { line.points[line.points.count - 1].x += Double.random(in: -4...4, using: &random) }
                if Int.random(in: 0..<4, using: &random) == 0 { line.points[line.points.count - 1].y += Double.random(in: -60...60, using: &random) }
                if Int.random(in: 0..<4, using: &random) == 0 { line.smooth.toggle() }
                if Int.random(in: 0..<4, using: &random) == 0 { line.pixel = 0xff00_0000 }
                return line
            }
            if Bool.random(using: &random) { after.shuffle(using: &random) }
            if Bool.random(using: &random) { after += lines() }
            let old = Self.image(before, clip: clip), new = Self.image(after, clip: clip)
            var damage: [PixelBox] = []
            LineRows.changes(from: old.rows, to: new.rows, into: &damage)
            let missed = Self.undamaged(old.pixels, new.pixels, damage)
            #expect(missed.isEmpty, "trial \(trial): \(missed.count) changed pixels outside the damage, first \(missed.first.map { "\($0)" } ?? "")")
            if !missed.isEmpty { return }
        }
    }

    @Test("A1: a line 80 pixels wide swinging 5 degrees about where its finger landed is damaged in under half the box its two positions span, covering every pixel that changed")
    func aSwingingLineIsDamagedAlongWhatChanged() {
        let start = (x: 60.0, y: 15.0), length = 60.0
        func line(_ degrees: Double) -> PixelLine {
            let a = degrees * .pi / 180
            return PixelLine(points: [start, (x: start.x + length * cos(a), y: start.y + length * sin(a))], radius: 40,
                             pixel: 0xffff_0000, smooth: true)
        }
        let clip = [PixelBox(x0: 0, y0: 0, x1: Self.width, y1: Self.height)]
        let old = Self.image([line(60)], clip: clip), new = Self.image([line(65)], clip: clip)
        var damage: [PixelBox] = []
        LineRows.changes(from: old.rows, to: new.rows, into: &damage)
        #expect(Self.undamaged(old.pixels, new.pixels, damage).isEmpty)
        // Each line's own box, per block of rows, as the damage was before it followed the change.
        var whole: [PixelBox] = []
        LineRows.changes(from: [], to: old.rows, into: &whole)
        LineRows.changes(from: [], to: new.rows, into: &whole)
        let area = { (boxes: [PixelBox]) in PixelRegion(pixels: boxes.map { Rect(x: Double($0.x0), y: Double($0.y0), width: Double($0.x1 - $0.x0), height: Double($0.y1 - $0.y0)) }).area }
        #expect(area(damage) < area(whole) / 2, "changed \((0..<(Self.width * Self.height)).count { old.pixels[$0] != new.pixels[$0] }) damaged \(area(damage)) of the \(area(whole)) pixels the two lines' boxes span")
    }
}
