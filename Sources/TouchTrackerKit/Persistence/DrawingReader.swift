// Reading a drawing file (docs/file-format.md): the drawing's shape read off the JSON scanner
// (JSONScanner.swift), every limit checked as it is read, and the one-line errors a user sees.
import TouchKit

extension DrawingFormat {
    /// Decodes a file's bytes into strokes, in paint order.
    ///
    /// - Throws: ``DrawingParseError`` with a one-line message (with the line and column for
    ///   syntax errors) for anything that is not a version-1 drawing within `limits`.
    public static func decode(_ bytes: [UInt8], limits: Limits = .standard) throws(DrawingParseError) -> [Stroke] {
        try decodeWithToken(bytes, limits: limits).strokes
    }

    /// Like ``decode(_:limits:)``, also returning the file's `token` (nil when it has none).
    public static func decodeWithToken(_ bytes: [UInt8], limits: Limits = .standard) throws(DrawingParseError) -> (strokes: [Stroke], token: String?) {
        guard bytes.count <= limits.maxFileBytes else {
            throw DrawingParseError("the file is \(byteCount(bytes.count)), more than the \(byteCount(limits.maxFileBytes)) limit")
        }
        guard !bytes.isEmpty else { throw DrawingParseError("the file is empty") }
        let result: Result<(strokes: [Stroke], token: String?), DrawingParseError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONScanner(bytes: buffer, limits: limits)
            do throws(DrawingParseError) {
                return .success(try reader.readDrawing())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Why a drawing file cannot be read: one line, without the file's name (the caller adds it).
public struct DrawingParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What reading strokes keeps from one stroke to the next.
struct StrokeReading {
    /// The points read so far, against `maxTotalPoints`.
    var totalPoints = 0
    /// ``JSONScanner/readPoints(number:reading:)``'s array, reused.
    var scratchPoints: [Point] = []
}

extension JSONScanner {
    /// The keys the drawing and journal formats know, as ``readKey()`` matches them; any other is
    /// `.other` and its value is skipped.
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


    // MARK: The drawing


    mutating func readDrawing() throws(DrawingParseError) -> (strokes: [Stroke], token: String?) {
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
        try readObject { (reader: inout JSONScanner, key: Key, keyOffset: Int) throws(DrawingParseError) in
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
            throw DrawingParseError("not a TouchTracker drawing: there is no \"format\": \"\(DrawingFormat.formatName)\"")
        }
        guard version != nil else { throw DrawingParseError("the drawing has no format \"version\"") }
        if strokes == nil, let strokesOffset {
            i = strokesOffset
            strokes = try readStrokes()
        }
        guard let strokes else { throw DrawingParseError("the drawing has no \"strokes\" list") }
        return (strokes, token)
    }

    mutating func readStrokes() throws(DrawingParseError) -> [Stroke] {
        var strokes: [Stroke] = []
        var ids = Set<Int>()
        var reading = StrokeReading()
        try readArray(what: "the strokes list") { (reader: inout JSONScanner) throws(DrawingParseError) in
            let start = reader.i
            guard strokes.count < reader.limits.maxStrokes else {
                throw reader.error(at: start, "the drawing has more than \(reader.limits.maxStrokes) strokes")
            }
            let stroke = try reader.readStroke(number: strokes.count + 1, reading: &reading)
            guard ids.insert(stroke.id.rawValue).inserted else {
                throw reader.error(at: start, "stroke \(strokes.count + 1): id \(stroke.id.rawValue) is used twice")
            }
            strokes.append(stroke)
        }
        // Appending left up to half the array unused; a drawing is kept for the whole session, so
        // it gets an array of its size and a sixteenth more, room for the first few thousand lines
        // drawn on it (one copy, when the drawing is opened).
        let capacity = strokes.count + strokes.count / 16
        return strokes.capacity > capacity + strokes.count / 16 ? Array(unsafeUninitializedCapacity: capacity) {
            buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: strokes)
        } : strokes
    }

    /// Reads stroke number `number` (counted from 1, for messages).
    mutating func readStroke(number: Int, reading: inout StrokeReading) throws(DrawingParseError) -> Stroke {
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
        try readObject { (reader: inout JSONScanner, key: Key, keyOffset: Int) throws(DrawingParseError) in
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
                try reader.readArray(what: "stroke \(number)'s colour") { (reader: inout JSONScanner) throws(DrawingParseError) in
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
                points = try reader.readPoints(number: number, reading: &reading)
            default:
                try reader.skipValue(depth: 2)
            }
        }
        func missing(_ key: String) -> DrawingParseError { error(at: start, "stroke \(number) has no \"\(key)\"") }
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

    mutating func readPoints(number: Int, reading: inout StrokeReading) throws(DrawingParseError) -> StrokePoints {
        // Read into one array kept across strokes, so that a line's two points, which the stroke
        // keeps inline, need no array of their own; other counts get an array of their size.
        var points = reading.scratchPoints
        reading.scratchPoints = []
        points.removeAll(keepingCapacity: true)
        try readArray(what: "stroke \(number)'s points") { (reader: inout JSONScanner) throws(DrawingParseError) in
            let at = reader.i
            guard points.count < reader.limits.maxPointsPerStroke else {
                throw reader.error(at: at, "stroke \(number) has more than \(reader.limits.maxPointsPerStroke) points")
            }
            guard reading.totalPoints < reader.limits.maxTotalPoints else {
                throw reader.error(at: at, "the drawing has more than \(reader.limits.maxTotalPoints) points")
            }
            let point = try reader.readPoint(number: number)
            points.append(point)
            reading.totalPoints += 1
        }
        defer { reading.scratchPoints = points }
        if points.count == 2 { return StrokePoints(points[0], points[1]) }
        return StrokePoints(Array(unsafeUninitializedCapacity: points.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: points)
        })
    }

    /// Reads `[x, y]` without building an intermediate list (a drawing may hold millions).
    mutating func readPoint(number: Int) throws(DrawingParseError) -> Point {
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

    mutating func readCoordinate(number: Int) throws(DrawingParseError) -> Double {
        skipWhitespace()
        let at = i
        let value = try readNumber(what: "a coordinate")
        guard abs(value) <= limits.maxCoordinate else {
            throw error(at: at, "stroke \(number): coordinate \(value) is outside ±\(limits.maxCoordinate)")
        }
        return value
    }

}
