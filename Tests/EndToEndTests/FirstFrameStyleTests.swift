// An app started while the desktop is already dark is dark from its first frame: no white window
// flashes before the portal's answer arrives. Under a real headless GNOME Shell whose portal is
// not yet running when the app starts (the session's bus starts it for the app's first question,
// as on a desktop just logged into), so the answer takes as long as it does there.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("The desktop's style from the first frame under GNOME Shell", .serialized, .gnomeSession)
struct FirstFrameStyleTests {
    @Test("A11: started while the desktop is dark, every screenshot from launch shows the window dark, none light, the title bar included")
    func darkFromTheFirstFrame() throws {
        let session = try #require(GnomeSessionTrait.current)
        defer {
            do {
                try session.reset()
            } catch {
                session.keepFiles = true
                Issue.record("the GNOME session could not be reset: \(error)\n\(session.diagnostics)")
            }
        }
        do {
            try session.setSetting("org.gnome.desktop.interface", "color-scheme", "'prefer-dark'")
            // The middle of the screen, where mutter centres the new window: its canvas.
            let middle = (x: Double(session.options.width) / 2, y: Double(session.options.height) / 2)
            let desktop = try #require(try session.screenshot().pixel(x: middle.x, y: middle.y))
            let app = try session.launch(try HarnessPaths.executable("touchtracker"), ["--verbose"], name: "touchtracker")
            // Screenshots as fast as the shell gives them, from launch until the window has been
            // dark for a second. A window that appears light (white, or fading in from white)
            // shows a red channel far above the dark canvas's.
            var shots: [Screenshot] = []
            var darkSince: Date?
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, darkSince.map({ Date().timeIntervalSince($0) < 1 }) ?? true {
                let shot = try session.screenshot()
                guard let pixel = shot.pixel(x: middle.x, y: middle.y), pixel != desktop else { continue }
                shots.append(shot)
                if pixel.red > GnomeStyleTests.darkPaper.red + 0x10 {
                    Issue.record("the window's first frames dark, not \(pixel), in \(shot.path)")
                    keepScreenshot(shot, "gnome-first-frame-light.png")
                }
                if pixel == GnomeStyleTests.darkPaper, darkSince == nil { darkSince = Date() }
            }
            let first = try #require(shots.first, "the window never appeared")
            keepScreenshot(first, "gnome-dark-first-frame.png")
            #expect(darkSince != nil, "the window dark within 20 s")
            // The title bar too, in every shot where the window has its place.
            let window = try session.waitForWindow(appID: GnomeAppUnderTest.appID, popup: false, process: app)
            for shot in shots {
                guard let bar = shot.pixel(x: window.x + 60, y: window.y + 10), bar != desktop,
                      bar.red > GnomeStyleTests.darkBar.red + 0x10 else { continue }
                Issue.record("the title bar dark, not \(bar), in \(shot.path)")
                keepScreenshot(shot, "gnome-first-frame-light-bar.png")
            }
            #expect(app.standardError.contains("style: dark"))
        } catch {
            session.keepFiles = true
            Issue.record("\(error)\n\(session.diagnostics)")
        }
    }
}
