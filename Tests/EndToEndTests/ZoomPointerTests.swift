// Moving and zooming the drawing with a mouse's wheel and the zoom control, on a phone under phoc
// and on a desktop under Sway (A15, S9): both take input from wlroots' virtual pointer.
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
            let plus = AppLayout.zoomButton(in: true, width: app.window.width, height: app.window.height)
            // Aside while the line was drawn, back once the strokes have rested: its + inked.
            _ = try app.session.waitForScreen("the zoom control back after the stroke") { shot in
                app.pixelAt(shot, plus.x, plus.y).map { !$0.isClose(to: Pixel(app.style.paper), tolerance: 8) } ?? false
            }
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

    @Test("A15 S9: under Sway the wheel scrolls the drawing sideways and down, and the zoom control's - zooms it out about the middle")
    func swayWheelAndControl() {
        withSwayApp { app in
            let a = app.global(300, 200), b = app.global(700, 200)
            try app.pointer.move(x: a.x, y: a.y)
            try app.pointer.button(down: true)
            for step in 1...8 { try app.pointer.move(x: a.x + (b.x - a.x) * Double(step) / 8, y: a.y) }
            try app.pointer.button(down: false)
            try app.session.waitForScreen("the line") { shot in shot.pixel(x: app.global(500, 200).x, y: a.y) == .black }
            // Down three notches and right two: the line moves up and left by what they scroll.
            let centre = app.global(500, 400)
            try app.pointer.move(x: centre.x, y: centre.y)
            try app.pointer.wheel(3)
            try app.pointer.wheel(2, horizontal: true)
            // The line's row in the column a third along it, and its left end on that row.
            func place(_ shot: Screenshot) -> (row: Int, left: Int)? {
                let column = app.global(350, 0).x
                guard let row = (0..<Int(a.y)).first(where: { shot.pixel(x: column, y: Double($0)) == .black }),
                      let left = (0..<Int(b.x)).first(where: { shot.pixel(x: Double($0), y: Double(row) + 2) == .black }) else { return nil }
                return (row, left)
            }
            let moved = try app.session.waitForScreen("the line moved up and left, at the same zoom") { shot in
                guard shot.pixel(x: app.global(500, 200).x, y: a.y) == .white, let place = place(shot) else { return false }
                return Double(place.left) < a.x - 10
            }
            #expect(place(moved).map { Double($0.row) < a.y - 20 } == true)

            // The zoom control's -, over the canvas's bottom right corner: 80 %.
            let content = app.window.content
            let canvasBottom = content.height - ToolbarView.height
            let button = AppLayout.zoomButton(in: false, width: content.width, height: content.height)
            let minus = app.global(button.x, button.y)
            // Aside while the line was drawn, back once the strokes have rested: its - inked.
            try app.session.waitForScreen("the zoom control back after the stroke") { shot in
                shot.pixel(x: minus.x, y: minus.y).map { $0 != .white } ?? false
            }
            try app.pointer.move(x: minus.x, y: minus.y)
            try app.pointer.button(down: true)
            try app.pointer.button(down: false)
            try app.session.waitForScreen("the line 8 pixels thick at 80 %") { shot in
                // The line's black rows in the columns across the canvas, where it crosses them.
                let columns = stride(from: 0.0, to: content.width, by: 16).map { app.global($0, 0).x }
                let counts = columns.map { x in (0..<Int(canvasBottom)).filter { shot.pixel(x: x, y: app.global(0, Double($0)).y) == .black }.count }
                return counts.max() == 8
            }
        }
    }
}
