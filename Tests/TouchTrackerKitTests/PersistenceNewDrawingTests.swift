// New (A9): the drawing stays in its file, the empty one goes to a new numbered file beside it,
// the lock moves with it, undo stops at New, and a start without a file finds the newest.
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
import TouchKit
import TouchTrackerKit

@Suite("New drawing")
struct PersistenceNewDrawingTests {
    func line(_ y: Double) -> Stroke { .line(StrokeID(1), from: Point(x: 10, y: y), to: Point(x: 200, y: y)) }

    func document(_ path: String, _ clock: ManualClock) -> DrawingDocument {
        DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
    }

    @Test("A9: New keeps the old drawing in its file, starts empty in drawing 2.json, and later lines go only there")
    func newKeepsOldFile() throws {
        let folder = TemporaryFolder()
        let clock = ManualClock()
        let old = folder.file("drawing.json")
        let doc = document(old, clock)
        let controller = DrawViewController(drawing: doc.drawing)
        doc.noticeDisplay = controller
        if case .acquired(let lock) = DrawingLock.acquire(for: old) { doc.lock = lock }
        #expect(doc.lock != nil)
        var told: [String] = []
        doc.onNewFile = { told.append($0) }
        doc.drawing.add(line(10))
        doc.drawing.add(line(20))
        // Not yet saved when New comes: New saves it first.
        let new = try #require(doc.startNew())
        #expect(new == folder.file("drawing 2.json"))
        #expect(told == [new])
        #expect(doc.path == new && doc.drawing.strokes.isEmpty)
        #expect(!doc.drawing.undoStack.canUndo, "undo does not reach back into the old drawing")
        #expect(try DrawingFile.load(old).count == 2)
        #expect(controller.banner.isShowing && controller.banner.message.contains("drawing 2.json") && controller.banner.message.contains("drawing.json is kept"))
        // The lock moved: the new file is held, the old one is free for another TouchTracker.
        #expect(doc.lock?.path == DrawingLock.lockPath(for: new))
        let second = DrawingLock.acquire(for: new)
        guard case .held = second else { Issue.record("the new file is not locked: \(second)"); return }
        guard case .acquired = DrawingLock.acquire(for: old) else { Issue.record("the old file is still locked"); return }
        clock.advance(by: 0.3)
        #expect(try DrawingFile.load(new).isEmpty, "the new file exists at once")
        doc.drawing.add(line(30))
        doc.drawing.undoStack.undo()
        doc.drawing.undoStack.redo()
        clock.advance(by: 0.3)
        #expect(try DrawingFile.load(new).count == 1)
        #expect(try DrawingFile.load(old).count == 2, "the old file is never touched again")
        #expect(doc.close() == nil)
    }

    @Test("A9: New on an empty drawing changes nothing and makes no file")
    func newOnEmpty() throws {
        let folder = TemporaryFolder()
        let doc = document(folder.file("drawing.json"), ManualClock())
        let controller = DrawViewController(drawing: doc.drawing)
        doc.noticeDisplay = controller
        #expect(doc.startNew() == nil)
        #expect(doc.path == folder.file("drawing.json") && controller.banner.message == "drawing.json is empty: draw here")
        #expect(!folder.names.contains("drawing 2.json"))
    }

    @Test("A9: New numbers past drawings, journals and locks already there, and counts on from a numbered name")
    func numbering() {
        let folder = TemporaryFolder()
        writeFile(folder.file("drawing 2.json"), "{}")
        writeFile(folder.file(".drawing 3.json.lock"), "")
        writeFile(DrawingJournal.path(for: folder.file("drawing 4.json")), "")
        #expect(NewDrawing.path(beside: folder.file("drawing.json")) == folder.file("drawing 5.json"))
        #expect(NewDrawing.path(beside: folder.file("drawing 2.json")) == folder.file("drawing 5.json"))
        #expect(NewDrawing.path(beside: folder.file("sketch")) == folder.file("sketch 2"))
        #expect(NewDrawing.path(beside: folder.file("plan 1.json")) == folder.file("plan 1 2.json"))
    }

    @Test("A9: a start without a file opens the drawing New made last, or the default one when it is gone")
    func remembered() throws {
        let folder = TemporaryFolder()
        let environment: (String) -> String? = { $0 == "XDG_DATA_HOME" ? folder.path : nil }
        let defaultFile = DrawingLocation.defaultFile(environment: environment)
        #expect(NewDrawing.drawingToOpen(environment: environment) == defaultFile)
        let newer = folder.file("touchtracker/drawing 2.json")
        try NewDrawing.remember(newer, environment: environment)
        #expect(NewDrawing.drawingToOpen(environment: environment) == defaultFile, "not there yet")
        writeFile(newer, "{}")
        #expect(NewDrawing.drawingToOpen(environment: environment) == newer)
    }
}
