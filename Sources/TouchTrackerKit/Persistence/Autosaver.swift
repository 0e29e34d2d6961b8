// Autosave: every change to the drawing is on disk within `delay` seconds plus the time a save
// takes. Encoding and writing run on a background queue, from a snapshot of the strokes (value
// types: copying the array is O(1)), so the event loop never waits for a big file or an fsync
// while a finger is down. A failing save keeps the drawing in memory, reports the failure once
// and retries with growing pauses until it succeeds.
//
// A big drawing is not rewritten after every change: the changes are appended to its journal
// (``DrawingJournal``), and the whole file is written again ("compaction") only when the journal
// has grown large next to it, after a clear or a failed save, and on quitting. See ``Policy``.
//
// This file decides when a save runs and where, and takes in its result; what a save writes is
// in SavePlan.swift.
#if canImport(Glibc)
import Glibc
#endif
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
