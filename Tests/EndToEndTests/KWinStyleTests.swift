// The desktop's style under KWin: Plasma's colour scheme switched to Breeze Dark while the app
// runs reaches it through the real xdg-desktop-portal and its KDE backend, and the window turns dark
// within a second; back to Breeze, light again.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KWinHarness
import Testing
import CompositorHarness

@Suite("The desktop's style under KWin", .serialized, .kwinSession)
struct KWinStyleTests {
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
}
