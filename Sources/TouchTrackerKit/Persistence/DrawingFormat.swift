// The drawing file format, version 1 (docs/file-format.md): its name, version and limits, what
// makes a stroke valid, and the writer. The reader is in DrawingReader.swift, on the JSON scanner
// of JSONScanner.swift. Both are written by hand so that every limit is checked while reading (a
// hostile file cannot make the reader allocate more than the limits allow, or recurse deeper than
// they allow) and every Double round-trips bit for bit. Pure functions over bytes: no files, no
// clock, no logging.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import SafeFiles
import TouchKit

/// Encodes and decodes drawings in TouchTracker's file format.
///
/// A file is one JSON object: `{"format": "touchtracker-drawing", "version": 1, "strokes": [...]}`,
/// each stroke `{"id": 1, "kind": "line", "color": [r, g, b, a], "width": 10.0,
/// "points": [[x, y], ...]}`. ``encode(_:limits:)`` writes numbers in their shortest form that
/// reads back to the same `Double`; ``decode(_:limits:)`` accepts any valid JSON with that shape
/// (keys in any order, unknown keys ignored) and rejects everything else with a one-line
/// ``DrawingParseError`` (DrawingReader.swift).
public enum DrawingFormat {
    /// The value of the `format` key.
    public static let formatName = "touchtracker-drawing"
    /// The version this code writes and the only one it reads.
    public static let version = 1

    /// What a file may contain. The writer keeps to the same limits, so that what it saves can
    /// always be read back.
    public struct Limits: Sendable, Equatable {
        /// The largest file read, in bytes.
        public var maxFileBytes = Limit.drawingFileBytes
        public var maxStrokes = Limit.strokes
        public var maxPointsPerStroke = Limit.pointsPerStroke
        public var maxTotalPoints = Limit.totalPoints
        /// Coordinates lie in ±this many points.
        public var maxCoordinate = Limit.coordinate
        /// Widths lie in (0, this].
        public var maxWidth = Limit.lineWidth
        /// Stroke ids lie in 1...this.
        public var maxID = Limit.strokeID
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
        if let token {
            out.append(contentsOf: "\"token\":".utf8)
            out.append(contentsOf: jsonString(token))
            out.append(UInt8(ascii: ","))
        }
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

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// "12 KB", "200 MB", "128 MiB": sizes for messages.
    static func byteCount(_ n: Int) -> String { SafeFile.byteCount(n) }
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
