// Autosave: every change to the drawing is on disk within `delay` seconds plus the time a save
// takes. Encoding and writing run on a background queue, from a snapshot of the strokes (value
// types: copying the array is O(1)), so the event loop never waits for a big file or an fsync
// while a finger is down. A failing save keeps the drawing in memory, reports the failure once
// and retries with growing pauses until it succeeds.
//
// A big drawing is not rewritten after every change: the changes are appended to its journal
// (``DrawingJournal``), and the whole file is written again ("compaction") only when the journal
// has grown large next to it, after a clear or a failed save, and on quitting. See ``Policy``.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Dispatch
import Logging
import Synchronization
import TouchKit

/// Saves a drawing to its file (and journal) after each change, off the event loop.
public final class Autosaver {
    /// Where the drawing stands relative to the file.
    public enum Status: Equatable, Sendable {
        /// The file (with its journal) holds every change.
        case saved
        /// Changes are waiting for the next save (at most `delay` away, plus a save in progress).
        case unsaved
        /// The last save failed; the drawing is kept in memory and saving is retried.
        case failing(FileIOError)
    }

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

    public let drawing: Drawing
    /// The file saved to.
    public let path: String
    /// The journal beside it.
    public var journalPath: String { DrawingJournal.path(for: path) }
    /// Seconds from the first unsaved change to the save that covers it. Later changes within the
    /// same window ride along, so a burst of lines costs one save.
    public var delay: Double
    /// Pauses before retrying a failed save: the first failure waits the first entry, and so on;
    /// the last entry repeats.
    public var retryDelays: [Double] = [0.5, 1, 2, 4, 5]
    public var policy: Policy
    /// Called on the event loop's thread whenever ``status`` changes.
    public var onStatusChange: ((Status) -> Void)?
    public private(set) var status = Status.saved
    /// The last save that succeeded.
    public private(set) var lastReport: Report?
    /// The files as the last successful save left them (nil: the next save writes the whole file).
    public private(set) var disk: DiskState?

    private let clock: Clock
    private let limits: DrawingFormat.Limits
    private let logger: Logger?
    private let worker: SaveWorker?
    private var changeCount = 0
    private var savedCount = 0
    /// Changes since the last save started, for the journal (empty while `wholeFileNext`).
    private var pending: [DrawingJournal.Record] = []
    /// The next save writes the whole file: after a reset, a failed save, or when asked to.
    private var wholeFileNext: Bool
    /// The points in the drawing, kept up to date from the changes, so that the event loop can
    /// tell without a scan whether the drawing is within the limits a journal may reach.
    private var pointCount: Int
    private var timer: TimerToken?
    private var timerDeadline = 0.0
    /// The armed timer is a compaction asked for with ``setNeedsSave(after:)``.
    private var lateTimer = false
    private var pollTimer: TimerToken?
    private var inFlight = false
    private var failures = 0
    private var reportedFailure: FileIOError?
    /// How often the event loop looks for the background save's result.
    private let pollInterval = 0.005

    /// - Parameters:
    ///   - inBackground: save on a background queue (the app); false saves on the calling thread
    ///     when the timer fires (tests with a ``ManualClock``).
    ///   - disk: the file as opening found it, when the changes can go on in a journal from the
    ///     start; nil writes the whole file at the first save.
    public init(drawing: Drawing, path: String, clock: Clock, delay: Double = 0.2, inBackground: Bool = true,
                limits: DrawingFormat.Limits = .standard, logger: Logger? = nil, disk: DiskState? = nil,
                policy: Policy = Policy()) {
        self.drawing = drawing
        self.path = path
        self.clock = clock
        self.delay = delay
        self.limits = limits
        self.logger = logger
        self.disk = disk
        self.policy = policy
        wholeFileNext = disk == nil
        pointCount = Self.points(in: drawing.strokes)
        worker = inBackground ? SaveWorker() : nil
        drawing.observe { [weak self] change in self?.drawingChanged(change) }
    }

    /// Whether the drawing has changes the file does not have.
    public var hasUnsavedChanges: Bool { changeCount != savedCount }

    /// Asks for a save of the whole file although nothing changed, `seconds` from now: a new file,
    /// which should exist at once, or a journal replayed at opening, to be folded into the file.
    public func setNeedsSave(after seconds: Double = 0) {
        changeCount += 1
        wholeFileNext = true
        pending.removeAll()
        if status == .saved { setStatus(.unsaved) }
        let armed = timer != nil
        schedule(after: seconds)
        if !armed, timer != nil { lateTimer = seconds > delay }
    }

    /// Stops following the drawing and cancels what is scheduled, once the drawing has gone to
    /// another file (New): this file keeps what was saved last.
    public func retire() {
        isRetired = true
        timer?.cancel()
        timer = nil
        pollTimer?.cancel()
        pollTimer = nil
        onStatusChange = nil
    }

    private var isRetired = false

    private func drawingChanged(_ change: Drawing.Change) {
        guard !isRetired else { return }
        changeCount += 1
        switch change {
        case .added(let stroke): pointCount += stroke.points.count
        case .removed(let stroke): pointCount -= stroke.points.count
        case .updated(let old, let new): pointCount += new.points.count - old.points.count
        case .reset: pointCount = Self.points(in: drawing.strokes)
        }
        record(change)
        if status == .saved { setStatus(.unsaved) }
        schedule(after: delay)
    }

    /// Keeps the change for the journal. A reset (clear, undo of a clear, load) changes many
    /// strokes at once and is rare: the whole file is written instead.
    private func record(_ change: Drawing.Change) {
        guard !wholeFileNext else { return }
        switch change {
        case .added(let stroke):
            guard let index = drawing.index(of: stroke.id) else { return wholeFileInstead() }
            pending.append(.add(stroke, at: index))
        case .removed(let stroke):
            pending.append(.remove(stroke.id))
        case .updated(_, let new):
            pending.append(.update(new))
        case .reset:
            wholeFileInstead()
        }
    }

    private static func points(in strokes: [Stroke]) -> Int { strokes.reduce(0) { $0 + $1.points.count } }

    private func wholeFileInstead() {
        wholeFileNext = true
        pending.removeAll()
    }

    /// Arms the save timer, unless a timer or a save is already on its way (it will see the
    /// change: a save in flight reschedules when it ends). Only a whole write asked for later
    /// (after opening) is brought forward by a change; a retry's pause is not.
    private func schedule(after seconds: Double) {
        let deadline = clock.now + seconds
        guard !inFlight, timer == nil || (lateTimer && timerDeadline > deadline) else { return }
        arm(at: deadline)
    }

    private func arm(at deadline: Double) {
        timer?.cancel()
        lateTimer = false
        timerDeadline = deadline
        timer = clock.schedule(at: deadline) { [weak self] in
            self?.timer = nil
            self?.startSave()
        }
    }

    /// What the next save gets: the records since the last save and the files to append them
    /// to, or the snapshot to write whole. Takes the pending records. An append holds no
    /// snapshot, so a change made while it runs does not copy the stroke array.
    private func takePlan(wholeFileFirst: Bool) -> SavePlan {
        defer {
            pending.removeAll()
            wholeFileNext = false
        }
        let appendable = disk.flatMap { disk in
            !wholeFileNext && disk.fileBytes >= policy.wholeFileBelow && drawing.strokes.count <= limits.maxStrokes
                && pointCount <= limits.maxTotalPoints ? disk : nil
        }
        return SavePlan(strokes: appendable == nil || wholeFileFirst ? drawing.strokes : nil,
                        records: appendable == nil ? [] : pending, disk: appendable, strokeCount: drawing.strokes.count,
                        generation: changeCount, path: path, limits: limits, policy: policy)
    }

    private func startSave() {
        guard hasUnsavedChanges, !inFlight else { return }
        inFlight = true
        let plan = takePlan(wholeFileFirst: false)
        if let worker {
            worker.start { plan.run() }
            pollTimer = clock.schedule(at: clock.now + pollInterval) { [weak self] in self?.poll() }
        } else {
            finish(plan.run())
        }
    }

    private func poll() {
        pollTimer = nil
        guard let worker else { return }
        if let report = worker.takeReport() {
            finish(report)
        } else {
            pollTimer = clock.schedule(at: clock.now + pollInterval) { [weak self] in self?.poll() }
        }
    }

    private func finish(_ report: Report, retry: Bool = true) {
        inFlight = false
        if report.needsWholeFile {
            wholeFileInstead()
            if retry { startSave() }
            return
        }
        for (id, reason) in report.omitted {
            logger?.warning("stroke \(id) left out of \(path): \(reason)")
        }
        switch report.result {
        case .success:
            savedCount = max(savedCount, report.generation)
            lastReport = report
            disk = report.disk
            failures = 0
            if reportedFailure != nil {
                logger?.notice("saved \(path) again; the earlier failure is over")
                reportedFailure = nil
            }
            let timing = "encoding \(milliseconds(report.encodeSeconds)), writing \(milliseconds(report.writeSeconds))"
            switch report.kind {
            case .wholeFile:
                logger?.debug("saved \(report.strokes) strokes, \(report.bytes) bytes to \(path) (whole file): \(timing)")
            case .append:
                logger?.debug("saved \(report.records) changes, \(report.bytes) bytes appended to \(journalPath) (now \(report.disk?.journalBytes ?? 0) bytes): \(timing)")
            }
            if hasUnsavedChanges {
                setStatus(.unsaved)
                schedule(after: delay)
            } else {
                setStatus(.saved)
            }
        case .failure(let error):
            failures += 1
            // The records this save took are gone, and a failed append may have left part of a
            // line: the next attempt writes the whole file, which holds everything.
            wholeFileInstead()
            if reportedFailure != error {
                logger?.error("\(error.message); the drawing is kept in memory and saving is retried")
                reportedFailure = error
            }
            setStatus(.failing(error))
            if retry {
                let pause = retryDelays.isEmpty ? 1 : retryDelays[min(failures - 1, retryDelays.count - 1)]
                arm(at: clock.now + pause)
            }
        }
    }

    /// Saves now on this thread, after waiting for a save in progress: for quitting. Writes the
    /// whole file when there is anything to save or a journal to fold in, so that a closed
    /// drawing is one file any reader reads in full; if that fails, the changes go to the journal
    /// if they can. Returns the failure if neither worked (nothing more is scheduled either way).
    @discardableResult
    public func saveNow() -> FileIOError? {
        timer?.cancel()
        timer = nil
        pollTimer?.cancel()
        pollTimer = nil
        if inFlight, let worker {
            worker.waitUntilIdle()
            if let report = worker.takeReport() { finish(report, retry: false) }
            timer?.cancel()
            timer = nil
        }
        inFlight = false
        guard hasUnsavedChanges || (disk?.journalBytes ?? 0) > 0 else { return nil }
        inFlight = true
        finish(takePlan(wholeFileFirst: true).run(), retry: false)
        timer?.cancel()
        timer = nil
        if case .failing(let error) = status { return error }
        return nil
    }

    private func setStatus(_ new: Status) {
        guard new != status else { return }
        status = new
        onStatusChange?(new)
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

func milliseconds(_ seconds: Double) -> String {
    let ms = seconds * 1000
    return ms < 10 ? "\(Double(Int(ms * 100)) / 100) ms" : "\(Int(ms.rounded())) ms"
}

/// One serial background queue; the event loop collects results by polling.
final class SaveWorker: Sendable {
    private let queue = DispatchQueue(label: "org.touchtracker.autosave")
    private let report = Mutex<Autosaver.Report?>(nil)

    func start(_ job: @escaping @Sendable () -> Autosaver.Report) {
        queue.async { [self] in
            Self.yieldToTheEventLoop()
            let result = job()
            report.withLock { $0 = result }
        }
    }

    /// Lowers this thread's scheduling priority (nice 10; Linux gives each thread its own): on a
    /// busy machine, encoding a large drawing must take the CPU from the compositor or the app's
    /// event loop only when they leave it idle, yet still finish (unlike an idle-only policy).
    private static func yieldToTheEventLoop() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    func takeReport() -> Autosaver.Report? {
        report.withLock { value in
            defer { value = nil }
            return value
        }
    }

    func waitUntilIdle() {
        queue.sync {}
    }
}
