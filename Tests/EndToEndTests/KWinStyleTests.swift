// The desktop's style under KWin: Plasma's colour scheme switched to Breeze Dark while the app
// runs reaches it through the real xdg-desktop-portal and its KDE backend, and the window turns dark
// within a second; back to Breeze, light again. The toolbar's icons are Plasma's: Breeze's.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KWinHarness
import Testing
import CompositorHarness
import TouchKit

@Suite("The desktop's style under KWin", .serialized, .kwinSession)
struct KWinStyleTests {
    /// The style the app takes in these Plasma sessions until a test changes it: light, with
    /// Breeze's icons (kdeglobals names no theme, and Plasma's default is Breeze).
    static let plasma = Appearance(iconTheme: "breeze")

    @Test("Breeze Dark turns the canvas and toolbar dark within a second; Breeze turns them light")
    func followsColorScheme() {
        withKWinApp(arguments: ["--trace", "--verbose"]) { app in
            let session = app.session
            let canvas = app.onCanvas(60, 60)
            let bar = (x: app.window.x + 4, y: app.window.y + app.window.height - 4)
            // The portal answers the app's first question before the scheme changes.
            try app.waitForLog("the portal's appearance", "no answer from the portal", timeout: 10)
            try session.setColorScheme(dark: true)
            let switched = Date()
            let dark = try session.waitForScreen(timeout: 1, "the window dark") { shot in
                shot.pixel(x: canvas.x, y: canvas.y) == GnomeStyleTests.darkPaper && shot.pixel(x: bar.x, y: bar.y) == GnomeStyleTests.darkBar
            }
            #expect(Date().timeIntervalSince(switched) < 1)
            keepScreenshot(dark, "kwin-dark.png")
            try session.setColorScheme(dark: false)
            _ = try session.waitForScreen(timeout: 1, "the window light again") { shot in
                shot.pixel(x: canvas.x, y: canvas.y) == .white
            }
        }
    }

    @Test("Plasma's icon theme: the toolbar's icons are Breeze's, pixel for pixel as drawn here from the Breeze theme, not Adwaita's")
    func breezeIcons() {
        withKWinApp(arguments: ["--verbose"]) { app in
            try app.waitForLog("the portal's appearance", "no answer from the portal", timeout: 10)
            try app.waitForLog("icons breeze", "the style with Breeze's icons")
            let (width, height) = (app.window.width, app.window.height)
            let breeze = expectedWindow(width: width, height: height, showsTitleBar: false, style: Self.plasma).image
            let adwaita = expectedWindow(width: width, height: height, showsTitleBar: false, style: Appearance(iconTheme: "Adwaita")).image
            // The two themes draw the toolbar's icons differently, so the comparison tells them apart.
            #expect(toolbarDifferences(breeze, adwaita) > 100)
            var last = (count: -1, example: "")
            var shot: Screenshot?
            let deadline = Date().addingTimeInterval(5)
            repeat {
                shot = try app.session.screenshot()
                last = toolbarDifferences(breeze, shot!, origin: (Int(app.window.x), Int(app.window.y)))
                if last.count == 0 { break }
                usleep(100_000)
            } while Date() < deadline
            keepScreenshot(shot!, "kwin-breeze-icons.png")
            #expect(last.count == 0, "\(last.count) toolbar pixels differ from Breeze's, e.g. \(last.example), in \(shot!.path)")
            #expect(toolbarDifferences(adwaita, shot!, origin: (Int(app.window.x), Int(app.window.y))).count > 100)
        }
    }
}
