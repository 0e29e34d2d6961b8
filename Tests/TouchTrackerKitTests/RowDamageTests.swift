// The compositor's damage for live lines: a few boxes per line per block of 32 rows, merged
// into at most a limit of rectangles, each still covering every pixel of every box.
@testable import Graphics
import Testing
import TouchKit

@Suite("LiveLines damage")
struct RowDamageTests {
    @Test("A1: damage for any number of line boxes covers each of them, in at most 128 rectangles", arguments: [1, 40, 400, 4000])
    func damageCoversEveryBox(count: Int) {
        var random = SplitMix(seed: UInt64(count))
        let boxes: [PixelBox] = (0..<count).map { _ in
            let block = Int.random(in: 0..<34, using: &random) << RowDamage.blockShift
            let y0 = block + Int.random(in: 0..<32, using: &random), x0 = Int.random(in: 0..<1900, using: &random)
            return PixelBox(x0: x0, y0: y0, x1: x0 + Int.random(in: 1...60, using: &random),
                            y1: min(y0 + Int.random(in: 1...32, using: &random), block + 32))
        }
        let rects = RowDamage.rects(covering: boxes)
        #expect(rects.count <= 128)
        #expect(rects.count <= count)
        for box in boxes {
            let covered = rects.contains { $0.minX <= Double(box.x0) && $0.maxX >= Double(box.x1) && $0.minY <= Double(box.y0) && $0.maxY >= Double(box.y1) }
            #expect(covered, "box \(box) is not within one damage rectangle")
            if !covered { return }
        }
        // Boxes of different blocks stay apart while the limit allows it.
        if count == 40 { #expect(rects.allSatisfy { Int($0.minY) >> RowDamage.blockShift == (Int($0.maxY) - 1) >> RowDamage.blockShift }) }
    }
}
