// The journal beside a drawing file: the changes made since the file was last written whole, one
// JSON line each (docs/file-format.md, "The journal"). Appending a line costs the same at any
// drawing size, where rewriting the file costs in proportion to the drawing. Opening replays the
// journal onto the file. The journal's first line names the token of the file write it continues,
// so a journal that outlived a compaction (a crash between writing the file and removing the
// journal) is never applied to the newer file.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import TouchKit

/// The journal file of a drawing and its records.
public enum DrawingJournal {
    /// The value of the header's `format` key.
    public static let formatName = "touchtracker-journal"
    /// The version this code writes and the only one it reads.
    public static let version = 1
    /// The longest token read (the app writes 16 hex digits).
    static let maxTokenBytes = Limit.tokenBytes

    /// One change, as `Drawing.observe` reports it (a reset is never journalled: the autosaver
    /// writes the whole file instead).
    public enum Record: Equatable, Sendable {
        /// A stroke put at `at` in the paint order (the top for a new stroke; its old place for an
        /// undone delete).
        case add(Stroke, at: Int)
        case remove(StrokeID)
        /// A stroke replaced by a changed copy with the same id.
        case update(Stroke)
    }

    /// The journal of the drawing at `drawingPath`: `drawing.json` → `drawing.json.journal`.
    public static func path(for drawingPath: String) -> String { drawingPath + ".journal" }

    /// A new random token for a whole write of a drawing file: 16 hex digits.
    public static func newToken() -> String {
        var random = SystemRandomNumberGenerator()
        let hex = String(random.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Writing

    /// The first line of a journal that continues the file written with `token`.
    public static func header(token: String) -> [UInt8] {
        Array("{\"format\":\"\(formatName)\",\"version\":\(version),\"token\":\"\(token)\"}\n".utf8)
    }

    /// The records as lines (`{"add":{...},"at":3}`, `{"remove":7}`, `{"update":{...}}`), or nil
    /// when a stroke is one the reader would reject: then the whole file must be written, which
    /// leaves such a stroke out with a warning.
    public static func encode(_ records: [Record], limits: DrawingFormat.Limits = .standard) -> [UInt8]? {
        var out: [UInt8] = []
        for record in records {
            switch record {
            case .add(let stroke, let index):
                guard DrawingFormat.problem(with: stroke, limits: limits) == nil else { return nil }
                out.append(contentsOf: "{\"add\":".utf8)
                DrawingFormat.appendStroke(stroke, to: &out)
                out.append(contentsOf: ",\"at\":\(index)}\n".utf8)
            case .remove(let id):
                out.append(contentsOf: "{\"remove\":\(id.rawValue)}\n".utf8)
            case .update(let stroke):
                guard DrawingFormat.problem(with: stroke, limits: limits) == nil else { return nil }
                out.append(contentsOf: "{\"update\":".utf8)
                DrawingFormat.appendStroke(stroke, to: &out)
                out.append(contentsOf: "}\n".utf8)
            }
        }
        return out
    }

    /// Appends `bytes` to the journal at `path` and fsyncs it. The file must be `expectedSize`
    /// bytes long, else nothing is written (someone else changed it); `expectedSize` 0 creates the
    /// file anew with `mode`, replacing a stale one. On failure the file is cut back to
    /// `expectedSize` if possible; a part that stays is an unfinished last line, which readers
    /// ignore, or whole records that were indeed made.
    public static func append(_ bytes: [UInt8], to path: String, expectedSize: Int, mode: mode_t = 0o644) throws(FileIOError) {
        let creating = expectedSize == 0
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT | O_TRUNC : 0)
        let fd = Glibc.open(path, flags, mode)
        guard fd >= 0 else { throw FileIOError(creating ? "create" : "open", path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = FileIOError("append to", path)
            close(fd)
            throw error
        }
        guard Int(info.st_size) == expectedSize else {
            close(fd)
            throw FileIOError("append to", path, reason: "the journal is \(info.st_size) bytes where \(expectedSize) were written; it changed on disk")
        }
        func fail(_ action: String) -> FileIOError {
            let error = FileIOError(action, path)
            _ = ftruncate(fd, off_t(expectedSize))
            close(fd)
            return error
        }
        guard DrawingFile.writeAll(bytes, to: fd) else { throw fail("write") }
        guard fsync(fd) == 0 else { throw fail("write (fsync)") }
        guard close(fd) == 0 else { throw FileIOError("write (close)", path) }
        // A new file's name must be durable too.
        if creating { try DrawingFile.syncFolder(DrawingFile.folder(of: path)) }
    }

    // MARK: Reading

    /// What replaying a journal gave.
    public struct Replay: Sendable {
        /// The drawing: the file's strokes with every good record applied.
        public var strokes: [Stroke]
        /// How many records were applied.
        public var records: Int
        /// The first record that could not be read or does not fit the drawing ("line 7, column
        /// 12: ..." or "line 7: stroke #12 is not in the drawing"); the records after it were not
        /// read. Nil when every record was applied.
        public var problem: String?
        /// The bytes of an unfinished last line (a crash during an append), ignored.
        public var tornBytes: Int
    }

    /// What a journal is to the file it lies beside.
    public enum Reading: Sendable {
        /// It continues an earlier write of the file (or a file with no token): ignore it.
        case stale
        case replayed(Replay)
    }

    /// Replays journal `bytes` onto `base`, the strokes of the file written with `token`.
    public static func replay(_ bytes: [UInt8], onto base: [Stroke], token: String?,
                              limits: DrawingFormat.Limits = .standard) -> Reading {
        var drawing = ReplayedDrawing(base, limits: limits)
        // Everything after the last newline is an append that did not finish.
        let end = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        var replay = Replay(strokes: [], records: 0, problem: nil, tornBytes: bytes.count - end)
        var stale = false
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            var line = 1
            while lineStart < end {
                let lineEnd = buffer[lineStart..<end].firstIndex(of: 0x0A)!
                var reader = JSONScanner(bytes: UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd]), limits: limits)
                reader.firstLine = line
                do throws(DrawingParseError) {
                    if line == 1 {
                        guard let token, try reader.readHeader() == token else {
                            stale = true
                            return
                        }
                    } else if let problem = drawing.apply(try reader.readRecord()) {
                        replay.problem = "line \(line): \(problem)"
                        return
                    } else {
                        replay.records += 1
                    }
                } catch {
                    replay.problem = error.message
                    return
                }
                lineStart = lineEnd + 1
                line += 1
            }
        }
        if stale { return .stale }
        replay.strokes = drawing.strokes
        return .replayed(replay)
    }
}

/// The drawing as the replay changes it, checking that each record fits: adds of new ids at a place
/// that exists, removes and updates of strokes that are there, and the drawing-wide limits.
private struct ReplayedDrawing {
    var strokes: [Stroke]
    var indexByID: [StrokeID: Int] = [:]
    var totalPoints: Int
    let limits: DrawingFormat.Limits

    init(_ strokes: [Stroke], limits: DrawingFormat.Limits) {
        self.strokes = strokes
        self.limits = limits
        totalPoints = strokes.reduce(0) { $0 + $1.points.count }
        reindex(from: 0)
    }

    /// Applies a record, or says why it does not fit (and changes nothing).
    mutating func apply(_ record: DrawingJournal.Record) -> String? {
        switch record {
        case .add(let stroke, let index):
            guard indexByID[stroke.id] == nil else { return "stroke \(stroke.id) is added but already in the drawing" }
            guard index <= strokes.count else {
                return "stroke \(stroke.id) is added at place \(index) of a drawing of \(strokes.count) strokes"
            }
            guard strokes.count < limits.maxStrokes else { return "the drawing would have more than \(limits.maxStrokes) strokes" }
            guard totalPoints + stroke.points.count <= limits.maxTotalPoints else {
                return "the drawing would have more than \(limits.maxTotalPoints) points"
            }
            strokes.insert(stroke, at: index)
            totalPoints += stroke.points.count
            reindex(from: index)
        case .remove(let id):
            guard let index = indexByID[id] else { return "stroke \(id) is removed but is not in the drawing" }
            totalPoints -= strokes[index].points.count
            strokes.remove(at: index)
            indexByID[id] = nil
            reindex(from: index)
        case .update(let stroke):
            guard let index = indexByID[stroke.id] else { return "stroke \(stroke.id) is changed but is not in the drawing" }
            let points = totalPoints - strokes[index].points.count + stroke.points.count
            guard points <= limits.maxTotalPoints else { return "the drawing would have more than \(limits.maxTotalPoints) points" }
            totalPoints = points
            strokes[index] = stroke
        }
        return nil
    }

    /// Adds at the top, the usual record, cost O(1); elsewhere O(strokes), as in `Drawing`.
    private mutating func reindex(from start: Int) {
        for i in start..<strokes.count { indexByID[strokes[i].id] = i }
    }
}

// MARK: - Reading lines

extension JSONScanner {
    /// Reads the header line and returns its token.
    mutating func readHeader() throws(DrawingParseError) -> String {
        var format: String?
        var version: Int?
        var token: String?
        try readObject { (reader: inout JSONScanner, key: Key, _: Int) throws(DrawingParseError) in
            let at = reader.i
            switch key {
            case .format:
                let value = try reader.readString(maxBytes: 64, what: "the format name")
                guard value == DrawingJournal.formatName else {
                    throw reader.error(at: at, "not a TouchTracker journal: the format is \(quoted(value)), not \"\(DrawingJournal.formatName)\"")
                }
                format = value
            case .version:
                let value = try reader.readInteger(what: "the journal version")
                guard value == DrawingJournal.version else {
                    throw reader.error(at: at, "journal version \(value) is not one this TouchTracker reads (version \(DrawingJournal.version))")
                }
                version = value
            case .token:
                token = try reader.readString(maxBytes: DrawingJournal.maxTokenBytes, what: "the token")
            default:
                try reader.skipValue(depth: 1)
            }
        }
        try expectEndOfLine()
        guard format != nil else {
            throw error(at: 0, "not a TouchTracker journal: there is no \"format\": \"\(DrawingJournal.formatName)\"")
        }
        guard version != nil else { throw error(at: 0, "the journal has no \"version\"") }
        guard let token else { throw error(at: 0, "the journal has no \"token\"") }
        return token
    }

    /// Reads one record line: exactly one of `add` (with `at`), `remove` and `update`.
    mutating func readRecord() throws(DrawingParseError) -> DrawingJournal.Record {
        var record: DrawingJournal.Record?
        var place: Int?
        var seen = KeySet()
        var reading = StrokeReading()
        try readObject { (reader: inout JSONScanner, key: Key, keyOffset: Int) throws(DrawingParseError) in
            let at = reader.i
            switch key {
            case .add, .remove, .update:
                guard record == nil else {
                    throw reader.error(at: keyOffset, "a record has one of \"add\", \"remove\" and \"update\", this one more")
                }
                switch key {
                case .add: record = .add(try reader.readStroke(number: 1, reading: &reading), at: 0)
                case .update: record = .update(try reader.readStroke(number: 1, reading: &reading))
                default:
                    let id = try reader.readInteger(what: "the id of the stroke removed")
                    guard (1...reader.limits.maxID).contains(id) else {
                        throw reader.error(at: at, "id \(id) is outside 1...\(reader.limits.maxID)")
                    }
                    record = .remove(StrokeID(id))
                }
            case .at:
                guard seen.insert(key) else { throw reader.error(at: keyOffset, "the key \"at\" appears twice") }
                let value = try reader.readInteger(what: "the place of the stroke added")
                guard value >= 0, value < reader.limits.maxStrokes else {
                    throw reader.error(at: at, "place \(value) is outside 0..<\(reader.limits.maxStrokes)")
                }
                place = value
            default:
                try reader.skipValue(depth: 1)
            }
        }
        try expectEndOfLine()
        switch record {
        case nil:
            throw error(at: 0, "a record has one of \"add\", \"remove\" and \"update\", this one none")
        case .add(let stroke, _)?:
            guard let place else { throw error(at: 0, "an \"add\" record has no \"at\"") }
            return .add(stroke, at: place)
        case let other?:
            if place != nil { throw error(at: 0, "only an \"add\" record has an \"at\"") }
            return other
        }
    }

    private mutating func expectEndOfLine() throws(DrawingParseError) {
        skipWhitespace()
        guard i == bytes.count else { throw error(at: i, "unexpected \(found()) after the end of the record") }
    }
}
