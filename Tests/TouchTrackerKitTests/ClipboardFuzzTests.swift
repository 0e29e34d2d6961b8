// Hostile clipboard contents fed to the paste path (P4): whatever another program puts on the
// clipboard under the app's own type, a paste either adds valid lines as one step or says why not
// in one red banner line, leaving the drawing and its undo history exactly as they were.
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Copy and paste: hostile clipboard contents")
struct ClipboardFuzzTests {
    /// The loader fuzz's small limits, so generated pastes cross them often.
    static let limits = PersistenceFuzzTests.limits

    /// Pastes `bytes` (as the pasteboard would deliver them) into a drawing of two lines; checks
    /// no crash, one clear message on failure, and the drawing untouched then.
    func checkPaste(_ bytes: [UInt8], _ what: String) {
        let (canvas, _, notices) = Canvas.withPasteboard(drawing: Drawing(strokes: randomDrawing(seed: 7, maxStrokes: 2)))
        canvas.drawView.pasteLimits = Self.limits
        let drawing = canvas.drawView.drawing
        let before = drawing.strokes
        canvas.drawView.pasteArrived(.data(bytes))
        if notices.list.isEmpty {
            // Accepted: valid lines on top, as one undoable step, within the limits.
            #expect(drawing.strokes.count > before.count && drawing.strokes.count <= Self.limits.maxStrokes, "\(what)")
            #expect(drawing.strokes.allSatisfy { DrawingFormat.problem(with: $0, limits: Self.limits) == nil }, "\(what)")
            drawing.undoStack.undo()
            #expect(identical(drawing.strokes, before), "\(what)")
        } else {
            #expect(notices.list.count == 1 && notices.list[0].style == .error, "\(what)")
            let text = notices.list[0].text
            #expect(text.hasPrefix("Cannot paste: ") && !text.contains("\n"), "\(what): \(text)")
            #expect(identical(drawing.strokes, before) && !drawing.undoStack.canUndo, "\(what)")
        }
    }

    static let valid = drawingJSON([strokeJSON(), strokeJSON(id: "2", points: "[[1, 2], [3, 4]]")])

    @Test("P4: truncated at every byte, a valid paste is declined or, whole, pasted")
    func truncated() {
        let bytes = Array(Self.valid.utf8)
        for end in 0...bytes.count { checkPaste(Array(bytes.prefix(end)), "truncated at \(end)") }
    }

    @Test("P4: too big, too deep, NaN, wrong types, too many lines or points: declined with a clear message")
    func hostileShapes() {
        let cases: [(String, String)] = [
            ("huge", String(repeating: " ", count: 5000) + Self.valid),
            ("deep nesting", drawingJSON([]).replacingOccurrences(of: "\"strokes\"", with: "\"x\": " + String(repeating: "[", count: 10_000) + ", \"strokes\"")),
            ("NaN", drawingJSON([strokeJSON(points: "[[NaN, 1], [2, 3]]")])),
            ("infinity", drawingJSON([strokeJSON(points: "[[1e999, 1], [2, 3]]")])),
            ("a string for a number", drawingJSON([strokeJSON(width: "\"10\"")])),
            ("an object for the strokes", "{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":{}}"),
            ("a list", "[1, 2, 3]"),
            ("text", "hello, world"),
            ("no lines", drawingJSON([])),
            ("too many lines", drawingJSON((1...9).map { strokeJSON(id: "\($0)") })),
            ("too many points", drawingJSON([strokeJSON(kind: "\"freehand\"", points: "[" + Array(repeating: "[1, 2]", count: 13).joined(separator: ",") + "]")])),
            ("a newer version", drawingJSON([strokeJSON()], version: "2")),
            ("a coordinate far out", drawingJSON([strokeJSON(points: "[[1e300, 1], [2, 3]]")])),
            ("empty", ""),
        ]
        for (what, text) in cases {
            let (canvas, _, notices) = Canvas.withPasteboard(drawing: Drawing(strokes: randomDrawing(seed: 7, maxStrokes: 2)))
            canvas.drawView.pasteLimits = Self.limits
            canvas.drawView.pasteArrived(.data(Array(text.utf8)))
            #expect(notices.list.count == 1, "\(what) was accepted")
            checkPaste(Array(text.utf8), what)
        }
    }

    @Test("P4: random bytes and random mutations of a valid paste never crash and never half-paste")
    func randomBytes() {
        var random = SplitMix(seed: 0xC11B)
        let valid = Array(Self.valid.utf8)
        for round in 0..<400 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = valid
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 3 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(Array("[]{},:\"0-e.".utf8)[Int(random.next() % 11)], at: at)
                    }
                }
            }
            checkPaste(bytes, "round \(round)")
        }
    }
}
