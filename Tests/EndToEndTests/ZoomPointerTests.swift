// Moving and zooming the drawing with a mouse's wheel and the zoom control, on a phone under phoc
// and under Sway (A15, S9): both take input from wlroots' virtual pointer.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Testing
import TouchTrackerKit

/// How many pixel rows of column `x` (points) between `top` and `bottom` show a finished line.
private func lineRows(_ app: PhocAppUnderTest, _ shot: Screenshot, x: Double, from top: Double, to bottom: Double) -> [Int] {
    let column = app.pixel(x)
    return (Int(app.pixel(top))..<Int(app.pixel(bottom))).filter { y in
        guard let ink = shot.pixel(x: column, y: Double(y)) else { return false }
        return app.style.isDark ? ink.green > 0xD0 : ink == .black
    }
}

@Suite("Moving and zooming with a mouse", .serialized)
struct ZoomPointerTests {
    @Test("A15 S9: on a phone, the wheel moves the drawing up and the zoom control's + zooms it, the line 2.44 times as thick after four steps; the middle button brings 100 % back",
          arguments: [false, true])
    func phoneWheelAndControl(dark: Bool) {
        withPhocApp(PhocSession.Options(), dark: dark) { app in
            try app.drag(from: (40, 300), to: (320, 300))
            var shot = try app.session.waitForScreen("the line finished") { shot in app.showsFinishedLine(shot, 180, 300) }
            let before = lineRows(app, shot, x: 180, from: 250, to: 350)
            #expect(before.count >= 18 && before.count <= 22, "a 10 pt line at scale 2: \(before.count) rows")

            try app.pointer.move(x: 180, y: 400)
            try app.pointer.wheel(3)
            shot = try app.session.waitForScreen("the line moved up") { shot in !app.showsFinishedLine(shot, 180, 300) }
            let moved = lineRows(app, shot, x: 180, from: 0, to: 300)
            #expect(moved.count == before.count, "the same line, higher: rows \(moved)")

            // The zoom control over the canvas's bottom right corner.
            let size = ZoomControlView.size
            let canvasBottom = app.window.height - ToolbarView.height
            let plus = (x: app.window.width - 8 - ZoomControlView.padding - ZoomControlView.buttonSize / 2,
                        y: canvasBottom - 8 - size.height / 2)
            for _ in 0..<4 { try app.click(plus.x, plus.y) }
            shot = try app.session.waitForScreen("the line zoomed") { shot in
                Double(lineRows(app, shot, x: 180, from: 0, to: canvasBottom - size.height - 16).count) > 2.3 * Double(before.count)
            }
            app.keep(shot, "phone-zoomed")
            let zoomed = lineRows(app, shot, x: 180, from: 0, to: canvasBottom - size.height - 16)
            // 1.25 to the fourth: 2.44 times as thick, give or take a pixel's smoothing.
            #expect(Double(zoomed.count) > 2.3 * Double(before.count) && Double(zoomed.count) < 2.7 * Double(before.count),
                    "\(zoomed.count) rows at 244 %, \(before.count) at 100 %")

            let middle = (x: plus.x - ZoomControlView.buttonSize / 2 - ZoomControlView.padding - ZoomControlView.levelWidth / 2, y: plus.y)
            try app.click(middle.x, middle.y)
            shot = try app.session.waitForScreen("back at 100 %") { shot in
                lineRows(app, shot, x: 180, from: 0, to: canvasBottom - size.height - 16).count == before.count
            }
        }
    }
}
