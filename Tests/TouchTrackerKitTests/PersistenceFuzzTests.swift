// Fuzzing the loader with property tests: whatever the bytes, decoding ends quickly with either a
// drawing within the limits or a one-line error, and never crashes, hangs or takes unbounded
// memory. Bounded in count so the suite stays fast; a failure prints the seed to replay.
import PropertyBased
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: loader fuzzing")
struct PersistenceFuzzTests {
    /// Small limits so that the generated files cross them often.
    static let limits: DrawingFormat.Limits = {
        var limits = DrawingFormat.Limits()
        limits.maxStrokes = 8
        limits.maxPointsPerStroke = 12
        limits.maxTotalPoints = 40
        limits.maxFileBytes = 4096
        return limits
    }()

    /// Every drawing the loader returns must be one the app can hold and save again.
    func checkOutcome(_ bytes: [UInt8], limits: DrawingFormat.Limits = limits) {
        do {
            let strokes = try DrawingFormat.decode(bytes, limits: limits)
            #expect(strokes.count <= limits.maxStrokes)
            #expect(strokes.reduce(0) { $0 + $1.points.count } <= limits.maxTotalPoints)
            #expect(Set(strokes.map(\.id)).count == strokes.count, "unique ids")
            for stroke in strokes {
                #expect(DrawingFormat.problem(with: stroke, limits: limits) == nil)
            }
            // What was read writes back and reads back the same.
            let again = try DrawingFormat.decode(DrawingFormat.encode(strokes, limits: limits).bytes, limits: limits)
            #expect(identical(again, strokes))
        } catch {
            #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(error.message)")
        }
    }

    @Test("Random drawings round-trip exactly")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            let strokes = randomDrawing(seed: seed, maxStrokes: 30)
            let decoded = try? DrawingFormat.decode(DrawingFormat.encode(strokes).bytes)
            #expect(decoded.map { identical($0, strokes) } == true)
        }
    }

    @Test("Mutated files (flipped, dropped, inserted, duplicated bytes) never crash the loader")
    func mutations() async {
        await propertyCheck(count: 3000, input: Gen.uint64(), Gen.int(in: 1...12)) { seed, edits in
            var random = SplitMix(seed: seed)
            var bytes = DrawingFormat.encode(randomDrawing(seed: seed, maxStrokes: 6), limits: Self.limits).bytes
            let alphabet = Array("{}[],:\"\\-+.0123456789eEnNaIfinity tuler\n".utf8)
            for _ in 0..<edits where !bytes.isEmpty {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 5 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                case 3:
                    let end = min(bytes.count, at + Int(random.next() % 64))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                default: bytes.removeLast(bytes.count - at)
                }
            }
            checkOutcome(bytes)
        }
    }

    @Test("Token soup: random sequences of JSON pieces")
    func tokenSoup() async {
        let pieces = ["{", "}", "[", "]", ",", ":", "\"format\"", "\"touchtracker-drawing\"", "\"version\"", "1", "2",
                      "\"strokes\"", "\"id\"", "\"kind\"", "\"line\"", "\"freehand\"", "\"circle\"", "\"color\"", "\"width\"",
                      "\"points\"", "0", "-0.0", "1e308", "1e309", "NaN", "null", "true", "\"\\u0000\"", "\"\\ud800\"",
                      "[1,2]", "[0,0,0,1]", "9007199254740991", " ", "\"x\""]
        await propertyCheck(count: 2000, input: Gen.int(in: 0..<pieces.count).array(of: 0...80)) { picks in
            checkOutcome(Array(picks.map { pieces[$0] }.joined().utf8))
        }
    }

    @Test("Random bytes")
    func randomBytes() async {
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 0...300)) { bytes in
            checkOutcome(bytes)
        }
    }
}
