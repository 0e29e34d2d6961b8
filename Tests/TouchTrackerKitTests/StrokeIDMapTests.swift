// StrokeIDMap against a dictionary: ids counting up (its dense form), ids far apart and negative
// (its dictionary form), and the switch from one to the other in the middle of changes.
import PropertyBased
import Testing
@testable import TouchTrackerKit

private enum MapOp: Sendable {
    case set(Int, Int)
    case remove(Int)
    case removeAll
}

/// Ids mostly small and near each other, sometimes huge or negative.
private let idGen = zip(Gen.int(in: 0...19), Gen.int(in: 0...300), Gen.int(in: -(1 << 53)...(1 << 53)))
    .map { kind, small, any -> Int in
        switch kind {
        case 0: any
        case 1: -small
        case 2: 5000 + small * 37
        default: small
        }
    }

private let mapOpGen = zip(Gen.int(in: 0...99), idGen, Gen.int(in: 0...Int(Int32.max)))
    .map { kind, id, value -> MapOp in
        switch kind {
        case 0..<65: .set(id, value)
        case 65..<98: .remove(id)
        default: .removeAll
        }
    }

@Suite("Stroke id map")
struct StrokeIDMapTests {
    @Test("Look-ups, changes and the count match a dictionary's, dense or not")
    func matchesDictionary() async {
        await propertyCheck(count: 300, input: mapOpGen.array(of: 1...200), idGen.array(of: 1...20)) { ops, probes in
            var map = StrokeIDMap()
            var model: [StrokeID: Int] = [:]
            for op in ops {
                switch op {
                case .set(let id, let value):
                    map[StrokeID(id)] = value; model[StrokeID(id)] = value
                case .remove(let id):
                    map[StrokeID(id)] = nil; model[StrokeID(id)] = nil
                case .removeAll:
                    map.removeAll(); model.removeAll()
                }
                #expect(map.count == model.count)
            }
            for id in model.keys { #expect(map[id] == model[id], "\(id)") }
            for id in probes.map(StrokeID.init) { #expect(map[id] == model[id], "\(id)") }
        }
    }

    @Test("A drawing's ids, counting up, stay in the dense form and are found")
    func denseIDs() {
        var map = StrokeIDMap()
        for i in 1...100_000 { map[StrokeID(i)] = i - 1 }
        for i in stride(from: 1, through: 100_000, by: 2) { map[StrokeID(i)] = nil }
        #expect(map.count == 50_000)
        #expect(map[StrokeID(2)] == 1 && map[StrokeID(3)] == nil && map[StrokeID(100_000)] == 99_999)
        map[StrokeID(1 << 52)] = 7  // far away: the dictionary from here on
        #expect(map.count == 50_001 && map[StrokeID(1 << 52)] == 7 && map[StrokeID(4)] == 3)
    }
}
