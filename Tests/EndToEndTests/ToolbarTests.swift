// The draw board under Weston: the toolbar's controls and the palette by touch (A8), and
// the three-finger swipe (a challenge of the book), checked on screenshots.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchTrackerKit

@Suite("Toolbar and palette under Weston", .serialized)
struct ToolbarTests {
    /// The palette's swatch `index`, laid out as the app lays it out.
    func swatchCentre(_ index: Int, in app: AppUnderTest) -> (Double, Double) {
        AppLayout.swatch(index, width: app.window.width, height: app.window.height)
    }

    /// Toolbar button `index` in the wide bar's order (new, undo, redo, line, free, circle, angle,
    /// speed, fingers, colours).
    func buttonCentre(_ index: Int, in app: AppUnderTest) -> (Double, Double) {
        AppLayout.button(ToolbarView.Item.allCases[index], width: app.window.width, height: app.window.height)
    }

    @Test("A8: Colours shows the palette; a swatch sets the pen colour; Undo takes the line back")
    func paletteAndUndo() {
        withApp { app in
            let colours = buttonCentre(9, in: app)
            try app.tap(10, colours.0, colours.1)
            // The palette: eight swatches centred above the toolbar; the sixth is blue.
            let sixth = swatchCentre(5, in: app)
            try app.expectScreen("the palette's blue swatch") { pixel in
                pixel(sixth.0, sixth.1) == Pixel(red: 0x35, green: 0x84, blue: 0xE4)
            }
            try app.tap(11, sixth.0, sixth.1)
            try app.drawLine(0, from: (100, 200), to: (500, 200))
            try app.expectScreen("a blue line, the palette gone") { pixel in
                pixel(300, 200) == Pixel(red: 0x35, green: 0x84, blue: 0xE4) && pixel(sixth.0, sixth.1) == .white
            }
            let undo = buttonCentre(1, in: app)
            try app.tap(12, undo.0, undo.1)
            try app.expectScreen("the line undone") { pixel in pixel(300, 200) == .white }
        }
    }

    @Test("A8: the tool, the toggles and the pen colour survive a restart; a broken preferences file only costs its settings")
    func preferencesSurviveRestart() {
        withApp(arguments: []) { app in
            let line = buttonCentre(3, in: app), free = buttonCentre(4, in: app), angle = buttonCentre(6, in: app)
            // A button's face, left of its label.
            func face(_ b: (Double, Double)) -> (Double, Double) { (b.0 - 36, b.1) }
            let on = try app.session.screenshot().pixel(x: app.window.x + face(line).0, y: app.window.y + face(line).1)
            try app.tap(10, free.0, free.1)
            try app.tap(11, angle.0, angle.1)
            let colours = buttonCentre(9, in: app)
            try app.tap(12, colours.0, colours.1)
            let blue = swatchCentre(5, in: app)
            try app.tap(13, blue.0, blue.1)
            try app.expectScreen("Free and Angle on, Line off") { pixel in
                pixel(face(free).0, face(free).1) == on && pixel(face(angle).0, face(angle).1) == on
                    && pixel(face(line).0, face(line).1) != on
            }
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)

            // The same user starts the app again.
            let again = try app.session.launch(try HarnessPaths.executable("touchtracker"), [], name: "touchtracker-again")
            _ = try app.session.waitForWindow(appID: AppUnderTest.appID, process: again)
            try app.expectScreen("Free and Angle still on, Line off") { pixel in
                pixel(face(free).0, face(free).1) == on && pixel(face(angle).0, face(angle).1) == on
                    && pixel(face(line).0, face(line).1) != on
            }
            // Angle colours lines by their direction; off again, the pen is the blue picked before.
            try app.tap(14, angle.0, angle.1)
            try app.drawLine(0, from: (100, 200), to: (500, 200))
            try app.expectScreen("a blue line") { pixel in pixel(300, 200) == Pixel(red: 0x35, green: 0x84, blue: 0xE4) }
            again.signal(SIGTERM)
            #expect(again.waitForExit(timeout: 10) == 0)

            // A file broken by hand: the app starts with the defaults and says what it skipped.
            let file = app.session.runtimeDirectory + "/config/touchtracker/preferences"
            try "tool = crayon\nfingers-draw = maybe\nthis is not a setting\n".write(toFile: file, atomically: true, encoding: .utf8)
            let third = try app.session.launch(try HarnessPaths.executable("touchtracker"), [], name: "touchtracker-third")
            _ = try app.session.waitForWindow(appID: AppUnderTest.appID, process: third)
            try app.expectScreen("the defaults: Line on, Free and Angle off", timeout: 10) { pixel in
                pixel(face(line).0, face(line).1) == on && pixel(face(free).0, face(free).1) != on
                    && pixel(face(angle).0, face(angle).1) != on
            }
            #expect(third.isRunning)
            let log = third.standardError
            #expect(log.contains("unknown tool 'crayon'") && log.contains("fingers-draw is true or false") && log.contains("is not 'name = value'"), "\(log)")
            third.signal(SIGTERM)
            _ = third.waitForExit(timeout: 10)
        }
    }

    @Test("A8: the Free tool draws the finger's path, not a straight line")
    func freehandTool() {
        withApp { app in
            let free = buttonCentre(4, in: app)
            try app.tap(10, free.0, free.1)
            try app.down(0, 100, 300)
            try app.frame()
            // Up, then right, then down: a straight line would pass through (250, 300).
            let path: [(Double, Double)] = [(100, 250), (100, 150), (250, 150), (400, 150), (400, 250), (400, 300)]
            for p in path {
                try app.move(0, p.0, p.1)
                try app.frame()
            }
            try app.up(0)
            try app.frame()
            try app.expectScreen("the path's corner drawn, the chord empty") { pixel in
                pixel(100, 200) == .black && pixel(250, 150) == .black && pixel(250, 300) == .white
            }
        }
    }

    @Test("Book challenge: a three-finger swipe up shows the palette and leaves no lines")
    func threeFingerSwipe() {
        withApp { app in
            for id in 0..<3 { try app.down(id, 300 + Double(id) * 100, 500) }
            try app.frame()
            for step in 1...8 {
                for id in 0..<3 { try app.move(id, 300 + Double(id) * 100, 500 - Double(step) * 25) }
                try app.frame()
                usleep(16_000)
            }
            for id in 0..<3 { try app.up(id) }
            try app.frame()
            let first = swatchCentre(0, in: app)
            try app.expectScreen("the palette, and no lines") { pixel in
                pixel(first.0, first.1) == .black  // the first, black swatch
                    && pixel(300, 400) == .white && pixel(400, 400) == .white && pixel(500, 400) == .white
            }
        }
    }

    @Test("Book challenge: with the Circle tool two fingers span a circle's box")
    func circleTool() {
        withApp { app in
            let circle = buttonCentre(5, in: app)
            try app.tap(10, circle.0, circle.1)
            try app.down(0, 300, 150)
            try app.down(1, 600, 450)
            try app.frame()
            try app.move(1, 700, 550)
            try app.frame()
            try app.up(0)
            try app.up(1)
            try app.frame()
            // The ellipse in (300,150)-(700,550): a circle of radius 200 around (500,350).
            try app.expectScreen("the circle") { pixel in
                pixel(300, 350) == .black && pixel(500, 150) == .black && pixel(700, 350) == .black
                    && pixel(500, 350) == .white
            }
        }
    }

    @Test("Mysterious lines: drawing while the menu is visible neither drags the selected line nor loses the new one")
    func mysteriousLines() {
        withApp { app in
            try app.drawLine(0, from: (200, 200), to: (600, 200))
            try app.tap(1, 400, 205)
            _ = try app.waitForPopup()
            try app.drawLine(2, from: (200, 500), to: (600, 450))
            try app.expectScreen("the selected line where it was, the new line drawn") { pixel in
                pixel(300, 200) != .white && pixel(400, 475) == .black
            }
        }
    }
}
