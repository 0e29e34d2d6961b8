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
import SafeFiles
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
        Array("{\"format\":\"\(formatName)\",\"version\":\(version),\"token\":".utf8)
            + DrawingFormat.jsonString(token) + Array("}\n".utf8)
    }

    /// Whether `token`, read from a file, is one the app could have written (letters, digits, `-`
    /// and `_`): only such a token is carried on to a journal; any other makes the next save
    /// write the whole file with a new one.
    public static func isPlainToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maxTokenBytes && token.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
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
    /// file anew with `mode`, replacing a stale one (removed first: the new one is created, never
    /// opened through a link planted under its name). On failure the file is cut back to
    /// `expectedSize` if possible; a part that stays is an unfinished last line, which readers
    /// ignore, or whole records that were indeed made.
    public static func append(_ bytes: [UInt8], to path: String, expectedSize: Int, mode: mode_t = 0o600) throws(FileIOError) {
        let creating = expectedSize == 0
        if creating, unlink(path) != 0, errno != ENOENT { throw FileIOError("replace", path) }
        let opened = creating ? SafeFile.createNew(path, mode: mode, flags: O_WRONLY | O_APPEND)
            : SafeFile.openRegular(path, flags: O_WRONLY | O_APPEND, followLinks: false)
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let failure): throw FileIOError(creating ? "create" : "open", path, failure)
        }
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
///
/// The strokes are kept in blocks of at most ``ReplayedDrawing/blockSize``, each id mapped to its
/// block: a record anywhere in the paint order costs a walk over the blocks and work inside one,
/// O(√strokes) with the block size near √ of the largest drawing, where one array re-indexed from
/// the record's place costs O(strokes) (a hostile journal of adds at place 0 took seconds).
private struct ReplayedDrawing {
    /// Blocks this size or smaller; a block that grows to twice this is split.
    static let blockSize = 512

    final class Block {
        var strokes: [Stroke]
        init(_ strokes: [Stroke]) { self.strokes = strokes }
    }

    private var blocks: [Block] = []
    private var blockByID: [StrokeID: Block] = [:]
    private(set) var count = 0
    private var totalPoints = 0
    let limits: DrawingFormat.Limits

    init(_ strokes: [Stroke], limits: DrawingFormat.Limits) {
        self.limits = limits
        var start = 0
        while start < strokes.count {
            let block = Block(Array(strokes[start..<min(start + Self.blockSize, strokes.count)]))
            blocks.append(block)
            for stroke in block.strokes { blockByID[stroke.id] = block }
            start += Self.blockSize
        }
        count = strokes.count
        totalPoints = strokes.reduce(0) { $0 + $1.points.count }
    }

    /// The strokes in paint order.
    var strokes: [Stroke] {
        var all: [Stroke] = []
        all.reserveCapacity(count)
        for block in blocks { all += block.strokes }
        return all
    }

    /// Applies a record, or says why it does not fit (and changes nothing).
    mutating func apply(_ record: DrawingJournal.Record) -> String? {
        switch record {
        case .add(let stroke, let index):
            guard blockByID[stroke.id] == nil else { return "stroke \(stroke.id) is added but already in the drawing" }
            guard index >= 0, index <= count else {
                return "stroke \(stroke.id) is added at place \(index) of a drawing of \(count) strokes"
            }
            guard count < limits.maxStrokes else { return "the drawing would have more than \(limits.maxStrokes) strokes" }
            guard totalPoints + stroke.points.count <= limits.maxTotalPoints else {
                return "the drawing would have more than \(limits.maxTotalPoints) points"
            }
            insert(stroke, at: index)
            totalPoints += stroke.points.count
        case .remove(let id):
            guard let block = blockByID[id], let index = block.strokes.firstIndex(where: { $0.id == id }) else {
                return "stroke \(id) is removed but is not in the drawing"
            }
            totalPoints -= block.strokes[index].points.count
            block.strokes.remove(at: index)
            blockByID[id] = nil
            count -= 1
            if block.strokes.isEmpty { blocks.removeAll { $0 === block } }
        case .update(let stroke):
            guard let block = blockByID[stroke.id], let index = block.strokes.firstIndex(where: { $0.id == stroke.id }) else {
                return "stroke \(stroke.id) is changed but is not in the drawing"
            }
            let points = totalPoints - block.strokes[index].points.count + stroke.points.count
            guard points <= limits.maxTotalPoints else { return "the drawing would have more than \(limits.maxTotalPoints) points" }
            totalPoints = points
            block.strokes[index] = stroke
        }
        return nil
    }

    /// Puts `stroke` at `index` (0...count) of the paint order.
    private mutating func insert(_ stroke: Stroke, at index: Int) {
        count += 1
        // The usual record adds at the top: the last block, found at once.
        var place = index, b = 0
        if let last = blocks.last, index >= count - 1 - last.strokes.count {
            b = blocks.count - 1
            place = index - (count - 1 - last.strokes.count)
        } else {
            while b < blocks.count, place > blocks[b].strokes.count {
                place -= blocks[b].strokes.count
                b += 1
            }
        }
        guard b < blocks.count else {
            let block = Block([stroke])
            blocks.append(block)
            blockByID[stroke.id] = block
            return
        }
        let block = blocks[b]
        block.strokes.insert(stroke, at: place)
        blockByID[stroke.id] = block
        if block.strokes.count >= 2 * Self.blockSize {
            let second = Block(Array(block.strokes[Self.blockSize...]))
            block.strokes.removeLast(block.strokes.count - Self.blockSize)
            for moved in second.strokes { blockByID[moved.id] = second }
            blocks.insert(second, at: b + 1)
        }
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
