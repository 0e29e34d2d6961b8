// Opening a drawing at start: read it and replay its journal, or start a new one, or (for a file
// that cannot be read) move the file aside untouched and start an empty drawing that saves somewhere
// it cannot harm it. A journal record that cannot be read ends the replay there: the drawing keeps
// what came before, and the journal is moved aside like an unreadable file.
#if canImport(Glibc)
import Glibc
#endif
import Limits

/// A drawing file that could not be read, and what was done about it.
public struct UnreadableFile: Equatable, Sendable {
    /// The file as it was asked for.
    public var path: String
    /// Why it cannot be read, e.g. "line 3, column 9: expected ',' or ']' ..." or "Permission denied".
    public var problem: String
    /// Where the file is now, if it could be moved aside.
    public var movedTo: String?
    /// Why it could not be moved aside, if it could not.
    public var moveProblem: String?
    /// Where this session saves instead.
    public var savePath: String
    /// Where the file's journal went (moved aside with it), if it had one.
    public var journalMovedTo: String?

    /// One line for standard error: the file, the problem, and what happened.
    public var message: String {
        let what = movedTo.map { "moved it to \($0)" }
            ?? "could not move it aside (\(moveProblem ?? "unknown error")), left it as it is"
        let journal = journalMovedTo.map { " and its journal to \($0)" } ?? ""
        let saving = savePath == path ? "" : " that saves to \(savePath)"
        return "cannot read \(path): \(problem); \(what)\(journal); starting with an empty drawing\(saving)"
    }

    /// A shorter text for the banner in the window, in the user's language.
    public var bannerText: String {
        let name = DrawingFile.name(of: path)
        if let movedTo {
            return Strings.unreadableMovedAside(name: name, problem: problem, keptAs: DrawingFile.name(of: movedTo))
        }
        return Strings.unreadableSavingElsewhere(name: name, problem: problem, savePath: savePath)
    }
}

/// A journal whose replay stopped at a record that cannot be read or does not fit the drawing.
public struct DamagedJournal: Equatable, Sendable {
    /// The journal as it was found.
    public var path: String
    /// The first bad record: "line 7, column 12: ..." or "line 7: stroke #12 is removed but is not
    /// in the drawing".
    public var problem: String
    /// The changes replayed before it, which the drawing has.
    public var records: Int
    /// Where the journal is now, if it could be moved aside.
    public var movedTo: String?
    /// Why it could not be moved aside, if it could not.
    public var moveProblem: String?

    /// The drawing file the journal belongs to.
    var drawingPath: String { String(path.dropLast(".journal".count)) }

    /// One line for standard error.
    public var message: String {
        let what = movedTo.map { "moved the journal to \($0)" }
            ?? "could not move the journal aside (\(moveProblem ?? "unknown error")), left it as it is"
        let changes = records == 1 ? "the 1 change" : "the \(records) changes"
        return "cannot replay \(path): \(problem); restored \(drawingPath) with \(changes) before it; \(what)"
    }

    /// A shorter text for the banner in the window, in the user's language.
    public var bannerText: String {
        Strings.damagedJournal(name: DrawingFile.name(of: drawingPath), problem: problem,
                               keptAs: movedTo.map(DrawingFile.name(of:)))
    }
}

/// What opening found.
public struct OpenedDrawing: Sendable {
    /// The strokes to start with (empty for a new or unreadable file).
    public var strokes: [Stroke]
    /// Where this session saves.
    public var savePath: String
    /// True when `savePath` holds no drawing yet (or not all of it), so the first save should
    /// happen now.
    public var needsSave: Bool
    /// Set when the file could not be read.
    public var unreadable: UnreadableFile?
    /// The file as found, when autosave may go on appending to a journal for it; nil when the
    /// first save must write the whole file.
    public var disk: Autosaver.DiskState?
    /// Journal records replayed onto the file.
    public var journalRecords = 0
    /// True when a journal was replayed: it should be folded into the file soon (off the event
    /// loop), so that journals do not grow from session to session.
    public var needsCompaction = false
    /// Set when the replay stopped at a bad record.
    public var damagedJournal: DamagedJournal?
    /// A journal that belonged to an earlier write of the file (or to no file), removed.
    public var removedStaleJournal: String?
}

extension DrawingFile {
    /// Opens the drawing at `path`: reads it, or starts an empty one if there is no file. A file
    /// that cannot be read (any ``FileIOError`` or ``DrawingParseError``) is moved aside with
    /// ``moveAside(_:now:)``; then the empty drawing saves to `path`, which no longer holds it.
    /// If the file cannot be moved, the drawing saves to a new file in the first of
    /// `rescueFolders` that is not the file's own folder. A file reached through a symbolic link
    /// is never moved: the link may lead anywhere (`x.json -> ~/.bashrc`), so it stays as it is
    /// and the drawing saves to the rescue folder.
    public static func open(_ path: String, limits: DrawingFormat.Limits = .standard,
                            rescueFolders: [String]? = nil) -> OpenedDrawing {
        var link = stat()
        let throughLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        let path = absolute(path)
        removeStaleTemporaryFiles(for: path)
        let journal = DrawingJournal.path(for: path)
        let problem: String
        do {
            switch try read(path, maxBytes: limits.maxFileBytes) {
            case .missing:
                // A failure here shows up as a failing save, with the banner.
                try? createFolder(folder(of: path))
                var opened = OpenedDrawing(strokes: [], savePath: path, needsSave: true, unreadable: nil)
                // A journal without its file has nothing to apply to.
                if unlink(journal) == 0 { opened.removedStaleJournal = journal }
                return opened
            case .bytes(let bytes):
                do {
                    let (strokes, token) = try DrawingFormat.decodeWithToken(bytes, limits: limits)
                    // A token the app would not write (a file from elsewhere) is not carried on into
                    // a journal: the first save writes the whole file with a token of its own.
                    let disk = token.flatMap { DrawingJournal.isPlainToken($0) ? $0 : nil }
                        .map { Autosaver.DiskState(token: $0, fileBytes: bytes.count, journalBytes: 0) }
                    var opened = OpenedDrawing(strokes: strokes, savePath: path, needsSave: false, unreadable: nil, disk: disk)
                    replayJournal(journal, into: &opened, token: token, limits: limits)
                    return opened
                } catch {
                    problem = error.message
                }
            }
        } catch {
            problem = error.reason
        }
        var unreadable = UnreadableFile(path: path, problem: problem, movedTo: nil, moveProblem: nil, savePath: path)
        do throws(FileIOError) {
            if throughLink { throw FileIOError("move aside", path, reason: "it was opened through a symbolic link") }
            // The journal goes with its file: it means nothing to the new drawing.
            if access(journal, F_OK) == 0 { unreadable.journalMovedTo = try? moveAside(journal) }
            unreadable.movedTo = try moveAside(path)
        } catch {
            unreadable.moveProblem = error.reason
            let stamp = timestamp(time(nil))
            let own = folder(of: path)
            let folders = rescueFolders ?? [DrawingLocation.defaultDirectory(), temporaryFolder()]
            let rescue = folders.first { $0 != own } ?? temporaryFolder()
            try? createFolder(rescue)
            let stem = name(of: path).split(separator: ".").first.map(String.init) ?? "drawing"
            unreadable.savePath = join(rescue, "\(stem)-rescued-\(stamp).json")
        }
        return OpenedDrawing(strokes: [], savePath: unreadable.savePath, needsSave: true, unreadable: unreadable)
    }

    /// Replays the journal beside the file onto `opened`'s strokes: removes a stale journal, moves
    /// a damaged one aside (keeping the records before the damage), and asks for the whole file to
    /// be written soon after any replay.
    static func replayJournal(_ journal: String, into opened: inout OpenedDrawing, token: String?,
                              limits: DrawingFormat.Limits) {
        let reading: DrawingJournal.Reading
        do {
            guard case .bytes(let bytes) = try read(journal, maxBytes: Limit.journalBytes) else { return }
            reading = DrawingJournal.replay(bytes, onto: opened.strokes, token: token, limits: limits)
        } catch {
            reading = .replayed(DrawingJournal.Replay(strokes: opened.strokes, records: 0, problem: error.reason, tornBytes: 0))
        }
        switch reading {
        case .stale:
            unlink(journal)
            opened.removedStaleJournal = journal
        case .replayed(let replay):
            opened.strokes = replay.strokes
            opened.journalRecords = replay.records
            // The journal is folded into a new file: until then appends would follow a torn line.
            opened.disk = nil
            guard let problem = replay.problem else {
                opened.needsCompaction = true
                return
            }
            // The records replayed are only in memory now: save them at once.
            opened.needsSave = true
            var damaged = DamagedJournal(path: journal, problem: problem, records: replay.records)
            do {
                damaged.movedTo = try moveAside(journal)
            } catch {
                damaged.moveProblem = error.reason
            }
            opened.damagedJournal = damaged
        }
    }

    /// `$TMPDIR`, else `/tmp`.
    static func temporaryFolder() -> String {
        if let tmp = DrawingLocation.environment("TMPDIR"), tmp.hasPrefix("/") { return tmp }
        return "/tmp"
    }

    /// Reads and decodes a drawing, with its journal replayed, without changing anything on disk
    /// (export, tools). A journal that cannot be replayed to its end is an error here.
    public static func load(_ path: String, limits: DrawingFormat.Limits = .standard) throws(FileIOError) -> [Stroke] {
        let strokes: [Stroke], token: String?
        switch try read(path, maxBytes: limits.maxFileBytes) {
        case .missing:
            throw FileIOError("read", path, code: ENOENT)
        case .bytes(let bytes):
            do {
                (strokes, token) = try DrawingFormat.decodeWithToken(bytes, limits: limits)
            } catch {
                throw FileIOError("read", path, reason: error.message)
            }
        }
        let journal = DrawingJournal.path(for: path)
        guard case .bytes(let bytes) = try read(journal, maxBytes: Limit.journalBytes),
              case .replayed(let replay) = DrawingJournal.replay(bytes, onto: strokes, token: token, limits: limits)
        else { return strokes }
        if let problem = replay.problem { throw FileIOError("read", journal, reason: problem) }
        return replay.strokes
    }
}
