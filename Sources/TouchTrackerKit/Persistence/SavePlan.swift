// What one autosave writes, and writing it: the plan (append the changes to the journal, or write
// the whole file), the policy that chooses between them, the files' state and the report. Runs on
// any thread; Autosaver.swift decides when.
#if canImport(Glibc)
import Glibc
#endif
import CShims

extension Autosaver {
    /// The drawing file and its journal as the last save left them.
    public struct DiskState: Equatable, Sendable {
        /// The token written in the file, which the journal's first line repeats.
        public var token: String
        public var fileBytes: Int
        /// 0 when there is no journal.
        public var journalBytes: Int

        public init(token: String, fileBytes: Int, journalBytes: Int) {
            self.token = token
            self.fileBytes = fileBytes
            self.journalBytes = journalBytes
        }
    }

    /// When a save appends to the journal and when it writes the whole file.
    public struct Policy: Sendable {
        /// A file smaller than this is written whole at every save, without a journal: encoding it
        /// is quick, and a small drawing stays one plain file.
        public var wholeFileBelow = 1 << 20
        /// The journal is folded into the file when an append would make it larger than this and
        /// than `journalFraction` of the file. With a quarter, the whole writes cost at most 4
        /// bytes of file per byte of journal, instead of a whole write per line, and opening reads
        /// at most a quarter more than the file.
        public var journalMinimum = 1 << 20
        public var journalFraction = 0.25

        public init() {}

        func journalLimit(fileBytes: Int) -> Int { max(journalMinimum, Int(Double(fileBytes) * journalFraction)) }
    }

    /// What one save wrote.
    public enum SaveKind: Sendable, Equatable {
        /// The whole file, atomically; any journal was removed.
        case wholeFile
        /// Records appended to the journal.
        case append
    }

    /// How one save went, measured on the thread that did it.
    public struct Report: Sendable {
        /// The change count the save covers.
        public var generation: Int
        public var result: Result<Void, FileIOError>
        public var kind: SaveKind
        /// The bytes written: the whole file, or the lines appended.
        public var bytes: Int
        /// The strokes in the drawing saved.
        public var strokes: Int
        /// The journal records appended (0 for a whole file).
        public var records: Int
        public var encodeSeconds: Double
        public var writeSeconds: Double
        public var omitted: [(id: StrokeID, reason: String)]
        /// The files after a successful save; nil when the next save must write the whole file
        /// (a stroke was left out of it, or the file has no token).
        public var disk: DiskState?
        /// Nothing was written: the records would have taken the journal past the policy's limit
        /// (or cannot be written), so the whole file is written at once instead.
        public var needsWholeFile = false
    }

    /// Encodes and writes `strokes` atomically as a whole file without a token (a rescue file,
    /// measurements), timing both steps.
    public static func save(_ strokes: [Stroke], generation: Int = 0, to path: String,
                            limits: DrawingFormat.Limits = .standard) -> Report {
        writeWholeFile(strokes, token: nil, generation: generation, to: path, limits: limits)
    }

    /// Encodes and writes `strokes` atomically with `token`, timing both steps.
    static func writeWholeFile(_ strokes: [Stroke], token: String?, generation: Int, to path: String,
                               limits: DrawingFormat.Limits) -> Report {
        let start = tt_monotonic_now()
        let encoded = DrawingFormat.encode(strokes, token: token, limits: limits)
        let encodedAt = tt_monotonic_now()
        var result: Result<Void, FileIOError> = .success(())
        if encoded.bytes.count > limits.maxFileBytes {
            result = .failure(FileIOError("write", path, reason: "the drawing needs \(DrawingFormat.byteCount(encoded.bytes.count)), more than the \(DrawingFormat.byteCount(limits.maxFileBytes)) a file may have"))
        } else {
            do {
                try DrawingFile.writeAtomically(encoded.bytes, to: path)
            } catch {
                result = .failure(error)
            }
        }
        let disk = token.map { DiskState(token: $0, fileBytes: encoded.bytes.count, journalBytes: 0) }
        return Report(generation: generation, result: result, kind: .wholeFile, bytes: encoded.bytes.count,
                      strokes: strokes.count, records: 0, encodeSeconds: encodedAt - start,
                      writeSeconds: tt_monotonic_now() - encodedAt, omitted: encoded.omitted,
                      disk: encoded.omitted.isEmpty ? disk : nil)
    }
}

/// The work of one save, safe to run on any thread: append the records to the journal, or write
/// the whole file.
struct SavePlan: Sendable {
    /// The drawing to write whole; nil for an append.
    var strokes: [Stroke]?
    /// The changes since the state `disk` describes.
    var records: [DrawingJournal.Record]
    /// The files the records continue; nil when they cannot be appended.
    var disk: Autosaver.DiskState?
    /// The strokes in the drawing (for the report).
    var strokeCount: Int
    var generation: Int
    var path: String
    var limits: DrawingFormat.Limits
    var policy: Autosaver.Policy

    /// With strokes and records both (quitting): the whole file first, the journal only if that
    /// fails.
    func run() -> Autosaver.Report {
        guard let strokes else {
            return append() ?? Autosaver.Report(generation: generation, result: .success(()), kind: .append, bytes: 0,
                                                strokes: strokeCount, records: 0, encodeSeconds: 0, writeSeconds: 0,
                                                omitted: [], disk: disk, needsWholeFile: true)
        }
        let whole = writeWholeFile(strokes)
        if case .failure = whole.result, let appended = append(), case .success = appended.result { return appended }
        return whole
    }

    /// Writes the file with a new token, then removes the journal, which no longer applies to it.
    /// A crash between the two leaves a journal with the old token, which opening ignores.
    func writeWholeFile(_ strokes: [Stroke]) -> Autosaver.Report {
        let report = Autosaver.writeWholeFile(strokes, token: DrawingJournal.newToken(), generation: generation,
                                              to: path, limits: limits)
        if case .success = report.result { unlink(DrawingJournal.path(for: path)) }
        return report
    }

    /// Appends the records, or returns nil when they cannot go to the journal (a stroke the
    /// reader would reject, or a journal that would pass the policy's limit).
    func append() -> Autosaver.Report? {
        guard let disk else { return nil }
        let start = tt_monotonic_now()
        guard var bytes = DrawingJournal.encode(records, limits: limits) else { return nil }
        if disk.journalBytes == 0 { bytes = DrawingJournal.header(token: disk.token) + bytes }
        guard disk.journalBytes + bytes.count <= policy.journalLimit(fileBytes: disk.fileBytes) else { return nil }
        let encodedAt = tt_monotonic_now()
        var result: Result<Void, FileIOError> = .success(())
        if !records.isEmpty {
            do {
                try DrawingJournal.append(bytes, to: DrawingJournal.path(for: path), expectedSize: disk.journalBytes,
                                          mode: DrawingFile.mode(of: path))
            } catch {
                result = .failure(error)
            }
        }
        var after = disk
        if !records.isEmpty { after.journalBytes += bytes.count }
        return Autosaver.Report(generation: generation, result: result, kind: .append, bytes: records.isEmpty ? 0 : bytes.count,
                                strokes: strokeCount, records: records.count, encodeSeconds: encodedAt - start,
                                writeSeconds: tt_monotonic_now() - encodedAt, omitted: [], disk: after)
    }
}
