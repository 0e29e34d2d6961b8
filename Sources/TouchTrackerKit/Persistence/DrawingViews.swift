// Where each drawing was left in view (its viewport: the point at the top left and the zoom), kept
// in `$XDG_STATE_HOME/touchtracker/views` so that a drawing opens as it was left. The view is not
// part of the drawing: it belongs to this machine's window, changing it is no edit, and a drawing
// sent elsewhere opens fitted to the window there. A line a drawing, `zoom x y path`, the most
// recent first, at most ``capacity``; a line that makes no sense is skipped (a view is never worth
// refusing to start over).
import Limits
import TouchKit

public struct DrawingViews: Equatable, Sendable {
    /// Views by the drawing file's absolute path, the most recently left first.
    public private(set) var entries: [(path: String, viewport: CanvasViewport)] = []
    /// How many drawings' views are kept.
    public static let capacity = 64

    public init() {}

    public static func == (a: DrawingViews, b: DrawingViews) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.path == $1.path && $0.viewport == $1.viewport }
    }

    /// The file: `$XDG_STATE_HOME/touchtracker/views`, else `~/.local/state/touchtracker/views`.
    public static func defaultFile(environment: (String) -> String? = DrawingLocation.environment) -> String {
        let state = environment("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? DrawingFile.join(DrawingLocation.homeDirectory(environment: environment), ".local/state")
        return DrawingFile.join(DrawingFile.join(state, "touchtracker"), "views")
    }

    /// The view `path` was left in, if it is kept.
    public func viewport(for path: String) -> CanvasViewport? {
        entries.first { $0.path == path }?.viewport
    }

    /// Keeps `viewport` as `path`'s view, the most recent.
    public mutating func set(_ viewport: CanvasViewport, for path: String) {
        entries.removeAll { $0.path == path }
        entries.insert((path, viewport), at: 0)
        if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
        // Long paths: the oldest go before the file outgrows what a start reads.
        while entries.count > 1, text.utf8.count > Limit.settingsFileBytes { entries.removeLast() }
    }

    /// The file's text.
    public var text: String {
        "# Where TouchTracker's drawings were left in view: zoom, x, y of the top left, the file.\n"
            + entries.map { "\($0.viewport.zoom) \($0.viewport.origin.x) \($0.viewport.origin.y) \($0.path)\n" }.joined()
    }

    /// Reads `text`, skipping lines that are not a finite zoom within the canvas's limits, a point
    /// on the drawing's plane and an absolute path.
    public static func parse(_ text: String) -> DrawingViews {
        var views = DrawingViews()
        // "\r\n" is one Character to Swift: a file written on Windows splits the same.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let zoom = Double(fields[0]), let x = Double(fields[1]), let y = Double(fields[2]),
                  CanvasScrollView.zoomRange.contains(zoom), abs(x) <= Limit.coordinate, abs(y) <= Limit.coordinate,
                  fields[3].hasPrefix("/"), !fields[3].unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                  views.viewport(for: String(fields[3])) == nil,
                  views.entries.count < capacity else { continue }
            views.entries.append((String(fields[3]), CanvasViewport(origin: Point(x: x, y: y), zoom: zoom)))
        }
        return views
    }

    /// The views kept at `path`; none when the file is missing or cannot be read.
    public static func load(_ path: String) -> DrawingViews {
        guard case .bytes(let bytes)? = try? DrawingFile.read(path, maxBytes: Limit.settingsFileBytes) else { return DrawingViews() }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the file at `path` whole (atomically), making its folder.
    public func save(to path: String) throws(FileIOError) {
        try DrawingFile.createFolder(DrawingFile.folder(of: path))
        try DrawingFile.writeAtomically(Array(text.utf8), to: path)
    }
}
