// New under Weston (A9): the toolbar's New empties the canvas, the old drawing stays in its file,
// the new file fills as the user draws, and a start without a file comes back to the new drawing.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Persistence under Weston: New", .serialized)
struct PersistenceNewTests {
    /// The toolbar's New.
    func newButton(_ app: PersistentApp) -> (Double, Double) {
        AppLayout.button(.new, width: app.window.width, height: app.window.height)
    }

    func tap(_ app: PersistentApp, _ id: Int, _ point: (Double, Double)) throws {
        let p = app.global(point.0, point.1)
        try app.session.touchDown(id, x: p.x, y: p.y)
        try app.session.touchFrame()
        usleep(50_000)
        try app.session.touchUp(id)
        try app.session.touchFrame()
    }

    @Test("A9: draw, New: the canvas is empty, the old file keeps its lines, the new file fills; a restart opens the new drawing")
    func newDrawing() throws {
        let app = try PersistentApp()
        let newFile = app.dataHome + "/touchtracker/drawing 2.json"
        try app.launch()
        try app.drawLine(0, from: (100, 150), to: (500, 150))
        try app.drawLine(1, from: (100, 250), to: (500, 250))
        try app.waitForFile(strokes: 2)
        try tap(app, 2, newButton(app))
        try app.expectScreen("an empty canvas") { pixel in pixel(300, 150) == .white && pixel(300, 250) == .white }
        try app.expectBanner(red: false)
        try app.waitForFile(newFile, strokes: 0)
        #expect(app.log.contains("new drawing \(newFile); \(app.file) kept"), "\(app.log)")
        try app.drawLine(3, from: (100, 350), to: (500, 350))
        try app.expectScreen("the new line") { pixel in pixel(300, 350) == .black }
        try app.waitForFile(newFile, strokes: 1)
        #expect(try SavedStroke.read(app.file).count == 2, "the old drawing is left as it was")
        // The old file is free: another TouchTracker may open it while this one runs.
        let lock = app.dataHome + "/touchtracker/.drawing.json.lock"
        #expect(!FileManager.default.fileExists(atPath: lock))
        #expect(FileManager.default.fileExists(atPath: app.dataHome + "/touchtracker/.drawing 2.json.lock"))
        #expect(app.end(with: SIGTERM) == 0)
        // A start without a file: the drawing the user was on, not the older one.
        try app.launch()
        try app.expectScreen("the new drawing again") { pixel in
            pixel(300, 350) == .black && pixel(300, 150) == .white && pixel(300, 250) == .white
        }
        #expect(app.end(with: SIGTERM) == 0)
        #expect(try SavedStroke.read(newFile).count == 1 && SavedStroke.read(app.file).count == 2)
    }
}
