// What the app puts on the clipboard and takes from it (P2-P5): the copied lines in the app's own
// type (the drawing file format), and as PNG and SVG pictures for other programs; a paste is read
// back with the drawing file's reader and limits, and placed so that it does not hide the lines it
// was copied from. Pure functions over strokes and bytes: the pasteboard itself is the host's.
import TouchKit

public enum DrawingClipboard {
    /// The app's own type: a drawing file's bytes (docs/file-format.md), the type drawings have on disk.
    public static let drawingType = "application/vnd.touchtracker.drawing+json"
    public static let pngType = "image/png"
    public static let svgType = "image/svg+xml"

    /// How far a paste shifts (right and down) from lines it would otherwise lie exactly on.
    public static let pasteOffset = 20.0
    /// The most shifts one paste takes before it settles where it is.
    static let maxShifts = 50

    /// What copying `strokes` offers, best first: the drawing itself (what a TouchTracker pastes),
    /// then a PNG and an SVG cropped to the lines (what a chat, a document or GIMP takes). Each is
    /// made only when a program asks for it, the pictures off the event loop; a picture that cannot
    /// be made is sent empty.
    public static func items(for strokes: [Stroke]) -> [PasteboardItem] {
        [
            PasteboardItem(type: drawingType, data: { DrawingFormat.encode(strokes).bytes }),
            .slow(type: pngType) { (try? DrawingExporter.croppedPNG(strokes)) ?? [] },
            .slow(type: svgType) { (try? DrawingExporter.croppedSVG(strokes)) ?? [] },
        ]
    }

    /// Whether a clipboard offering `types` holds something the app can paste.
    public static func canPaste(_ types: [String]) -> Bool { types.contains(drawingType) }

    /// The strokes a paste of `bytes` adds to `drawing`, where they go (``placed(_:in:)``).
    ///
    /// - Throws: ``DrawingParseError`` with a sentence for the banner when the bytes are not a
    ///   drawing within `limits`, hold no lines, or would take the drawing past `limits`; the
    ///   drawing is not touched.
    public static func strokesToPaste(_ bytes: [UInt8], into drawing: Drawing,
                                      limits: DrawingFormat.Limits = .standard) throws(DrawingParseError) -> [Stroke] {
        let strokes: [Stroke]
        do throws(DrawingParseError) {
            strokes = try DrawingFormat.decode(bytes, limits: limits)
        } catch {
            throw DrawingParseError("the clipboard's drawing is damaged: \(error.message)")
        }
        guard !strokes.isEmpty else { throw DrawingParseError("the clipboard's drawing has no lines") }
        guard drawing.strokes.count + strokes.count <= limits.maxStrokes else {
            throw DrawingParseError("the drawing would have more than \(limits.maxStrokes) lines")
        }
        let points = drawing.strokes.reduce(0) { $0 + $1.points.count } + strokes.reduce(0) { $0 + $1.points.count }
        guard points <= limits.maxTotalPoints else {
            throw DrawingParseError("the drawing would have more than \(limits.maxTotalPoints) points")
        }
        return placed(strokes, in: drawing, limits: limits)
    }

    /// Where pasted strokes go: where they were copied from, unless one of them would lie exactly
    /// on a line already there (a paste into the drawing it came from), then shifted by
    /// ``pasteOffset`` right and down as often as that takes (a second paste lands beyond the first).
    public static func placed(_ strokes: [Stroke], in drawing: Drawing,
                              limits: DrawingFormat.Limits = .standard) -> [Stroke] {
        // Every line's shape, hashed once: a spatial query per pasted line costs too much in a
        // dense drawing, where each cell holds thousands of lines.
        var shapes = Set<Shape>(minimumCapacity: drawing.strokes.count)
        for stroke in drawing.strokes { shapes.insert(Shape(stroke)) }
        var moved = strokes
        var shifts = 0
        while shifts < maxShifts, moved.contains(where: { shapes.contains(Shape($0)) }) {
            let next = moved.map { $0.translated(dx: pasteOffset, dy: pasteOffset) }
            guard next.allSatisfy({ DrawingFormat.problem(with: $0, limits: limits) == nil }) else { break }
            moved = next
            shifts += 1
        }
        return moved
    }

    /// What "lies exactly on" compares: the kind and the points, not the colour or width.
    private struct Shape: Hashable {
        let kind: Stroke.Kind
        let points: StrokePoints
        init(_ stroke: Stroke) { (kind, points) = (stroke.kind, stroke.points) }
    }
}
