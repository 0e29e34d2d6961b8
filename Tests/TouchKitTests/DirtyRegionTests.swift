// The damage list every repaint is clipped to: it may grow a little, but it must never lose a
// changed pixel, and it stays short.
import PropertyBased
import Testing
import TouchKit

/// Random rectangles over a 2000 x 1200 area, some empty, some tiny, some huge.
private let rectGen = zip(Gen.int(in: -50...2000), Gen.int(in: -50...1200), Gen.int(in: 0...400), Gen.int(in: 0...300))
    .map { x, y, w, h in Rect(x: Double(x) + 0.25, y: Double(y) + 0.5, width: Double(w), height: Double(h) * 0.75) }

@Suite("Dirty region")
struct DirtyRegionTests {
    @Test("Every added rectangle stays covered, and the list never exceeds its limit")
    func coversAndStaysShort() async {
        await propertyCheck(count: 200, input: rectGen.array(of: 1...120), Gen.int(in: 1...48)) { rects, limit in
            var region = DirtyRegion(limit: limit)
            for rect in rects { region.add(rect) }
            #expect(region.rects.count <= limit)
            #expect(region.rects.allSatisfy { !$0.isEmpty })
            for rect in rects where !rect.isEmpty {
                // Covered: every corner-inset sample point of the rectangle lies in some kept one.
                let xs = [rect.minX, rect.midX, rect.maxX - 0.01], ys = [rect.minY, rect.midY, rect.maxY - 0.01]
                for x in xs { for y in ys {
                    #expect(region.rects.contains { $0.contains(Point(x: x, y: y)) }, "\(rect) lost from \(region.rects)")
                } }
            }
        }
    }

    @Test("Ten fingers far apart keep ten separate rectangles: no band between them is repainted")
    func farApartStaySeparate() {
        var region = DirtyRegion()
        for i in 0..<10 { region.add(Rect(x: Double(i) * 150, y: Double(i % 3) * 300, width: 40, height: 40)) }
        #expect(region.rects.count == 10)
        #expect(region.rects.reduce(0) { $0 + $1.width * $1.height } == 10 * 40 * 40)
    }

    @Test("Overlapping pieces along one line merge when the union wastes little; empty rectangles are ignored")
    func mergesCheapOverlaps() {
        var region = DirtyRegion()
        region.add(Rect(x: 0, y: 0, width: 50, height: 20))
        region.add(Rect(x: 5, y: 0, width: 50, height: 20))
        region.add(Rect(x: 300, y: 300, width: 0, height: 20))
        #expect(region.rects == [Rect(x: 0, y: 0, width: 55, height: 20)])
        #expect(region.bounds == Rect(x: 0, y: 0, width: 55, height: 20))
    }
}
