// Opening a drawing at start: read it, or start a new one, or (for a file that cannot be read)
// move the file aside untouched and start an empty drawing that saves somewhere it cannot harm it.
#if canImport(Glibc)
import Glibc
#endif

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

    /// One line for standard error: the file, the problem, and what happened.
    public var message: String {
        let what = movedTo.map { "moved it to \($0)" }
            ?? "could not move it aside (\(moveProblem ?? "unknown error")), left it as it is"
        let saving = savePath == path ? "" : " that saves to \(savePath)"
        return "cannot read \(path): \(problem); \(what); starting with an empty drawing\(saving)"
    }

    /// A shorter text for the banner in the window.
    public var bannerText: String {
        let name = DrawingFile.name(of: path)
        if let movedTo { return "Could not read \(name) (\(problem)). It was kept as \(DrawingFile.name(of: movedTo))." }
        return "Could not read \(name) (\(problem)). Saving to \(savePath)."
    }
}

/// What opening found.
public struct OpenedDrawing: Sendable {
    /// The strokes to start with (empty for a new or unreadable file).
    public var strokes: [Stroke]
    /// Where this session saves.
    public var savePath: String
    /// True when `savePath` holds no drawing yet, so the first save should happen now.
    public var needsSave: Bool
    /// Set when the file could not be read.
    public var unreadable: UnreadableFile?
}

extension DrawingFile {
    /// Opens the drawing at `path`: reads it, or starts an empty one if there is no file. A file
    /// that cannot be read (any ``FileError`` or ``DrawingFileError``) is moved aside with
    /// ``moveAside(_:now:)``; then the empty drawing saves to `path`, which no longer holds it.
    /// If the file cannot be moved, the drawing saves to a new file in the first of
    /// `rescueFolders` that is not the file's own folder.
    public static func open(_ path: String, limits: DrawingFormat.Limits = .standard,
                            rescueFolders: [String]? = nil) -> OpenedDrawing {
        let path = absolute(path)
        removeStaleTemporaryFiles(for: path)
        let problem: String
        do {
            switch try read(path, maxBytes: limits.maxFileBytes) {
            case .missing:
                // A failure here shows up as a failing save, with the banner.
                try? createFolder(folder(of: path))
                return OpenedDrawing(strokes: [], savePath: path, needsSave: true, unreadable: nil)
            case .bytes(let bytes):
                do {
                    let strokes = try DrawingFormat.decode(bytes, limits: limits)
                    return OpenedDrawing(strokes: strokes, savePath: path, needsSave: false, unreadable: nil)
                } catch {
                    problem = error.message
                }
            }
        } catch {
            problem = error.reason
        }
        var unreadable = UnreadableFile(path: path, problem: problem, movedTo: nil, moveProblem: nil, savePath: path)
        do {
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

    /// `$TMPDIR`, else `/tmp`.
    static func temporaryFolder() -> String {
        if let tmp = DrawingLocation.environment("TMPDIR"), tmp.hasPrefix("/") { return tmp }
        return "/tmp"
    }

    /// Reads and decodes a drawing without changing anything on disk (export, tools).
    public static func load(_ path: String, limits: DrawingFormat.Limits = .standard) throws(FileError) -> [Stroke] {
        switch try read(path, maxBytes: limits.maxFileBytes) {
        case .missing:
            throw FileError("read", path, code: ENOENT)
        case .bytes(let bytes):
            do {
                return try DrawingFormat.decode(bytes, limits: limits)
            } catch {
                throw FileError("read", path, reason: error.message)
            }
        }
    }
}
