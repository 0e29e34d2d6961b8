// The app in a right-to-left language (LANGUAGE=he, po/he.po) under a real Weston: the controls
// run from the right, as GTK and Qt apps mirror theirs (A12). On a phone the narrow bar's More
// sits at the left and its menu reads from the right; the palette starts at the right. The app's
// own title bar (Weston's desktop-shell) has its buttons at the left, as GTK's have.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit
import WaylandHost

@Suite("Right to left under Weston", .serialized)
struct RightToLeftTests {
    @Test("A12: a phone in Hebrew, the narrow bar mirrored (More at the left), its controls inside and 44 pt; More's menu reads from the right, its third item from the right is Angle; black the palette's rightmost swatch")
    func phone() throws {
        let hebrew = try POFile("he.po").translations
        withApp(options: WestonSession.Options(width: 360, height: 640, scale: 2), environment: ["LANGUAGE": "he"]) { app in
            let width = app.window.width, height = app.window.height, scale = 2.0
            func pixel(_ shot: Screenshot, _ x: Double, _ y: Double) -> Pixel? {
                shot.pixel(x: (app.window.x + x) * scale, y: (app.window.y + y) * scale)
            }
            let top = height - ToolbarView.height
            let mirrored = ToolbarView.layout(width: width, direction: .rightToLeft).mapValues { $0.offsetBy(dx: 0, dy: top) }
            let leftToRight = ToolbarView.layout(width: width).mapValues { $0.offsetBy(dx: 0, dy: top) }
            let more = mirrored[.more]!, line = mirrored[.line]!
            #expect(more.maxX < width / 4 && mirrored[.undo]!.minX > width * 3 / 4, "More at the left, Undo at the right: \(mirrored)")
            // The tool that is on (Line) is filled with the accent where the mirrored bar puts
            // it, not where the left-to-right bar would.
            let accent = Pixel(red: 0x35, green: 0x84, blue: 0xE4)
            let shot = try app.session.waitForScreen("the mirrored bar") { shot in
                pixel(shot, line.minX + 6, line.minY + 6) == accent
            }
            keepScreenshot(shot, "rtl-phone.png")
            #expect(pixel(shot, leftToRight[.line]!.minX + 6, leftToRight[.line]!.minY + 6) != accent)
            let bar = pixel(shot, 1, height - 2)
            for (item, frame) in mirrored {
                #expect(frame.minX >= 0 && frame.maxX <= width && frame.width >= ToolbarView.minimumTarget, "\(item) \(frame)")
                #expect(pixel(shot, frame.minX + 5, frame.midY) != bar, "\(item)'s face at \(frame) in \(shot.path)")
            }

            // More: the menu of the words of po/he.po, New at the right.
            try app.tap(1, more.midX, more.midY)
            let popup = try app.session.waitForPopup(of: app.app)
            let titles = ["✓ " + hebrew["Fingers"]!, hebrew["Speed"]!, hebrew["Angle"]!, hebrew["New"]!]
            let items = WaylandHost.menuItemFrames(titles: titles)
            #expect(abs(popup.width - items.last!.maxX) <= 1, "the popup \(popup) is the menu of \(titles)")
            usleep(300_000)
            keepScreenshot(try app.session.screenshot(), "rtl-phone-more.png")
            let angle = items[2]
            try app.tap(2, popup.x - app.window.x + angle.midX, popup.y - app.window.y + angle.midY)
            // A line drawn right to left is cyan with colours by angle (black, shown black, without).
            let y = height / 3
            try app.drawLine(3, from: (width - 60, y), to: (60, y))
            _ = try app.session.waitForScreen("a cyan line: Angle was picked") { shot in
                pixel(shot, width / 2, y) == Pixel(red: 0, green: 255, blue: 255)
            }

            // The palette: black, the first colour, at the right of its first row.
            let colours = mirrored[.colours]!
            try app.tap(4, colours.midX, colours.midY)
            let paletteTop = top - PaletteView.height(forWidth: width)
            let swatches = PaletteView.swatchFrames(width: width, direction: .rightToLeft).map { $0.offsetBy(dx: 0, dy: paletteTop) }
            #expect(swatches[0].minX > swatches[1].minX, "black at the right: \(swatches)")
            let palette = try app.session.waitForScreen("the palette, black at the right") { shot in
                pixel(shot, swatches[0].midX, swatches[0].midY) == .black
                    && pixel(shot, swatches[5].midX, swatches[5].midY) == accent
            }
            keepScreenshot(palette, "rtl-phone-palette.png")
        }
    }

    @Test("A12: the app's own title bar in Hebrew has close, maximize and minimize at its left end; a tap on the leftmost closes the app")
    func titleBar() {
        withApp(arguments: [], options: .desktop(), environment: ["LANGUAGE": "he"]) { app in
            let window = app.window
            let centres = TitleBarLayout.buttonCentres(width: window.width, rightToLeft: true)
            #expect(centres.map(\.x) == TitleBarLayout.buttonCentres(width: window.width).map { window.width - $0.x })
            let close = (x: window.x + centres[0].x, y: window.y + centres[0].y)
            // The close button's round face (a shade of the bar) where the mirrored bar puts it;
            // the bar's own grey where the left-to-right bar would.
            let bar = Pixel(Appearance().barBackground), face = Pixel(Appearance().controlFill)
            let ltrClose = TitleBarLayout.buttonCentres(width: window.width)[0]
            let shot = try app.session.waitForScreen("the buttons at the left") { shot in
                shot.pixel(x: close.x - TitleBarLayout.face / 2 + 3, y: close.y) == face
                    && shot.pixel(x: window.x + ltrClose.x - TitleBarLayout.face / 2 + 3, y: window.y + ltrClose.y) == bar
            }
            keepScreenshot(shot, "rtl-title-bar.png")
            try app.session.touchDown(0, x: close.x, y: close.y)
            try app.session.touchFrame()
            try app.session.touchUp(0)
            try app.session.touchFrame()
            #expect(app.app.waitForExit(timeout: 5) == 0)
        }
    }
}
