// Copy and paste on the real canvas (P2-P6) with an in-memory pasteboard standing in for the
// Wayland one (which the end-to-end tests drive): what a copy offers, where a paste goes, that it
// is one undoable step, the limits, and hostile clipboard contents.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

/// The clipboard as a dictionary; reads are answered when `deliver()` is called, as the host's
/// event loop answers them later.
final class MemoryPasteboard: Pasteboard {
    var items: [PasteboardItem] = []
    var types: [String] { items.map(\.type) }
    var refuses = false
    private var pending: [(String, Int, (PasteboardReadResult) -> Void)] = []
    private(set) var reads = 0

    func setItems(_ items: [PasteboardItem]) -> Bool {
        guard !refuses else { return false }
        self.items = items
        return true
    }

    func read(_ type: String, maxBytes: Int, completion: @escaping (PasteboardReadResult) -> Void) {
        reads += 1
        pending.append((type, maxBytes, completion))
    }

    func bytes(_ type: String) -> [UInt8]? { items.first { $0.type == type }?.data() }

    /// Answers the reads asked for so far.
    func deliver() {
        let answering = pending
        pending = []
        for (type, maxBytes, completion) in answering {
            guard let bytes = bytes(type) else {
                completion(.failed("gone"))
                continue
            }
            completion(bytes.count > maxBytes ? .tooLarge(maxBytes: maxBytes) : .data(bytes))
        }
    }
}

extension Canvas {
    /// A canvas with a pasteboard and a notice log.
    static func withPasteboard(drawing: Drawing = Drawing()) -> (Canvas, MemoryPasteboard, Notices) {
        let canvas = Canvas(drawing: drawing)
        let pasteboard = MemoryPasteboard()
        canvas.application.pasteboard = pasteboard
        let notices = Notices()
        canvas.drawView.onNotice = { text, style in notices.list.append((text, style)) }
        return (canvas, pasteboard, notices)
    }
}

extension Canvas {
    /// A canvas with a pasteboard, a presenter recording the menu, and a line across it at y 100.
    static func withMenuAndALine() -> (Canvas, MemoryPasteboard, RecordingPresenter) {
        let (canvas, pasteboard, _) = Canvas.withPasteboard()
        let presenter = RecordingPresenter()
        canvas.menu.presenter = presenter
        canvas.drawLine(1, from: Point(x: 20, y: 100), to: Point(x: 380, y: 100))
        return (canvas, pasteboard, presenter)
    }
}

final class Notices {
    var list: [(text: String, style: BannerView.Style)] = []
}

private let line1 = Stroke.line(StrokeID(1), from: Point(x: 20, y: 100), to: Point(x: 380, y: 100), color: .black, width: 10)
private let line2 = Stroke.line(StrokeID(2), from: Point(x: 20, y: 200), to: Point(x: 380, y: 200), color: .black, width: 10)

@Suite("Copy and paste on the canvas")
struct ClipboardTests {
    @Test("P2: Copy with a line selected offers that line as a drawing, a PNG and an SVG; with none, the whole drawing")
    func copyOffersThreeTypes() throws {
        let (canvas, pasteboard, _) = Canvas.withPasteboard(drawing: Drawing(strokes: [line1, line2]))
        canvas.drawView.select(StrokeID(2))
        #expect(canvas.drawView.copy())
        #expect(pasteboard.types == [DrawingClipboard.drawingType, "image/png", "image/svg+xml"])
        let copied = try DrawingFormat.decode(try #require(pasteboard.bytes(DrawingClipboard.drawingType)))
        #expect(copied.map(\.points) == [line2.points])
        let png = try #require(pasteboard.bytes("image/png"))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let svg = String(decoding: try #require(pasteboard.bytes("image/svg+xml")), as: UTF8.self)
        #expect(svg.contains("<svg") && svg.contains("M 15 15 L 375 15"), "\(svg)")

        canvas.drawView.select(nil)
        #expect(canvas.drawView.copy())
        #expect(try DrawingFormat.decode(try #require(pasteboard.bytes(DrawingClipboard.drawingType))).count == 2)
    }

    @Test("P2: nothing to copy in an empty drawing; a refused copy says so in a banner")
    func copyEdges() {
        let (canvas, pasteboard, notices) = Canvas.withPasteboard()
        #expect(!canvas.drawView.copy())
        #expect(pasteboard.items.isEmpty && notices.list.isEmpty)
        canvas.drawView.drawing.add(line1)
        pasteboard.refuses = true
        #expect(!canvas.drawView.copy())
        #expect(notices.list.last?.style == .error)
    }

    @Test("P3: a paste adds the copied lines as one undoable step; undo takes them all, redo brings them back")
    func pasteIsOneStep() throws {
        let (source, pasteboard, _) = Canvas.withPasteboard(drawing: Drawing(strokes: [line1, line2]))
        source.drawView.copy()
        let (target, _, notices) = Canvas.withPasteboard(drawing: Drawing(strokes: [
            .line(StrokeID(1), from: Point(x: 50, y: 50), to: Point(x: 60, y: 60), color: .red, width: 4),
        ]))
        target.application.pasteboard = pasteboard
        target.drawView.paste()
        #expect(target.drawView.drawing.strokes.count == 1, "nothing yet: the bytes come later")
        pasteboard.deliver()
        let drawing = target.drawView.drawing
        #expect(drawing.strokes.count == 3 && notices.list.isEmpty)
        #expect(drawing.strokes.suffix(2).map(\.points) == [line1.points, line2.points], "where they were copied from")
        #expect(Set(drawing.strokes.map(\.id)).count == 3, "taken ids are renumbered")
        #expect(drawing.undoStack.undoActionName == "Paste")
        drawing.undoStack.undo()
        #expect(drawing.strokes.count == 1)
        drawing.undoStack.redo()
        #expect(drawing.strokes.suffix(2).map(\.points) == [line1.points, line2.points])
        drawing.undoStack.undo()
        #expect(drawing.strokes.count == 1 && !drawing.undoStack.canUndo)
        #expect(target.renderAll().color(x: 200, y: 100) == .white)
    }

    @Test("P3: pasted into the drawing they came from, lines shift 20 pt right and down, and again for a second paste")
    func pasteShiftsOffTwins() {
        let (canvas, pasteboard, _) = Canvas.withPasteboard(drawing: Drawing(strokes: [line1]))
        canvas.drawView.copy()
        canvas.drawView.paste()
        pasteboard.deliver()
        canvas.drawView.paste()
        pasteboard.deliver()
        let starts = canvas.drawView.drawing.strokes.map(\.points[0])
        #expect(starts == [Point(x: 20, y: 100), Point(x: 40, y: 120), Point(x: 60, y: 140)])
        #expect(canvas.renderAll().color(x: 200, y: 120) == .black)
    }

    @Test("P4: a paste that would take the drawing past the file's limits, or is too big, or broke, leaves it unchanged with a red banner")
    func pasteLimits() throws {
        let (canvas, pasteboard, notices) = Canvas.withPasteboard(drawing: Drawing(strokes: [line1, line2]))
        canvas.drawView.copy()
        var limits = DrawingFormat.Limits()
        limits.maxStrokes = 3
        canvas.drawView.pasteLimits = limits
        canvas.drawView.paste()
        pasteboard.deliver()
        #expect(canvas.drawView.drawing.strokes.count == 2)
        #expect(notices.list.last?.text.contains("more than 3 lines") == true && notices.list.last?.style == .error)

        canvas.drawView.pasteArrived(.tooLarge(maxBytes: 128 << 20))
        #expect(notices.list.last?.text.contains("more than 128 MiB") == true)
        canvas.drawView.pasteArrived(.failed("the program holding the clipboard sent nothing for 5 s"))
        #expect(notices.list.last?.text == "Cannot paste: the program holding the clipboard sent nothing for 5 s. Your drawing is unchanged")
        #expect(canvas.drawView.drawing.strokes.count == 2 && canvas.drawView.drawing.undoStack.undoActionName == nil)
    }

    @Test("P4: one paste is read at a time: Ctrl+V again while one is on its way reads nothing more, and once it has arrived a paste reads again")
    func onePasteAtATime() {
        let (canvas, pasteboard, _) = Canvas.withPasteboard()
        pasteboard.items = DrawingClipboard.items(for: [line1])
        canvas.drawView.paste()
        canvas.drawView.paste()
        canvas.drawView.paste()
        #expect(pasteboard.reads == 1)
        pasteboard.deliver()
        #expect(canvas.drawView.drawing.strokes.count == 1)
        canvas.drawView.paste()
        #expect(pasteboard.reads == 2)
        pasteboard.deliver()
        #expect(canvas.drawView.drawing.strokes.count == 2, "the second paste shifted beside the first")
    }

    @Test("P5: text or pictures of other programs are declined politely: no read, a dark banner, nothing changes")
    func foreignDeclined() {
        let (canvas, pasteboard, notices) = Canvas.withPasteboard(drawing: Drawing(strokes: [line1]))
        pasteboard.items = [PasteboardItem(type: "text/plain;charset=utf-8") { Array("hello".utf8) },
                            PasteboardItem(type: "image/png") { [0x89, 0x50] }]
        canvas.drawView.paste()
        #expect(pasteboard.reads == 0)
        #expect(notices.list.map(\.style) == [.info])
        #expect(notices.list.first?.text.contains("nothing TouchTracker can paste") == true)
        #expect(canvas.drawView.drawing.strokes == [line1])
    }

    @Test("P2 P5 M1: a tapped line's menu holds Delete and Copy, and Paste only while the clipboard holds a drawing")
    func menuItems() throws {
        let (canvas, pasteboard, presenter) = Canvas.withMenuAndALine()
        canvas.tap(2, 200, 104)
        #expect(presenter.shown.last?.items.map(\.title) == ["Delete", "Copy"])
        let copy = try #require(canvas.menu.visibleItems.first { $0.action == .copy })
        canvas.menu.choose(copy)
        #expect(pasteboard.types.first == DrawingClipboard.drawingType)
        canvas.tap(3, 200, 104)
        #expect(presenter.shown.last?.items.map(\.title) == ["Delete", "Copy", "Paste"])
    }

    @Test("P6: a long press on empty canvas shows Copy and Paste when the finger lifts, and draws nothing")
    func longPressOnEmptyCanvas() throws {
        let (canvas, pasteboard, presenter) = Canvas.withMenuAndALine()
        canvas.drawView.copy()
        canvas.down(2, 200, 250)
        canvas.frame()
        canvas.clock.advance(by: 0.7)
        #expect(!canvas.menu.isMenuVisible, "shown on lifting")
        canvas.up(2)
        canvas.frame()
        canvas.clock.advance(by: 0.5)
        #expect(canvas.menu.isMenuVisible)
        #expect(presenter.shown.last?.items.map(\.title) == ["Copy", "Paste"])
        #expect(presenter.shown.last?.rect.origin == Point(x: 200, y: 250))
        #expect(canvas.drawView.drawing.strokes.count == 1, "the press drew no dot")
        let paste = try #require(canvas.menu.visibleItems.first { $0.action == .paste })
        canvas.menu.choose(paste)
        pasteboard.deliver()
        #expect(canvas.drawView.drawing.strokes.count == 2)
    }
}
