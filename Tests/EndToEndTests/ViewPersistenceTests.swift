// A drawing's view across starts, in the real app under Weston: it opens as it was left (zoomed
// with the zoom control, kept in the state folder), and a drawing made on a bigger screen opens
// whole rather than cut off (A15).
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation
import Testing
import TouchTrackerKit

@Suite("A drawing's view across starts", .serialized)
struct ViewPersistenceTests {
    /// How many rows of column `x` (window points) between `top` and `bottom` are black.
    static func blackRows(_ pixel: (Double, Double) -> Pixel, x: Double, from top: Double, to bottom: Double) -> Int {
        stride(from: top, to: bottom, by: 1).filter { pixel(x, $0) == .black }.count
    }

    @Test("A15: zoomed in with the zoom control, the drawing opens zoomed in where it was left after a restart, and the views file names it")
    func reopensAsLeft() {
        withPersistentApp { app in
            try app.drawLine(0, from: (100, 200), to: (500, 200))
            try app.expectScreen("the line at 100 %") { pixel in Self.blackRows(pixel, x: 300, from: 150, to: 250) == 10 }
            // The zoom control's + over the canvas's bottom right corner, pressed twice: 156 %.
            let canvasBottom = app.window.height - ToolbarView.height
            let plusInWindow = AppLayout.zoomButton(in: true, width: app.window.width, height: app.window.height)
            let plus = app.global(plusInWindow.x, plusInWindow.y)
            // Aside while the line was drawn, the control is back once the strokes have rested:
            // the middle of its + is inked.
            try app.expectScreen("the zoom control back after the stroke") { pixel in pixel(plusInWindow.x, plusInWindow.y) != .white }
            for _ in 0..<2 {
                try app.session.touchDown(9, x: plus.x, y: plus.y)
                try app.session.touchFrame()
                try app.session.touchUp(9)
                try app.session.touchFrame()
            }
            try app.expectScreen("the line zoomed in") { pixel in
                (15...16).contains(Self.blackRows(pixel, x: 300, from: 0, to: canvasBottom - 80))
            }
            _ = try app.waitForFile(strokes: 1)
            #expect(app.end(with: SIGTERM) == 0)
            let views = try String(contentsOfFile: app.stateHome + "/touchtracker/views", encoding: .utf8)
            #expect(views.contains("1.5625 ") && views.contains(" \(app.file)\n"), "\(views)")
            try app.launch()
            try app.expectScreen("the line zoomed in as it was left") { pixel in
                (15...16).contains(Self.blackRows(pixel, x: 300, from: 0, to: canvasBottom - 80))
            }
        }
    }

    @Test("A15: a drawing reaching past the window (made on a bigger screen) opens zoomed out to show all of it")
    func opensWhole() {
        withPersistentApp(launch: false) { app in
            try FileManager.default.createDirectory(atPath: app.dataHome + "/touchtracker", withIntermediateDirectories: true)
            try ("{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[{\"id\":1,\"kind\":\"line\",\"color\":[0,0,0,1],"
                 + "\"width\":10,\"points\":[[1300,100],[1700,100]]},{\"id\":2,\"kind\":\"line\",\"color\":[0,0,0,1],"
                 + "\"width\":10,\"points\":[[100,100],[400,100]]}]}\n").write(toFile: app.file, atomically: true, encoding: .utf8)
            try app.launch()
            // Fitted: 1,700 points and the margins into the window's 1,024, both lines in it,
            // centred. Row by row (every other), the columns a line inks.
            let canvasBottom = app.window.height - ToolbarView.height
            try app.expectScreen("both lines, zoomed out") { pixel in
                let columns = stride(from: 0.0, to: app.window.width, by: 1)
                let inked = columns.filter { x in stride(from: 0.0, to: canvasBottom, by: 2).contains { pixel(x, $0) == .black } }
                return inked.count > 300 && inked.contains { $0 > 700 } && inked.contains { $0 < 300 }
            }
        }
    }
}
