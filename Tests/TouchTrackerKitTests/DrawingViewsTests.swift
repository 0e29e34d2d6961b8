// The views file: each drawing's view kept across starts, read back whatever it holds.
import Limits
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Drawing views file")
struct DrawingViewsTests {
    @Test("A15: views are written and read back by drawing, the most recent first, one per drawing")
    func roundTrip() {
        var views = DrawingViews()
        views.set(CanvasViewport(origin: Point(x: -120.5, y: 40), zoom: 2.5), for: "/home/a/drawing.json")
        views.set(CanvasViewport(origin: Point(x: 10, y: 20), zoom: 0.25), for: "/home/a/with spaces/b.json")
        views.set(CanvasViewport(origin: Point(x: 1, y: 2), zoom: 1), for: "/home/a/drawing.json")
        let read = DrawingViews.parse(views.text)
        #expect(read == views)
        #expect(read.entries.map(\.path) == ["/home/a/drawing.json", "/home/a/with spaces/b.json"])
        #expect(read.viewport(for: "/home/a/with spaces/b.json") == CanvasViewport(origin: Point(x: 10, y: 20), zoom: 0.25))
    }

    @Test("A15: a damaged views file costs only its bad lines: zooms out of range, points off the plane, relative paths, garbage")
    func hostileLinesSkipped() {
        let text = """
            # comment
            2 10 20 /ok.json
            nan 0 0 /a.json
            900 0 0 /b.json
            1 1e300 0 /c.json
            1 0 0 relative.json
            1 0
            \u{0}\u{1} garbage
            0.5 -3 4 /ok.json
            """
        let views = DrawingViews.parse(text)
        #expect(views.entries.count == 1)
        #expect(views.viewport(for: "/ok.json") == CanvasViewport(origin: Point(x: 10, y: 20), zoom: 2))
        // Written on Windows: the same views.
        #expect(DrawingViews.parse("2 0 0 /a.json\r\n0.5 -30 40 /b.json\r\n").entries.map(\.path) == ["/a.json", "/b.json"])
    }

    @Test("A15: the file keeps the most recent drawings within its limits, however long their paths")
    func bounded() {
        var views = DrawingViews()
        let long = "/" + String(repeating: "x", count: 4000)
        for i in 0..<200 { views.set(.identity, for: long + "\(i)") }
        #expect(views.entries.count <= DrawingViews.capacity)
        #expect(views.text.utf8.count <= Limit.settingsFileBytes)
        #expect(views.entries.first?.path == long + "199")
    }
}
