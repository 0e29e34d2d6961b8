// The drawing file format, version 1 (docs/file-format.md): JSON, written and read by hand so that
// every limit is checked while reading (a hostile file cannot make the reader allocate more than
// the limits allow, or recurse deeper than they allow) and every Double round-trips bit for bit.
// Pure functions over bytes: no files, no clock, no logging.
#if canImport(Glibc)
import Glibc
#endif
import TouchKit

/// Encodes and decodes drawings in TouchTracker's file format.
///
/// A file is one JSON object: `{"format": "touchtracker-drawing", "version": 1, "strokes": [...]}`,
/// each stroke `{"id": 1, "kind": "line", "color": [r, g, b, a], "width": 10.0,
/// "points": [[x, y], ...]}`. ``encode(_:limits:)`` writes numbers in their shortest form that
/// reads back to the same `Double`; ``decode(_:limits:)`` accepts any valid JSON with that shape
/// (keys in any order, unknown keys ignored) and rejects everything else with a one-line
/// ``DrawingFileError``.
public enum DrawingFormat {
    /// The value of the `format` key.
    public static let formatName = "touchtracker-drawing"
    /// The version this code writes and the only one it reads.
    public static let version = 1

    /// What a file may contain. The writer keeps to the same limits, so that what it saves can
    /// always be read back.
    public struct Limits: Sendable, Equatable {
        /// The largest file read, in bytes (128 MiB).
        public var maxFileBytes = 128 << 20
        public var maxStrokes = 250_000
        public var maxPointsPerStroke = 100_000
        public var maxTotalPoints = 2_000_000
        /// Coordinates lie in ±this many points (Cairo's fixed-point range is about ±8 million).
        public var maxCoordinate = 1_000_000.0
        /// Widths lie in (0, this].
        public var maxWidth = 1000.0
        /// Stroke ids lie in 1...this (2^53 − 1: exact in every JSON reader, and `id + 1` never
        /// overflows).
        public var maxID = (1 << 53) - 1
        /// How deeply unknown values may nest (they are skipped by recursion).
        public var maxDepth = 32
        /// The longest number literal, in characters.
        public var maxNumberLength = 64

        public init() {}

        /// The limits the app uses.
        public static let standard = Limits()
    }

    /// The result of encoding: the bytes, and what had to be left out to keep within the limits.
    public struct Encoded: Sendable {
        public var bytes: [UInt8]
        /// Strokes not written, each with the reason (empty for any drawing the app can make).
        public var omitted: [(id: StrokeID, reason: String)]
    }

    // MARK: Writing

    /// Encodes strokes in paint order, one stroke per line. A stroke the reader would reject
    /// (a non-finite coordinate, a width out of range, strokes or points beyond the limits) is
    /// left out and listed in ``Encoded/omitted``, so the file always reads back.
    ///
    /// `token` (optional) names this write of the file, so that a journal of later changes
    /// (``DrawingJournal``) can tell whether it belongs to it; readers that know no journal skip it.
    public static func encode(_ strokes: [Stroke], token: String? = nil, limits: Limits = .standard) -> Encoded {
        var out: [UInt8] = []
        out.reserveCapacity(64 + strokes.count * 96 + strokes.reduce(0) { $0 + $1.points.count } * 24)
        out.append(contentsOf: "{\"format\":\"\(formatName)\",\"version\":\(version),".utf8)
        if let token { out.append(contentsOf: "\"token\":\"\(token)\",".utf8) }
        out.append(contentsOf: "\"strokes\":[".utf8)
        var omitted: [(id: StrokeID, reason: String)] = []
        var written = 0
        var totalPoints = 0
        var ids = Set<Int>()
        for stroke in strokes {
            if let problem = problem(with: stroke, limits: limits) {
                omitted.append((stroke.id, problem))
                continue
            }
            if written == limits.maxStrokes {
                omitted.append((stroke.id, "more than \(limits.maxStrokes) strokes"))
                continue
            }
            if totalPoints + stroke.points.count > limits.maxTotalPoints {
                omitted.append((stroke.id, "more than \(limits.maxTotalPoints) points in the drawing"))
                continue
            }
            if !ids.insert(stroke.id.rawValue).inserted {
                omitted.append((stroke.id, "duplicate id"))
                continue
            }
            totalPoints += stroke.points.count
            out.append(contentsOf: written == 0 ? "\n".utf8 : ",\n".utf8)
            written += 1
            appendStroke(stroke, to: &out)
        }
        out.append(contentsOf: "\n]}\n".utf8)
        return Encoded(bytes: out, omitted: omitted)
    }

    /// Appends one stroke object, `{"id":...,"points":[...]}`, without checking it (callers check
    /// ``problem(with:limits:)`` first).
    static func appendStroke(_ stroke: Stroke, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"id\":".utf8)
        out.append(contentsOf: String(stroke.id.rawValue).utf8)
        out.append(contentsOf: ",\"kind\":\"".utf8)
        out.append(contentsOf: stroke.kind.rawValue.utf8)
        out.append(contentsOf: "\",\"color\":[".utf8)
        let color = stroke.color  // unpacked once, not once a component
        appendNumber(color.red, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(color.green, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(color.blue, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(color.alpha, to: &out)
        out.append(contentsOf: "],\"width\":".utf8)
        appendNumber(stroke.width, to: &out)
        out.append(contentsOf: ",\"points\":[".utf8)
        for (i, point) in stroke.points.enumerated() {
            out.append(contentsOf: i == 0 ? "[".utf8 : ",[".utf8)
            appendNumber(point.x, to: &out)
            out.append(UInt8(ascii: ","))
            appendNumber(point.y, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// Swift's `description` of a finite `Double` is the shortest decimal that reads back to the
    /// same bits ("0.1", "1e-05", "-0.0"); every such form is a valid JSON number.
    private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        out.append(contentsOf: value.description.utf8)
    }

    /// Why the reader would reject this stroke on its own (not counting the drawing-wide limits),
    /// or nil when it is fine.
    public static func problem(with stroke: Stroke, limits: Limits = .standard) -> String? {
        guard (1...limits.maxID).contains(stroke.id.rawValue) else {
            return "id \(stroke.id.rawValue) is outside 1...\(limits.maxID)"
        }
        let points = stroke.points
        switch stroke.kind {
        case .line, .circle:
            guard points.count == 2 else {
                return "a \(stroke.kind.rawValue) has 2 points, this one has \(points.count)"
            }
        case .freehand:
            guard !points.isEmpty else { return "a freehand stroke has at least one point" }
            guard points.count <= limits.maxPointsPerStroke else {
                return "more than \(limits.maxPointsPerStroke) points"
            }
        }
        let color = stroke.color
        for value in CollectionOfFour(color.red, color.green, color.blue, color.alpha) {
            guard value >= 0, value <= 1 else { return "colour component \(value) is outside 0...1" }
        }
        let width = stroke.width
        guard width > 0, width <= limits.maxWidth else {
            return "width \(width) is outside (0, \(limits.maxWidth)]"
        }
        for point in points {
            guard abs(point.x) <= limits.maxCoordinate else { return "coordinate \(point.x) is outside ±\(limits.maxCoordinate)" }
            guard abs(point.y) <= limits.maxCoordinate else { return "coordinate \(point.y) is outside ±\(limits.maxCoordinate)" }
        }
        return nil
    }

    // MARK: Reading

    /// Decodes a file's bytes into strokes, in paint order.
    ///
    /// - Throws: ``DrawingFileError`` with a one-line message (with the line and column for
    ///   syntax errors) for anything that is not a version-1 drawing within `limits`.
    public static func decode(_ bytes: [UInt8], limits: Limits = .standard) throws(DrawingFileError) -> [Stroke] {
        try decodeWithToken(bytes, limits: limits).strokes
    }

    /// Like ``decode(_:limits:)``, also returning the file's `token` (nil when it has none).
    public static func decodeWithToken(_ bytes: [UInt8], limits: Limits = .standard) throws(DrawingFileError) -> (strokes: [Stroke], token: String?) {
        guard bytes.count <= limits.maxFileBytes else {
            throw DrawingFileError("the file is \(byteCount(bytes.count)), more than the \(byteCount(limits.maxFileBytes)) limit")
        }
        guard !bytes.isEmpty else { throw DrawingFileError("the file is empty") }
        let result: Result<(strokes: [Stroke], token: String?), DrawingFileError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, limits: limits)
            do throws(DrawingFileError) {
                return .success(try reader.readDrawing())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// "12 KB", "200 MB", "128 MiB": sizes for messages.
    static func byteCount(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1_000_000 { return "\(n / 1_000_000) MB" }
        if n >= 1000 { return "\(n / 1000) KB" }
        return "\(n) bytes"
    }
}

/// A string from the file, safe inside a one-line message: quoted, control characters escaped,
/// cut after 40 characters.
func quoted(_ text: String) -> String {
    var out = "\""
    for (n, scalar) in text.unicodeScalars.enumerated() {
        if n == 40 {
            out += "…"
            break
        }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Four values to loop over without allocating an array (this runs once per stroke).
private struct CollectionOfFour: Sequence, IteratorProtocol {
    private var values: (Double, Double, Double, Double)
    private var index = 0
    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) { values = (a, b, c, d) }
    mutating func next() -> Double? {
        defer { index += 1 }
        switch index {
        case 0: return values.0
        case 1: return values.1
        case 2: return values.2
        case 3: return values.3
        default: return nil
        }
    }
}

/// Why a drawing file cannot be read: one line, without the file's name (the caller adds it).
public struct DrawingFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

// MARK: - The reader

/// A cursor over the file's bytes that reads exactly the shape of a drawing, checking the limits
/// as it goes. Recursion happens only when skipping unknown values, and is bounded by
/// `maxDepth`. The journal reads its records with it too, one line at a time.
struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: DrawingFormat.Limits
    var i = 0
    var totalPoints = 0
    /// ``readPoints(number:)``'s array, reused.
    var scratchPoints: [Point] = []
    /// The line number of `bytes[0]` in messages (the journal hands over one line of a file).
    var firstLine = 1

    init(bytes: UnsafeBufferPointer<UInt8>, limits: DrawingFormat.Limits) {
        self.bytes = bytes
        self.limits = limits
        // A UTF-8 byte order mark is tolerated.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    }

    // MARK: The drawing

    mutating func readDrawing() throws(DrawingFileError) -> (strokes: [Stroke], token: String?) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else {
            throw error(at: i, "not a TouchTracker drawing: expected '{', found \(found())")
        }
        var format: String?
        var version: Int?
        var strokes: [Stroke]?
        var token: String?
        var strokesOffset: Int?
        var seen = KeySet()
        try readObject { (reader: inout Reader, key: Key, keyOffset: Int) throws(DrawingFileError) in
            if Key.drawingKeys.contains(key), !seen.insert(key) {
                throw reader.error(at: keyOffset, "the key \"\(key.rawValue)\" appears twice")
            }
            switch key {
            case .format:
                let at = reader.i
                let value = try reader.readString(maxBytes: 64, what: "the format name")
                guard value == DrawingFormat.formatName else {
                    throw reader.error(at: at, "not a TouchTracker drawing: the format is \(quoted(value)), not \"\(DrawingFormat.formatName)\"")
                }
                format = value
            case .version:
                let at = reader.i
                let value = try reader.readInteger(what: "the format version")
                guard value == DrawingFormat.version else {
                    if value > DrawingFormat.version {
                        throw reader.error(at: at, "format version \(value) is newer than this TouchTracker reads (version \(DrawingFormat.version)); open it with a newer TouchTracker")
                    }
                    throw reader.error(at: at, "format version \(value) does not exist (this TouchTracker reads version \(DrawingFormat.version))")
                }
                version = value
            case .strokes:
                if format != nil, version != nil {
                    strokes = try reader.readStrokes()
                } else {
                    // Read the strokes once the format and version are known.
                    strokesOffset = reader.i
                    try reader.skipValue(depth: 1)
                }
            case .token:
                token = try reader.readString(maxBytes: DrawingJournal.maxTokenBytes, what: "the save token")
            default:
                try reader.skipValue(depth: 1)
            }
        }
        skipWhitespace()
        guard i == bytes.count else {
            throw error(at: i, "unexpected \(found()) after the end of the drawing")
        }
        guard format != nil else {
            throw DrawingFileError("not a TouchTracker drawing: there is no \"format\": \"\(DrawingFormat.formatName)\"")
        }
        guard version != nil else { throw DrawingFileError("the drawing has no format \"version\"") }
        if strokes == nil, let strokesOffset {
            i = strokesOffset
            strokes = try readStrokes()
        }
        guard let strokes else { throw DrawingFileError("the drawing has no \"strokes\" list") }
        return (strokes, token)
    }

    mutating func readStrokes() throws(DrawingFileError) -> [Stroke] {
        var strokes: [Stroke] = []
        var ids = Set<Int>()
        try readArray(what: "the strokes list") { (reader: inout Reader) throws(DrawingFileError) in
            let start = reader.i
            guard strokes.count < reader.limits.maxStrokes else {
                throw reader.error(at: start, "the drawing has more than \(reader.limits.maxStrokes) strokes")
            }
            let stroke = try reader.readStroke(number: strokes.count + 1)
            guard ids.insert(stroke.id.rawValue).inserted else {
                throw reader.error(at: start, "stroke \(strokes.count + 1): id \(stroke.id.rawValue) is used twice")
            }
            strokes.append(stroke)
        }
        // Appending left up to half the array unused; a drawing is kept for the whole session, so
        // it gets an array of its size and a sixteenth more, room for the first few thousand lines
        // drawn on it (a copy of about 1 ms for 100,000 lines).
        let capacity = strokes.count + strokes.count / 16
        return strokes.capacity > capacity + strokes.count / 16 ? Array(unsafeUninitializedCapacity: capacity) {
            buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: strokes)
        } : strokes
    }

    mutating func readStroke(number: Int) throws(DrawingFileError) -> Stroke {
        let start = i
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else {
            throw error(at: i, "stroke \(number): expected '{', found \(found())")
        }
        var id: Int?
        var kind: Stroke.Kind?
        var color: Color?
        var width: Double?
        var points: StrokePoints?
        var seen = KeySet()
        try readObject { (reader: inout Reader, key: Key, keyOffset: Int) throws(DrawingFileError) in
            if Key.strokeKeys.contains(key), !seen.insert(key) {
                throw reader.error(at: keyOffset, "stroke \(number): the key \"\(key.rawValue)\" appears twice")
            }
            let at = reader.i
            switch key {
            case .id:
                let value = try reader.readInteger(what: "stroke \(number)'s id")
                guard (1...reader.limits.maxID).contains(value) else {
                    throw reader.error(at: at, "stroke \(number): id \(value) is outside 1...\(reader.limits.maxID)")
                }
                id = value
            case .kind:
                let name = try reader.readString(maxBytes: 32, what: "stroke \(number)'s kind")
                guard let value = Stroke.Kind(rawValue: name) else {
                    throw reader.error(at: at, "stroke \(number): unknown kind \(quoted(name)) (known: \(Stroke.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                kind = value
            case .color:
                var components: [Double] = []
                try reader.readArray(what: "stroke \(number)'s colour") { (reader: inout Reader) throws(DrawingFileError) in
                    let at = reader.i
                    guard components.count < 4 else {
                        throw reader.error(at: at, "stroke \(number): a colour has 4 components (red, green, blue, alpha)")
                    }
                    let value = try reader.readNumber(what: "a colour component")
                    guard value >= 0, value <= 1 else {
                        throw reader.error(at: at, "stroke \(number): colour component \(value) is outside 0...1")
                    }
                    components.append(value)
                }
                guard components.count == 4 else {
                    throw reader.error(at: at, "stroke \(number): a colour has 4 components (red, green, blue, alpha), this one \(components.count)")
                }
                color = Color(red: components[0], green: components[1], blue: components[2], alpha: components[3])
            case .width:
                let value = try reader.readNumber(what: "stroke \(number)'s width")
                guard value > 0, value <= reader.limits.maxWidth else {
                    throw reader.error(at: at, "stroke \(number): width \(value) is outside (0, \(reader.limits.maxWidth)]")
                }
                width = value
            case .points:
                points = try reader.readPoints(number: number)
            default:
                try reader.skipValue(depth: 2)
            }
        }
        func missing(_ key: String) -> DrawingFileError { error(at: start, "stroke \(number) has no \"\(key)\"") }
        guard let id else { throw missing("id") }
        guard let kind else { throw missing("kind") }
        guard let color else { throw missing("color") }
        guard let width else { throw missing("width") }
        guard let points else { throw missing("points") }
        let stroke = Stroke(id: StrokeID(id), kind: kind, points: points, color: color, width: width)
        if let problem = DrawingFormat.problem(with: stroke, limits: limits) {
            throw error(at: start, "stroke \(number): \(problem)")
        }
        return stroke
    }

    mutating func readPoints(number: Int) throws(DrawingFileError) -> StrokePoints {
        // Read into one array kept across strokes, so that a line's two points, which the stroke
        // keeps inline, need no array of their own; other counts get an array of their size.
        var points = scratchPoints
        scratchPoints = []
        points.removeAll(keepingCapacity: true)
        try readArray(what: "stroke \(number)'s points") { (reader: inout Reader) throws(DrawingFileError) in
            let at = reader.i
            guard points.count < reader.limits.maxPointsPerStroke else {
                throw reader.error(at: at, "stroke \(number) has more than \(reader.limits.maxPointsPerStroke) points")
            }
            guard reader.totalPoints < reader.limits.maxTotalPoints else {
                throw reader.error(at: at, "the drawing has more than \(reader.limits.maxTotalPoints) points")
            }
            let point = try reader.readPoint(number: number)
            points.append(point)
            reader.totalPoints += 1
        }
        defer { scratchPoints = points }
        if points.count == 2 { return StrokePoints(points[0], points[1]) }
        return StrokePoints(Array(unsafeUninitializedCapacity: points.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: points)
        })
    }

    /// Reads `[x, y]` without building an intermediate list (a drawing may hold millions).
    mutating func readPoint(number: Int) throws(DrawingFileError) -> Point {
        skipWhitespace()
        let start = i
        guard peek() == UInt8(ascii: "[") else {
            throw error(at: i, "stroke \(number): a point should be a list [x, y], found \(found())")
        }
        i += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { throw error(at: start, "stroke \(number): a point is [x, y], this one is empty") }
        let x = try readCoordinate(number: number)
        skipWhitespace()
        guard peek() == UInt8(ascii: ",") else {
            if peek() == UInt8(ascii: "]") { throw error(at: start, "stroke \(number): a point is [x, y], this one has 1 number") }
            throw error(at: i, "expected ',' between x and y, found \(found())")
        }
        i += 1
        let y = try readCoordinate(number: number)
        skipWhitespace()
        guard peek() == UInt8(ascii: "]") else {
            if peek() == UInt8(ascii: ",") { throw error(at: start, "stroke \(number): a point is [x, y], this one has more numbers") }
            throw error(at: i, "expected ']' after a point's y, found \(found())")
        }
        i += 1
        return Point(x: x, y: y)
    }

    mutating func readCoordinate(number: Int) throws(DrawingFileError) -> Double {
        skipWhitespace()
        let at = i
        let value = try readNumber(what: "a coordinate")
        guard abs(value) <= limits.maxCoordinate else {
            throw error(at: at, "stroke \(number): coordinate \(value) is outside ±\(limits.maxCoordinate)")
        }
        return value
    }

    // MARK: JSON structure

    /// Reads `{ "key": value, ... }`; `body` reads each value (the cursor is at it).
    mutating func readObject(_ body: (inout Reader, Key, Int) throws(DrawingFileError) -> Void) throws(DrawingFileError) {
        skipWhitespace()
        try expect("{", "'{'")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            let keyOffset = i
            guard peek() == UInt8(ascii: "\"") else { throw error(at: i, "expected a key in quotes, found \(found())") }
            let key = try readKey()
            skipWhitespace()
            try expect(":", "':' after a key")
            skipWhitespace()
            try body(&self, key, keyOffset)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect("}", "',' or '}'")
            return
        }
    }

    /// Reads `[ value, ... ]`; `body` reads each element (the cursor is at it).
    mutating func readArray(what: @autoclosure () -> String, _ body: (inout Reader) throws(DrawingFileError) -> Void) throws(DrawingFileError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw error(at: i, "\(what()) should be a list '[', found \(found())") }
        i += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            try body(&self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect("]", "',' or ']' in \(what())")
            return
        }
    }

    /// Steps over any JSON value without keeping it.
    mutating func skipValue(depth: Int) throws(DrawingFileError) {
        guard depth <= limits.maxDepth else {
            throw error(at: i, "values nested more than \(limits.maxDepth) deep")
        }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            try readObject { (reader: inout Reader, _: Key, _: Int) throws(DrawingFileError) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try readArray(what: "a list") { (reader: inout Reader) throws(DrawingFileError) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            _ = try readString(maxBytes: 0, what: "a string", truncating: true)
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        default:
            _ = try readNumber(what: "a value")
        }
    }

    mutating func expectWord(_ word: String) throws(DrawingFileError) {
        let start = i
        for byte in word.utf8 {
            guard peek() == byte else { throw error(at: start, "expected a value, found \(found(at: start))") }
            i += 1
        }
    }

    /// The keys the format knows; any other is `.other` and its value is skipped.
    enum Key: String, CaseIterable {
        case format, version, strokes, token, id, kind, color, width, points
        /// Journal records (`DrawingJournal`).
        case add, at, remove, update
        case other

        /// The keys each object knows; any other key in it is skipped like `.other`, twice or not.
        static let drawingKeys = KeySet([.format, .version, .strokes, .token])
        static let strokeKeys = KeySet([.id, .kind, .color, .width, .points])

        /// One bit per key, for sets checked once per key of every stroke (no hashing).
        var bit: UInt32 {
            switch self {
            case .format: 1 << 0
            case .version: 1 << 1
            case .strokes: 1 << 2
            case .token: 1 << 3
            case .id: 1 << 4
            case .kind: 1 << 5
            case .color: 1 << 6
            case .width: 1 << 7
            case .points: 1 << 8
            case .add: 1 << 9
            case .at: 1 << 10
            case .remove: 1 << 11
            case .update: 1 << 12
            case .other: 1 << 13
            }
        }

        static let spellings: [(bytes: [UInt8], key: Key)] = allCases.filter { $0 != .other }.map { (Array($0.rawValue.utf8), $0) }
    }

    /// A set of keys as bits: the reader asks "seen this key already?" a few times per stroke.
    struct KeySet {
        private var bits: UInt32 = 0

        init(_ keys: [Key] = []) {
            for key in keys { bits |= key.bit }
        }

        func contains(_ key: Key) -> Bool { bits & key.bit != 0 }

        /// Adds `key`; false when it was there already.
        mutating func insert(_ key: Key) -> Bool {
            defer { bits |= key.bit }
            return bits & key.bit == 0
        }
    }

    /// Reads a key. The usual case, a short key without escapes, is matched in place.
    mutating func readKey() throws(DrawingFileError) -> Key {
        let start = i + 1
        var end = start
        while end < bytes.count, end - start <= 8, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
              bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            i = end + 1
            let length = end - start
            for (spelling, key) in Key.spellings where spelling.count == length {
                var same = true
                for k in 0..<length where bytes[start + k] != spelling[k] {
                    same = false
                    break
                }
                if same { return key }
            }
            return .other
        }
        // Escapes, control characters or a long key: decode it (a long key is unknown anyway).
        let name = try readString(maxBytes: 16, what: "a key", truncating: true)
        return Key(rawValue: name) ?? .other
    }

    // MARK: JSON scalars

    /// Reads a string, decoding escapes. Longer than `maxBytes`: an error, or with `truncating`
    /// the first `maxBytes` bytes (used for keys and skipped strings, which need not be kept).
    mutating func readString(maxBytes: Int, what: @autoclosure () -> String, truncating: Bool = false) throws(DrawingFileError) -> String {
        skipWhitespace()
        let start = i
        guard peek() == UInt8(ascii: "\"") else {
            throw error(at: i, "\(what()) should be a string in quotes, found \(found())")
        }
        i += 1
        var value: [UInt8] = []
        func add(_ byte: UInt8) throws(DrawingFileError) {
            if value.count < maxBytes {
                value.append(byte)
            } else if !truncating {
                throw error(at: start, "\(what()) is longer than \(maxBytes) bytes")
            }
        }
        while true {
            guard i < bytes.count else { throw endOfFile() }
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { throw endOfFile() }
                let escape = bytes[i]
                i += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): try add(escape)
                case UInt8(ascii: "b"): try add(8)
                case UInt8(ascii: "f"): try add(12)
                case UInt8(ascii: "n"): try add(10)
                case UInt8(ascii: "r"): try add(13)
                case UInt8(ascii: "t"): try add(9)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar), peek() == UInt8(ascii: "\\"),
                       i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") {
                        let save = i
                        i += 2
                        let low = try readHex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            i = save
                        }
                    }
                    for unit in String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8 { try add(unit) }
                default:
                    // The byte after the backslash may be a line break: name it, one-line messages.
                    let shown = (0x21..<0x7F).contains(escape) ? "'\\\(Character(Unicode.Scalar(escape)))'"
                        : "'\\' followed by byte 0x\(String(escape, radix: 16, uppercase: true))"
                    throw error(at: i - 2, "unknown escape \(shown) in \(what())")
                }
            case 0..<0x20:
                throw error(at: i - 1, "\(what()) contains a control character (byte 0x\(String(byte, radix: 16))); strings end with '\"' on the same line")
            default:
                try add(byte)
            }
        }
    }

    mutating func readHex4() throws(DrawingFileError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw endOfFile() }
            let byte = bytes[i]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(at: i, "expected four hex digits after \\u, found \(found())")
            }
            value = value * 16 + digit
            i += 1
        }
        return value
    }

    /// Reads a JSON number (strict grammar) as a finite `Double`, correctly rounded: exactly
    /// when digits and exponent are small (Clinger's fast path: one rounding of exact operands),
    /// else by `strtod`.
    mutating func readNumber(what: @autoclosure () -> String) throws(DrawingFileError) -> Double {
        skipWhitespace()
        let start = i
        try scanNumber(what: what())
        let length = i - start
        guard length <= limits.maxNumberLength else {
            throw error(at: start, "a number is longer than \(limits.maxNumberLength) characters")
        }
        if let value = fastNumber(start, i) { return value }
        // strtod needs a NUL-terminated copy (on the stack); the grammar is checked, so it reads
        // all of it.
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            for k in 0..<length { text[k] = CChar(bitPattern: bytes[start + k]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
        guard value.isFinite else {
            throw error(at: start, "the number \(String(decoding: bytes[start..<i], as: UTF8.self)) is out of range")
        }
        return value
    }

    /// Exact powers of ten as doubles (10^22 is the last one a Double holds exactly).
    static let powersOfTen: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// The value of the number text in `start..<end` if it has at most 15 significant digits and
    /// a decimal exponent within ±22, else nil. Both the digits and the power are exact, so the
    /// one division or multiplication rounds correctly, as strtod would.
    func fastNumber(_ start: Int, _ end: Int) -> Double? {
        var k = start
        var negative = false
        if bytes[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var inFraction = false
        while k < end {
            let byte = bytes[k]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if inFraction { scale -= 1 }
            }
            k += 1
        }
        if k < end {
            k += 1
            var exponentNegative = false
            if bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") {
                exponentNegative = bytes[k] == UInt8(ascii: "-")
                k += 1
            }
            var exponent = 0
            while k < end {
                exponent = exponent * 10 + Int(bytes[k] - UInt8(ascii: "0"))
                guard exponent < 1000 else { return nil }
                k += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if scale >= 0, scale <= 22 {
            value = Double(mantissa) * Self.powersOfTen[scale]
        } else if scale < 0, scale >= -22 {
            value = Double(mantissa) / Self.powersOfTen[-scale]
        } else {
            return nil
        }
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// Reads a JSON number that is a whole number written without fraction or exponent.
    mutating func readInteger(what: @autoclosure () -> String) throws(DrawingFileError) -> Int {
        skipWhitespace()
        let start = i
        try scanNumber(what: what())
        var negative = false
        var k = start
        if bytes[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var value = 0
        while k < i {
            let byte = bytes[k]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw error(at: start, "\(what()) should be a whole number, found \(String(decoding: bytes[start..<i], as: UTF8.self))")
            }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { throw error(at: start, "\(what()) is too large") }
            value = sum
            k += 1
        }
        return negative ? -value : value
    }

    /// Moves past `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber(what: @autoclosure () -> String) throws(DrawingFileError) {
        let start = i
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        func digits() { while isDigit(peek()) { i += 1 } }
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard isDigit(peek()) else {
            if i >= bytes.count { throw endOfFile() }
            // NaN and Infinity, as some writers (Python's json module) produce them.
            if let b = peek(), b == UInt8(ascii: "N") || b == UInt8(ascii: "I") || b == UInt8(ascii: "n") || b == UInt8(ascii: "i") {
                var end = i
                while end < bytes.count, end - i < 16, (bytes[end] | 0x20) >= UInt8(ascii: "a"), (bytes[end] | 0x20) <= UInt8(ascii: "z") { end += 1 }
                let word = String(decoding: bytes[start..<end], as: UTF8.self)
                throw error(at: start, "\(what()) is \(word), which is not a number (coordinates and sizes must be finite)")
            }
            throw error(at: start, "expected \(what()), found \(found(at: start))")
        }
        if peek() == UInt8(ascii: "0") {
            i += 1
            if isDigit(peek()) { throw error(at: start, "a number cannot start with 0 (\(what()))") }
        } else {
            digits()
        }
        if peek() == UInt8(ascii: ".") {
            i += 1
            guard isDigit(peek()) else { throw error(at: i, "expected a digit after '.', found \(found())") }
            digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek()) else { throw error(at: i, "expected a digit in the exponent, found \(found())") }
            digits()
        }
    }

    // MARK: Bytes

    func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func expect(_ character: Unicode.Scalar, _ what: @autoclosure () -> String) throws(DrawingFileError) {
        guard peek() == UInt8(ascii: character) else { throw error(at: i, "expected \(what()), found \(found())") }
        i += 1
    }

    func found(at offset: Int? = nil) -> String {
        let at = offset ?? i
        guard at < bytes.count else { return "the end of the file (truncated?)" }
        let byte = bytes[at]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func endOfFile() -> DrawingFileError {
        error(at: bytes.count, "the file ends in the middle of the drawing (truncated?)")
    }

    /// An error at a byte offset, prefixed with its line and column (1-based).
    func error(at offset: Int, _ message: String) -> DrawingFileError {
        var line = firstLine
        var lineStart = 0
        let end = min(offset, bytes.count)
        for k in 0..<end where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return DrawingFileError("line \(line), column \(end - lineStart + 1): \(message)")
    }
}
