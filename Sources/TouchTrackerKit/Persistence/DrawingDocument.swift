// The drawing as the app keeps it: opened from a file at start, autosaved after each change,
// saved once more when the app ends, exported on request, or left in its file for a new one
// (New). What the user must be told (a save that fails, an unreadable file, where an export went)
// goes to its notice display, the app's screen. The executable creates one and hands `drawing` to
// the canvas.
#if canImport(Glibc)
import Glibc
#endif
import Logging
import TouchKit

public final class DrawingDocument {
    public let drawing: Drawing
    /// Saves `drawing` into the current file; New gives it a new one.
    public private(set) var autosaver: Autosaver
    /// Keeps other TouchTrackers off the current file; New moves it to the new file.
    public var lock: DrawingLock?
    /// Told the new file's path after New (the app remembers it for the next start).
    public var onNewFile: ((String) -> Void)?
    /// Shows the document's notice (``notice``): the app's screen, in its banner. Shown the
    /// current one when set.
    public weak var noticeDisplay: NoticeDisplay? {
        didSet { updateNotice() }
    }
    /// Set when the file asked for could not be read (it was moved aside).
    public let unreadable: UnreadableFile?
    /// Set when the file's journal could be replayed only in part (it was moved aside).
    public let damagedJournal: DamagedJournal?
    /// Seconds after opening before a replayed journal is folded into the file (in the
    /// background): late enough not to slow the first frames.
    public static let compactionDelay = 1.0
    /// The file this session saves to.
    public var path: String { autosaver.path }

    private let clock: Clock
    private let logger: Logger
    private let autosaveDelay: Double
    private let saveInBackground: Bool
    private let limits: DrawingFormat.Limits
    /// A message shown for a while (an unreadable file, an export); a failing save goes over it.
    private var timedNotice: Notice?
    private var noticeTimer: TimerToken?
    /// The export being painted and written off the event loop, if any (one at a time: a second
    /// would pick the same free names).
    private var exportJob: BackgroundJob<ExportOutcome>?
    private var exportPollTimer: TimerToken?
    /// How often a running export is looked at: a picture takes tens of milliseconds to seconds.
    static let exportPollInterval = 0.02

    /// Opens (or creates) the drawing at `path`; see ``DrawingFile/open(_:limits:rescueFolders:)``.
    public init(opening path: String, clock: Clock, logger: Logger, autosaveDelay: Double = 0.2,
                saveInBackground: Bool = true, limits: DrawingFormat.Limits = .standard,
                rescueFolders: [String]? = nil) {
        let opened = DrawingFile.open(path, limits: limits, rescueFolders: rescueFolders)
        self.clock = clock
        self.logger = logger
        self.autosaveDelay = autosaveDelay
        self.saveInBackground = saveInBackground
        self.limits = limits
        unreadable = opened.unreadable
        damagedJournal = opened.damagedJournal
        drawing = Drawing(strokes: opened.strokes)
        autosaver = Autosaver(drawing: drawing, path: opened.savePath, clock: clock, delay: autosaveDelay,
                              inBackground: saveInBackground, limits: limits, logger: logger, disk: opened.disk)
        autosaver.onStatusChange = { [unowned self] _ in self.updateNotice() }
        if let unreadable {
            showNotice(unreadable.bannerText, style: .error, seconds: 15)
        } else if let damagedJournal {
            showNotice(damagedJournal.bannerText, style: .error, seconds: 15)
        }
        if let stale = opened.removedStaleJournal {
            logger.notice("removed \(stale): it belonged to an earlier save of \(DrawingFile.name(of: opened.savePath))")
        }
        if opened.needsSave {
            autosaver.setNeedsSave()
        } else if opened.needsCompaction {
            autosaver.setNeedsSave(after: Self.compactionDelay)
        }
        logger.debug("drawing \(opened.savePath): \(opened.strokes.count) strokes, \(opened.journalRecords) changes replayed from its journal")
    }

    // MARK: Export

    /// The files ``export(canvas:into:)`` writes into `folder`: the drawing's name with `.png`
    /// and `.svg` (`drawing.json` → `drawing.png`, `drawing.svg`), numbered (`drawing 2.png`)
    /// past pictures already there: an export never overwrites anything.
    public func exportPaths(in folder: String) -> (png: String, svg: String) {
        let name = DrawingFile.name(of: path)
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init) ?? name
        let base = DrawingFile.firstFree(in: folder, stem: stem) { [$0 + ".png", $0 + ".svg"] }
        return (base + ".png", base + ".svg")
    }

    /// Writes the drawing as PNG and SVG (Ctrl+E), at least `canvas` in size, into the user's
    /// pictures folder (made if missing), where people look for them; logs the paths and says
    /// where in a notice. Returns the paths written.
    @discardableResult
    public func export(canvas: Size = DrawingExporter.defaultCanvas,
                       into folder: String = DrawingLocation.picturesDirectory()) -> [String] {
        do {
            try DrawingFile.createFolder(folder)
            let (png, svg) = exportPaths(in: folder)
            try DrawingExporter.writePNG(drawing.strokes, to: png, minimum: canvas)
            try DrawingExporter.writeSVG(drawing.strokes, to: svg, minimum: canvas)
            logger.notice("exported \(png) and \(svg)")
            showNotice(Strings.exported(png: DrawingFile.name(of: png), svg: DrawingFile.name(of: svg),
                                        folder: DrawingFile.folder(of: png)), style: .info, seconds: 4)
            return [png, svg]
        } catch {
            logger.error("export failed: \(error)")
            showNotice(Strings.exportFailed("\(error)"), style: .error, seconds: 8)
            return []
        }
    }

    /// What an export gave: the files written, or why none was.
    enum ExportOutcome: Sendable {
        case written([String])
        case failed(String)
    }

    /// Starts ``export(canvas:into:)`` off the event loop (Ctrl+E): painting and encoding a big
    /// drawing takes seconds, which must not stop touches. A notice says where it went once
    /// it is written. Returns false, doing nothing, while another export is still running.
    @discardableResult
    public func startExport(canvas: Size = DrawingExporter.defaultCanvas,
                            into folder: String = DrawingLocation.picturesDirectory()) -> Bool {
        let strokes = drawing.strokes
        let png: String, svg: String
        do throws(FileIOError) {
            try DrawingFile.createFolder(folder)
            (png, svg) = exportPaths(in: folder)
        } catch {
            finishExport(.failed(error.message))
            return true
        }
        return startExportJob {
            do {
                try DrawingExporter.writePNG(strokes, to: png, minimum: canvas)
                try DrawingExporter.writeSVG(strokes, to: svg, minimum: canvas)
                return .written([png, svg])
            } catch {
                return .failed("\(error)")
            }
        }
    }

    /// Starts ``export(canvas:to:)`` off the event loop (Export As); see
    /// ``startExport(canvas:into:)``.
    @discardableResult
    public func startExport(canvas: Size = DrawingExporter.defaultCanvas, to path: String) -> Bool {
        let strokes = drawing.strokes
        return startExportJob {
            do {
                try Self.writePicture(strokes, to: path, canvas: canvas)
                return .written([path])
            } catch {
                return .failed("\(error)")
            }
        }
    }

    /// Whether an export started with `startExport` is still being written.
    public var isExporting: Bool { exportJob != nil }

    private func startExportJob(_ work: @escaping @Sendable () -> ExportOutcome) -> Bool {
        guard exportJob == nil else {
            logger.notice("export not started: the last one is still being written")
            return false
        }
        exportJob = BackgroundJob(label: "org.touchtracker.export", work)
        pollExport()
        return true
    }

    private func pollExport() {
        exportPollTimer = nil
        guard let job = exportJob else { return }
        guard let outcome = job.take() else {
            exportPollTimer = clock.schedule(at: clock.now + Self.exportPollInterval) { [weak self] in self?.pollExport() }
            return
        }
        exportJob = nil
        finishExport(outcome)
    }

    /// Waits for a running export (the app's end: a picture asked for is written before quitting).
    public func finishExporting() {
        guard let job = exportJob else { return }
        exportPollTimer?.cancel()
        finishExport(job.wait())
        exportJob = nil
    }

    /// Logs and shows what an export gave.
    private func finishExport(_ outcome: ExportOutcome) {
        switch outcome {
        case .written(let paths) where paths.count == 2:
            logger.notice("exported \(paths[0]) and \(paths[1])")
            showNotice(Strings.exported(png: DrawingFile.name(of: paths[0]), svg: DrawingFile.name(of: paths[1]),
                                        folder: DrawingFile.folder(of: paths[0])), style: .info, seconds: 4)
        case .written(let paths):
            let path = paths.first ?? ""
            logger.notice("exported \(path)")
            showNotice(Strings.exportedFile(name: DrawingFile.name(of: path), folder: DrawingFile.folder(of: path)),
                       style: .info, seconds: 4)
        case .failed(let message):
            logger.error("export failed: \(message)")
            showNotice(Strings.exportFailed(message), style: .error, seconds: 8)
        }
    }

    /// Writes `strokes` to `path` as SVG when the name ends in `.svg`, else as PNG.
    static func writePicture(_ strokes: [Stroke], to path: String, canvas: Size) throws {
        if path.lowercased().hasSuffix(".svg") {
            try DrawingExporter.writeSVG(strokes, to: path, minimum: canvas)
        } else {
            try DrawingExporter.writePNG(strokes, to: path, minimum: canvas)
        }
    }

    /// Writes the drawing to `path`, the file a Save dialog chose (the user agreed to replace it
    /// if it was there), as SVG when the name ends in `.svg`, else as PNG; a notice says where.
    /// Returns whether it was written.
    @discardableResult
    public func export(canvas: Size = DrawingExporter.defaultCanvas, to path: String) -> Bool {
        do {
            try Self.writePicture(drawing.strokes, to: path, canvas: canvas)
            logger.notice("exported \(path)")
            showNotice(Strings.exportedFile(name: DrawingFile.name(of: path), folder: DrawingFile.folder(of: path)),
                       style: .info, seconds: 4)
            return true
        } catch {
            logger.error("export failed: \(error)")
            showNotice(Strings.exportFailed("\(error)"), style: .error, seconds: 8)
            return false
        }
    }

    // MARK: New

    /// Starts a new, empty drawing in a new file beside the current one (``NewDrawing/path(beside:)``),
    /// after saving the current drawing into its own file, where it stays. The undo history goes
    /// with the old drawing: nothing done before New can be undone into the new file, and the old
    /// drawing is never changed again by this session. The lock moves to the new file; a notice
    /// says where it is. If the old drawing cannot be saved, nothing changes and a notice says
    /// why. An empty drawing is already new: then nothing changes either (no trail of empty files).
    /// Returns the new file's path, or nil when nothing changed.
    @discardableResult
    public func startNew() -> String? {
        if drawing.strokes.isEmpty {
            showNotice(Strings.alreadyEmpty(name: DrawingFile.name(of: path)), style: .info, seconds: 3)
            return nil
        }
        if let failure = autosaver.saveNow() {
            logger.error("new drawing not started: \(failure.message)")
            showNotice(Strings.noNewDrawing(failure.message), style: .error, seconds: 8)
            return nil
        }
        var newPath = NewDrawing.path(beside: path)
        var newLock: DrawingLock?
        for _ in 0..<8 {
            switch DrawingLock.acquire(for: newPath) {
            case .acquired(let acquired): newLock = acquired
            case .held: newPath = NewDrawing.path(beside: newPath); continue
            case .unavailable(let error): logger.warning("new drawing \(newPath) without a lock: \(error.message)")
            }
            break
        }
        let old = autosaver
        old.retire()
        autosaver = Autosaver(drawing: drawing, path: newPath, clock: clock, delay: autosaveDelay,
                              inBackground: saveInBackground, limits: limits, logger: logger)
        autosaver.onStatusChange = { [unowned self] _ in self.updateNotice() }
        lock = newLock
        drawing.replaceAll(with: [], undoable: false)
        drawing.undoStack.removeAll()
        autosaver.setNeedsSave()  // the new file exists at once
        logger.notice("new drawing \(newPath); \(old.path) kept")
        showNotice(Strings.newDrawingStarted(name: DrawingFile.name(of: newPath), folder: DrawingFile.folder(of: newPath),
                                             kept: DrawingFile.name(of: old.path)), style: .info, seconds: 5)
        onNewFile?(newPath)
        return newPath
    }

    // MARK: Ending

    /// Saves what is not saved yet, for the app's end (quit, window closed, signal, lost
    /// compositor). If the file cannot be written, the drawing goes to a rescue file in the
    /// default folder or the temporary folder. Returns a line for standard error when the
    /// drawing did not reach its own file (saying where it went), else nil. The lock and its file
    /// go now, not whenever the document is freed: whatever still holds it at exit.
    public func close(rescueFolders: [String]? = nil) -> String? {
        defer { lock = nil }
        guard let failure = autosaver.saveNow() else { return nil }
        let stem = DrawingFile.name(of: path).split(separator: ".").first.map(String.init) ?? "drawing"
        let name = "\(stem)-rescued-\(DrawingFile.timestamp(time(nil))).json"
        for folder in rescueFolders ?? [DrawingLocation.defaultDirectory(), DrawingFile.temporaryFolder()]
        where folder != DrawingFile.folder(of: path) {
            try? DrawingFile.createFolder(folder)
            let rescue = DrawingFile.join(folder, name)
            if case .success = Autosaver.save(drawing.strokes, to: rescue).result {
                return "\(failure.message); saved the drawing to \(rescue) instead"
            }
        }
        return "\(failure.message); the last changes are lost"
    }

    // MARK: Notices

    /// Shows `text` to the user for `seconds` (a paste that failed, an export); a failing save
    /// goes over it.
    public func showNotice(_ text: String, style: Notice.Style, seconds: Double) {
        timedNotice = Notice(text, style: style)
        noticeTimer?.cancel()
        noticeTimer = clock.schedule(at: clock.now + seconds) { [weak self] in
            self?.timedNotice = nil
            self?.noticeTimer = nil
            self?.updateNotice()
        }
        updateNotice()
    }

    /// What the user is told now: a failing save wins over any notice; otherwise the notice, or
    /// nothing.
    public var notice: Notice? {
        if case .failing(let error) = autosaver.status {
            return Notice(Strings.cannotSave(name: DrawingFile.name(of: path), reason: error.reason), style: .error)
        }
        return timedNotice
    }

    private func updateNotice() { noticeDisplay?.show(notice) }
}
