// The drawing file format (docs/file-format.md): exact round trips, what the reader accepts, and
// a one-line, located error for every kind of bad file.
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: file format")
struct PersistenceFormatTests {
    @Test("Ids, order, kinds, colours, widths and points come back bit for bit")
    func roundTripIsExact() throws {
        let strokes = [
            Stroke(id: StrokeID(7), kind: .line, points: [Point(x: 0.1, y: 1.0 / 3), Point(x: -0.0, y: 123.45703125)],
                   color: Color(red: 0.1, green: 2.0 / 3, blue: 0, alpha: 1), width: 10),
            Stroke(id: StrokeID(2), kind: .freehand,
                   points: [Point(x: .leastNonzeroMagnitude, y: 999_999.999_999_999_9), Point(x: -1_000_000, y: 1e-300),
                            Point(x: .leastNonzeroMagnitude, y: -2.2250738585072014e-308)],
                   color: Color(red: 1, green: 1, blue: 1, alpha: 0.5), width: 0.000_1),
            Stroke(id: StrokeID((1 << 53) - 1), kind: .circle, points: [Point(x: 10, y: 20), Point(x: 30, y: 40)],
                   color: .red, width: 1000),
        ]
        let encoded = DrawingFormat.encode(strokes)
        #expect(encoded.omitted.isEmpty)
        let decoded = try DrawingFormat.decode(encoded.bytes)
        #expect(identical(decoded, strokes), "\(decoded)")
        #expect(decoded[0].points[1].x.sign == .minus, "-0.0 keeps its sign")
        // Loading into a Drawing keeps the ids and the paint order, and new ids follow the largest.
        let drawing = Drawing(strokes: decoded)
        #expect(drawing.strokes.map(\.id) == [StrokeID(7), StrokeID(2), StrokeID((1 << 53) - 1)])
        #expect(drawing.makeID() == StrokeID(1 << 53))
    }

    @Test("Hundreds of random drawings with awkward numbers round-trip exactly")
    func randomRoundTrips() throws {
        for seed in 0..<300 as Range<UInt64> {
            let strokes = randomDrawing(seed: seed)
            let decoded = try DrawingFormat.decode(DrawingFormat.encode(strokes).bytes)
            #expect(identical(decoded, strokes), "seed \(seed)")
        }
    }

    @Test("The file is JSON with one stroke per line, and an empty drawing is valid")
    func layout() throws {
        let text = String(decoding: DrawingFormat.encode([.line(StrokeID(1), from: Point(x: 1.5, y: 2), to: Point(x: 3, y: 4))]).bytes,
                          as: UTF8.self)
        #expect(text == """
            {"format":"touchtracker-drawing","version":1,"strokes":[
            {"id":1,"kind":"line","color":[0.0,0.0,0.0,1.0],"width":10.0,"points":[[1.5,2.0],[3.0,4.0]]}
            ]}

            """)
        #expect(try DrawingFormat.decode(DrawingFormat.encode([]).bytes).isEmpty)
    }

    @Test("Other writers' JSON reads: any key order, whitespace, unknown keys, escapes, a byte order mark")
    func lenientWhereHarmless() throws {
        let text = """
            \u{FEFF}{
              "strokes": [
                {
                  "points": [ [ 1e2 , 2.5E-1 ] , [-3, 4] ],
                  "width": 2,
                  "future": {"nested": [1, {"deep": null}], "flag": true, "s": "a\\"b\\u00e9\\ud83d\\ude00"},
                  "kind": "l\\u0069ne",
                  "color": [0.25, 0.5, 0.75, 1],
                  "id": 42
                }
              ],
              "app": "someone else's tool",
              "version": 1,
              "format": "touchtracker-drawing"
            }
            """
        let strokes = try DrawingFormat.decode(Array(text.utf8))
        #expect(strokes == [Stroke(id: StrokeID(42), kind: .line, points: [Point(x: 100, y: 0.25), Point(x: -3, y: 4)],
                                   color: Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 1), width: 2)])
    }

    @Test("Truncated at any byte: an error that says so, never a partial drawing")
    func truncated() {
        let bytes = DrawingFormat.encode(randomDrawing(seed: 99, maxStrokes: 4) + [.line(StrokeID(1), from: .zero, to: .zero)]).bytes
        let end = bytes.lastIndex(of: UInt8(ascii: "}"))!
        for length in 0...end {
            let prefix = Array(bytes[..<length])
            #expect(throws: DrawingParseError.self, "\(length) bytes") { try DrawingFormat.decode(prefix) }
        }
        #expect(decodeError(String(decoding: bytes[..<(end / 2)], as: UTF8.self))?.contains("truncated") == true)
        #expect(decodeError("") == "the file is empty")
    }

    @Test("Wrong JSON and other files: where and what")
    func wrongJSON() {
        #expect(decodeError("hello") == "line 1, column 1: not a TouchTracker drawing: expected '{', found 'h'")
        #expect(decodeError("{\"format\": \"touchtracker-drawing\",\n \"version\": 1,\n \"strokes\": [}")
            == "line 3, column 14: expected '{', found '}'".replacingOccurrences(of: "expected '{'", with: "stroke 1: expected '{'"))
        #expect(decodeError(drawingJSON([strokeJSON()]) + "x")?.contains("unexpected 'x' after the end of the drawing") == true)
        #expect(decodeError("{\"name\": \"a shopping list\"}")?.contains("not a TouchTracker drawing: there is no \"format\"") == true)
        #expect(decodeError("{\"format\": \"svg\", \"version\": 1}")?.contains("the format is \"svg\"") == true)
        #expect(decodeError("{\"format\": \"touchtracker-drawing\", \"version\": 1}") == "the drawing has no \"strokes\" list")
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1, 2] [3, 4]]")]))?.contains("expected ',' or ']'") == true)
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"li\nne\"")]))?.contains("control character") == true)
        // A backslash before a line break: the message names the byte and stays on one line.
        #expect(decodeError("{\"format\": \"touchtracker-drawing\\\n\"}") == "line 1, column 33: unknown escape '\\' followed by byte 0xA in the format name")
        #expect(decodeError("{\"format\": \"a\\q\"}")?.contains("unknown escape '\\q'") == true)
        #expect(decodeError(drawingJSON([strokeJSON(id: "01")]))?.contains("a number cannot start with 0") == true, "leading zeros are not JSON")
        #expect(decodeError(drawingJSON([strokeJSON(width: "+3")]))?.contains("expected") == true)
    }

    @Test("Versions other than 1 are refused with a message saying which")
    func wrongVersion() {
        #expect(decodeError(drawingJSON([], version: "2"))
            == "line 1, column 47: format version 2 is newer than this TouchTracker reads (version 1); open it with a newer TouchTracker")
        #expect(decodeError(drawingJSON([], version: "0"))?.contains("format version 0 does not exist") == true)
        #expect(decodeError(drawingJSON([], version: "1.5"))?.contains("should be a whole number") == true)
        #expect(decodeError(drawingJSON([], version: "\"1\""))?.contains("expected the format version") == true)
        #expect(decodeError("{\"format\": \"touchtracker-drawing\", \"strokes\": []}") == "the drawing has no format \"version\"")
        // The version is checked before the strokes even when the strokes come first.
        #expect(decodeError("{\"strokes\": [{\"id\": \"new\"}], \"format\": \"touchtracker-drawing\", \"version\": 9}")?
            .contains("format version 9 is newer") == true)
    }

    @Test("NaN, Infinity and numbers that overflow are refused")
    func nonFinite() {
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[NaN, 2], [3, 4]]")]))
            == "line 1, column 136: a coordinate is NaN, which is not a number (coordinates and sizes must be finite)")
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1, -Infinity], [3, 4]]")]))?.contains("-Infinity, which is not a number") == true)
        #expect(decodeError(drawingJSON([strokeJSON(width: "1e999")]))?.contains("the number 1e999 is out of range") == true)
        #expect(decodeError(drawingJSON([strokeJSON(color: "[0, 0, nan, 1]")]))?.contains("is nan") == true)
    }

    @Test("Absurd sizes: coordinates, widths, colours, ids, long numbers and strings")
    func absurdValues() {
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1e300, 2], [3, 4]]")]))?.contains("coordinate 1e+300 is outside ±1000000.0") == true)
        #expect(decodeError(drawingJSON([strokeJSON(width: "0")]))?.contains("width 0.0 is outside (0, 1000.0]") == true)
        #expect(decodeError(drawingJSON([strokeJSON(width: "1e300")]))?.contains("width 1e+300 is outside") == true)
        #expect(decodeError(drawingJSON([strokeJSON(color: "[0, 0, 2, 1]")]))?.contains("colour component 2.0 is outside 0...1") == true)
        #expect(decodeError(drawingJSON([strokeJSON(color: "[0, 0, 1]")]))?.contains("a colour has 4 components") == true)
        #expect(decodeError(drawingJSON([strokeJSON(id: "0")]))?.contains("id 0 is outside") == true)
        #expect(decodeError(drawingJSON([strokeJSON(id: "9007199254740992")]))?.contains("is outside 1...9007199254740991") == true)
        #expect(decodeError(drawingJSON([strokeJSON(id: "99999999999999999999999")]))?.contains("too large") == true)
        #expect(decodeError(drawingJSON([strokeJSON(width: "1." + String(repeating: "0", count: 100))]))?.contains("longer than 64 characters") == true)
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"" + String(repeating: "x", count: 100) + "\"")]))?.contains("longer than 32 bytes") == true)
        var small = DrawingFormat.Limits()
        small.maxFileBytes = 100
        #expect(decodeError(drawingJSON([strokeJSON(), strokeJSON(id: "2")]), limits: small)?.contains("more than the 100 bytes limit") == true)
    }

    @Test("Millions of points and strokes stop at the limits, early")
    func countLimits() {
        var limits = DrawingFormat.Limits()
        limits.maxPointsPerStroke = 10
        limits.maxTotalPoints = 25
        limits.maxStrokes = 4
        let points = { (n: Int) in "[" + Array(repeating: "[1, 2]", count: n).joined(separator: ",") + "]" }
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"freehand\"", points: points(10))]), limits: limits) == nil)
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"freehand\"", points: points(11))]), limits: limits)?
            .contains("stroke 1 has more than 10 points") == true)
        let three = (1...3).map { strokeJSON(id: "\($0)", kind: "\"freehand\"", points: points(9)) }
        #expect(decodeError(drawingJSON(three), limits: limits)?.contains("the drawing has more than 25 points") == true)
        let five = (1...5).map { strokeJSON(id: "\($0)") }
        #expect(decodeError(drawingJSON(five), limits: limits)?.contains("the drawing has more than 4 strokes") == true)
        // With the standard limits: two million points in one stroke.
        let huge = Array(drawingJSON([strokeJSON(kind: "\"freehand\"", points: "[" + String(repeating: "[1,2],", count: 2_000_000) + "[1,2]]")]).utf8)
        do {
            _ = try DrawingFormat.decode(huge)
            Issue.record("two million points were accepted")
        } catch {
            #expect(error.message.contains("stroke 1 has more than 100000 points"), "\(error)")
        }
    }

    @Test("Structure: duplicates, missing keys, wrong kinds and shapes, deep nesting")
    func structure() {
        #expect(decodeError(drawingJSON([strokeJSON(), strokeJSON()]))?.contains("id 1 is used twice") == true)
        #expect(decodeError(drawingJSON([strokeJSON(extra: ", \"width\": 3")]))?.contains("the key \"width\" appears twice") == true)
        #expect(decodeError(drawingJSON(["{\"id\": 1, \"kind\": \"line\", \"color\": [0,0,0,1], \"points\": [[1,2],[3,4]]}"]))?
            .contains("stroke 1 has no \"width\"") == true)
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"spline\"")]))?.contains("unknown kind \"spline\" (known: line, freehand, circle)") == true)
        // Text from the file stays on one line and short in the message.
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"li\\nne\"")]))?.contains("unknown kind \"li\\u{a}ne\"") == true)
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1, 2], [3, 4], [5, 6]]")]))?.contains("a line has 2 points, this one has 3") == true)
        #expect(decodeError(drawingJSON([strokeJSON(kind: "\"freehand\"", points: "[]")]))?.contains("at least one point") == true)
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1, 2, 3], [3, 4]]")]))?.contains("this one has more numbers") == true)
        #expect(decodeError(drawingJSON([strokeJSON(points: "[[1], [3, 4]]")]))?.contains("this one has 1 number") == true)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(decodeError(drawingJSON([strokeJSON(extra: ", \"x\": " + deep)]))?.contains("nested more than 32 deep") == true)
    }

    @Test("The writer leaves out what the reader would refuse, and says so")
    func writerKeepsToTheLimits() throws {
        var limits = DrawingFormat.Limits()
        limits.maxStrokes = 2
        let strokes = [
            Stroke.line(StrokeID(1), from: .zero, to: Point(x: .nan, y: 0)),
            Stroke.line(StrokeID(2), from: .zero, to: Point(x: 1, y: 1)),
            Stroke.line(StrokeID(3), from: .zero, to: Point(x: 2, y: 2)),
            Stroke.line(StrokeID(4), from: .zero, to: Point(x: 3, y: 3)),
        ]
        let encoded = DrawingFormat.encode(strokes, limits: limits)
        #expect(encoded.omitted.map(\.id) == [StrokeID(1), StrokeID(4)])
        #expect(encoded.omitted[0].reason.contains("coordinate nan"))
        #expect(try DrawingFormat.decode(encoded.bytes, limits: limits).map(\.id) == [StrokeID(2), StrokeID(3)])
    }
}
