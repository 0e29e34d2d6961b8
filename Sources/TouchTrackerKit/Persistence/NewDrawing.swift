// Where New puts a drawing, and which drawing a start without a file opens. New never touches
// an existing drawing: it picks the first free numbered name beside the current one
// (`drawing.json` → `drawing 2.json`, `drawing 3.json`, ...). A start with no file argument
// reopens the drawing the last such session ended on, remembered in a small file beside the
// default drawing, so that New followed by quitting does not send the user back to an older
// drawing; a session opened on a named file leaves that memory alone.
#if canImport(Glibc)
import Glibc
#endif

public enum NewDrawing {
    /// The file New starts in, beside `current`: the current name without its number, numbered
    /// from 2 past every drawing, journal or lock already there.
    public static func path(beside current: String) -> String {
        let (stem, ext) = DrawingFile.numbering(DrawingFile.name(of: current))
        let base = DrawingFile.firstFree(in: DrawingFile.folder(of: current), stem: stem, from: 2) { base in
            let candidate = base + ext
            return [candidate, DrawingJournal.path(for: candidate), DrawingLock.lockPath(for: candidate)]
        }
        return base + ext
    }

    /// The file remembering the drawing a start with no file argument opens.
    public static func memoryFile(environment: (String) -> String? = DrawingLocation.environment) -> String {
        DrawingFile.join(DrawingLocation.defaultDirectory(environment: environment), ".last-drawing")
    }

    /// The drawing to open when none is named: the remembered one if it still exists, else
    /// the default drawing.
    public static func drawingToOpen(environment: (String) -> String? = DrawingLocation.environment) -> String {
        if case .bytes(let bytes)? = try? DrawingFile.read(memoryFile(environment: environment), maxBytes: 4096) {
            let path = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            if path.hasPrefix("/"), access(path, F_OK) == 0 { return path }
        }
        return DrawingLocation.defaultFile(environment: environment)
    }

    /// Remembers `path` as the drawing the next start with no file argument opens.
    public static func remember(_ path: String,
                                environment: (String) -> String? = DrawingLocation.environment) throws(FileIOError) {
        let file = memoryFile(environment: environment)
        try DrawingFile.createFolder(DrawingFile.folder(of: file))
        try DrawingFile.writeAtomically(Array((path + "\n").utf8), to: file)
    }
}
