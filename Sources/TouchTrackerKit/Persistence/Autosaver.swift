// Autosave: every change to the drawing is on disk within `delay` seconds plus the time a save
// takes. Encoding and writing run on a background queue, from a snapshot of the strokes (value
// types: copying the array is O(1)), so the event loop never waits for a big file or an fsync
// while a finger is down. A failing save keeps the drawing in memory, reports the failure once
// and retries with growing pauses until it succeeds.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import Synchronization
import TouchKit

/// Saves a drawing to one file after each change, off the event loop.
public final class Autosaver {
    /// Where the drawing stands relative to the file.
    public enum Status: Equatable, Sendable {
        /// The file holds every change.
        case saved
        /// Changes are waiting for the next save (at most `delay` away, plus a save in progress).
        case unsaved
        /// The last save failed; the drawing is kept in memory and saving is retried.
        case failing(FileError)
    }

    /// How one save went, measured on the thread that did it.
    public struct Report: Sendable {
        /// The change count the save covers.
        public var generation: Int
        public var result: Result<Void, FileError>
        public var bytes: Int
        public var strokes: Int
        public var encodeSeconds: Double
        public var writeSeconds: Double
        public var omitted: [(id: StrokeID, reason: String)]
    }

    public let drawing: Drawing
    /// The file saved to.
    public let path: String
    /// Seconds from the first unsaved change to the save that covers it. Later changes within the
    /// same window ride along, so a burst of lines costs one save.
    public var delay: Double
    /// Pauses before retrying a failed save: the first failure waits the first entry, and so on;
    /// the last entry repeats.
    public var retryDelays: [Double] = [0.5, 1, 2, 4, 5]
    /// Called on the event loop's thread whenever ``status`` changes.
    public var onStatusChange: ((Status) -> Void)?
    public private(set) var status = Status.saved
    /// The last save that succeeded.
    public private(set) var lastReport: Report?

    private let clock: Clock
    private let limits: DrawingFormat.Limits
    private let logger: Logger?
    private let worker: SaveWorker?
    private var changeCount = 0
    private var savedCount = 0
    private var timer: TimerToken?
    private var pollTimer: TimerToken?
    private var inFlight = false
    private var failures = 0
    private var reportedFailure: FileError?
    /// How often the event loop looks for the background save's result.
    private let pollInterval = 0.005

    /// - Parameters:
    ///   - inBackground: save on a background queue (the app); false saves on the calling thread
    ///     when the timer fires (tests with a ``ManualClock``).
    public init(drawing: Drawing, path: String, clock: Clock, delay: Double = 0.2, inBackground: Bool = true,
                limits: DrawingFormat.Limits = .standard, logger: Logger? = nil) {
        self.drawing = drawing
        self.path = path
        self.clock = clock
        self.delay = delay
        self.limits = limits
        self.logger = logger
        worker = inBackground ? SaveWorker() : nil
        drawing.observe { [weak self] _ in self?.drawingChanged() }
    }

    /// Whether the drawing has changes the file does not have.
    public var hasUnsavedChanges: Bool { changeCount != savedCount }

    /// Asks for a save although nothing changed (a new file, which should exist at once).
    public func setNeedsSave() {
        changeCount += 1
        if status == .saved { setStatus(.unsaved) }
        schedule(after: 0)
    }

    private func drawingChanged() {
        changeCount += 1
        if status == .saved { setStatus(.unsaved) }
        schedule(after: delay)
    }

    /// Arms the save timer, unless a timer or a save is already on its way (it will see the
    /// change: a save in flight reschedules when it ends).
    private func schedule(after seconds: Double) {
        guard timer == nil, !inFlight else { return }
        timer = clock.schedule(at: clock.now + seconds) { [weak self] in
            self?.timer = nil
            self?.startSave()
        }
    }

    private func startSave() {
        guard hasUnsavedChanges, !inFlight else { return }
        inFlight = true
        let job = Self.job(strokes: drawing.strokes, generation: changeCount, path: path, limits: limits)
        if let worker {
            worker.start(job)
            pollTimer = clock.schedule(at: clock.now + pollInterval) { [weak self] in self?.poll() }
        } else {
            finish(job())
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
        for (id, reason) in report.omitted {
            logger?.warning("stroke \(id) left out of \(path): \(reason)")
        }
        switch report.result {
        case .success:
            savedCount = max(savedCount, report.generation)
            lastReport = report
            failures = 0
            if reportedFailure != nil {
                logger?.notice("saved \(path) again; the earlier failure is over")
                reportedFailure = nil
            }
            logger?.debug("saved \(report.strokes) strokes, \(report.bytes) bytes to \(path): encoding \(milliseconds(report.encodeSeconds)), writing \(milliseconds(report.writeSeconds))")
            if hasUnsavedChanges {
                setStatus(.unsaved)
                schedule(after: delay)
            } else {
                setStatus(.saved)
            }
        case .failure(let error):
            failures += 1
            if reportedFailure != error {
                logger?.error("\(error.message); the drawing is kept in memory and saving is retried")
                reportedFailure = error
            }
            setStatus(.failing(error))
            if retry {
                let pause = retryDelays.isEmpty ? 1 : retryDelays[min(failures - 1, retryDelays.count - 1)]
                timer?.cancel()
                timer = clock.schedule(at: clock.now + pause) { [weak self] in
                    self?.timer = nil
                    self?.startSave()
                }
            }
        }
    }

    /// Saves now on this thread, after waiting for a save in progress: for quitting. Returns the
    /// failure if the file could not be written (nothing more is scheduled either way).
    @discardableResult
    public func saveNow() -> FileError? {
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
        guard hasUnsavedChanges else { return nil }
        inFlight = true
        finish(Self.job(strokes: drawing.strokes, generation: changeCount, path: path, limits: limits)(), retry: false)
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

    /// The work of one save, safe to run on any thread.
    static func job(strokes: [Stroke], generation: Int, path: String,
                    limits: DrawingFormat.Limits) -> @Sendable () -> Report {
        { save(strokes, generation: generation, to: path, limits: limits) }
    }

    /// Encodes and writes `strokes` atomically, timing both steps.
    public static func save(_ strokes: [Stroke], generation: Int = 0, to path: String,
                            limits: DrawingFormat.Limits = .standard) -> Report {
        let start = monotonicNow()
        let encoded = DrawingFormat.encode(strokes, limits: limits)
        let encodedAt = monotonicNow()
        var result: Result<Void, FileError> = .success(())
        if encoded.bytes.count > limits.maxFileBytes {
            result = .failure(FileError("write", path, reason: "the drawing needs \(DrawingFormat.byteCount(encoded.bytes.count)), more than the \(DrawingFormat.byteCount(limits.maxFileBytes)) a file may have"))
        } else {
            do {
                try DrawingFile.writeAtomically(encoded.bytes, to: path)
            } catch {
                result = .failure(error)
            }
        }
        return Report(generation: generation, result: result, bytes: encoded.bytes.count, strokes: strokes.count,
                      encodeSeconds: encodedAt - start, writeSeconds: monotonicNow() - encodedAt,
                      omitted: encoded.omitted)
    }
}

/// CLOCK_MONOTONIC in seconds, for timing saves on any thread.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
            let result = job()
            report.withLock { $0 = result }
        }
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
