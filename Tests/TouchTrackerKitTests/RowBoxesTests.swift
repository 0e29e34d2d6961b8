// A clip's boxes indexed by row (RowBoxes): the index's run of boxes for a row holds every box
// that covers the row, so a line cut to the clip keeps exactly the pixels inside it.
@testable import Graphics
import Testing

@Suite("A clip indexed by row")
struct RowBoxesTests {
    @Test("A1: every box covering a row is among those the index gives for it, for clips of overlapping, touching and out-of-image boxes",
          arguments: 1...6)
    func indexHoldsEveryCoveringBox(seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        let height = 90
        let boxes = (0..<Int.random(in: 2...12, using: &random)).map { _ in
            let y0 = Int.random(in: -10...95, using: &random), x0 = Int.random(in: 0...50, using: &random)
            return PixelBox(x0: x0, y0: y0, x1: x0 + Int.random(in: 1...40, using: &random), y1: y0 + Int.random(in: 1...50, using: &random))
        }
        let clip = RowBoxes(boxes, height: height)
        for y in -2...height + 2 {
            let band = clip.band(y)
            let covering = clip.boxes.indices.filter { clip.boxes[$0].y0 <= y && y < clip.boxes[$0].y1 && y >= 0 && y <= height }
            #expect(covering.allSatisfy { band.contains($0) }, "row \(y): boxes \(covering) outside \(band)")
            // A span across the whole row keeps exactly the boxes' pixels on it.
            var kept = Set<Int>()
            clip.cut(PixelSpan(y: y, x0: -5, x1: 200)) { x0, x1 in kept.formUnion(x0..<x1) }
            let inside = Set(covering.flatMap { clip.boxes[$0].x0..<clip.boxes[$0].x1 })
            #expect(kept == inside, "row \(y)")
        }
    }
}
