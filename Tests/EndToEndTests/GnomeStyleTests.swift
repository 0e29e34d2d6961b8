// The desktop's style under a real headless GNOME Shell: the desktop switched to dark while the
// app runs (as GNOME's Settings does, through GSettings) reaches the app through the real
// xdg-desktop-portal and its GTK backend, and the whole window turns dark within a second; the
// line drawn black shows light on the dark canvas and is exported black; back to the default, the
// window is light again, its open edit menu drawn again in the light style. GNOME's high-contrast
// switch (Settings > Accessibility) reaches the app the same way and outlines the controls.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit

@Suite("The desktop's style under GNOME Shell", .serialized, .gnomeSession)
struct GnomeStyleTests {
    /// The dark style's parts (TouchKit's Appearance).
    static let darkPaper = Pixel(red: 0x1E, green: 0x1E, blue: 0x1E)
    static let darkBar = Pixel(red: 0x30, green: 0x30, blue: 0x30)

    @Test("color-scheme prefer-dark turns the title bar, canvas, toolbar and open menu dark within a second, a black line shows light and exports black; default turns it back")
    func followsDarkStyle() {
        withGnomeApp(arguments: ["--trace", "--verbose"]) { app in
            let session = app.session
            let a = app.onCanvas(200, 300), b = app.onCanvas(600, 300)
            try app.drawLine(0, from: a, to: b)
            let toolbarGap = app.inWindow(4, app.window.height - 26)
            let titleBar = app.inWindow(60, 10)

            try session.setSetting("org.gnome.desktop.interface", "color-scheme", "'prefer-dark'")
            let switched = Date()
            let dark = try session.waitForScreen(timeout: 1, "the window dark") { shot in
                shot.pixel(x: app.onCanvas(60, 60).x, y: app.onCanvas(60, 60).y) == Self.darkPaper
                    && shot.pixel(x: titleBar.x, y: titleBar.y) == Self.darkBar
                    && shot.pixel(x: toolbarGap.x, y: toolbarGap.y) == Self.darkBar
            }
            let seconds = Date().timeIntervalSince(switched)
            keepScreenshot(dark, "gnome-dark.png")
            #expect(seconds < 1, "dark after \(seconds) s")
            for (x, y) in samples(from: a, to: b) {
                let pixel = try #require(dark.pixel(x: x, y: y))
                #expect(pixel.red > 0xD0 && pixel.green > 0xD0 && pixel.blue > 0xD0, "the black line shows light: \(pixel) in \(dark.path)")
            }
            #expect(app.app.standardError.contains("style: dark"))

            // The export keeps the line black on white.
            let pictures = session.home + "/Pictures"
            try? FileManager.default.removeItem(atPath: pictures)
            try app.focusByClick()
            for (key, down) in [(29, true), (18, true), (18, false), (29, false)] { try session.key(key, down: down) }
            try app.waitForLog("exported \(pictures)/drawing.png", "no export")
            let exported = try Screenshot(contentsOf: pictures + "/drawing.png")
            #expect(exported.pixel(x: 400, y: 300) == .black, "exported black")
            #expect(exported.pixel(x: 400, y: 100) == .white, "on white")

            // The line's edit menu open while the style changes back: it is drawn again, in the light
            // style's dark grey instead of the dark style's lighter one.
            try session.touchDown(1, x: (a.x + b.x) / 2, y: a.y)
            try session.touchUp(1)
            let menu = try session.waitForWindow("the edit menu", timeout: 5, process: app.app) { $0.popup && $0.width > 0 }
            let menuBody = (x: menu.x + 4, y: menu.y + menu.height / 2)
            _ = try session.waitForScreen("the menu in the dark style") { ($0.pixel(x: menuBody.x, y: menuBody.y)?.red ?? 0) > 50 }
            try session.setSetting("org.gnome.desktop.interface", "color-scheme", "'default'")
            _ = try session.waitForScreen(timeout: 1, "the menu in the light style") { shot in
                (shot.pixel(x: menuBody.x, y: menuBody.y)?.red ?? 255) < 0x30
            }
            // A tap on empty canvas ends the selection.
            try session.touchDown(1, x: app.onCanvas(60, 500).x, y: app.onCanvas(60, 500).y)
            try session.touchUp(1)
            _ = try session.waitForScreen(timeout: 1, "the window light again") { shot in
                shot.pixel(x: app.onCanvas(60, 60).x, y: app.onCanvas(60, 60).y) == .white
                    && shot.pixel(x: titleBar.x, y: titleBar.y) == GnomeAppUnderTest.titleBarGrey
                    && showsLine(shot, a, b, is: .black)
            }
        }
    }

    @Test("GNOME's High Contrast switched on while the app runs outlines the toolbar's buttons within a second; off, they are flat again")
    func followsHighContrast() {
        withGnomeApp(arguments: ["--trace", "--verbose"]) { app in
            let session = app.session
            try app.waitForLog("the portal's appearance", "no answer from the portal", timeout: 10)
            let top = app.window.height - ToolbarView.height
            let free = ToolbarView.layout(width: app.window.width)[.freehand]!.offsetBy(dx: 0, dy: top)
            let edge = app.inWindow(free.midX, free.minY), inside = app.inWindow(free.minX + 6, free.minY + 6)
            let plain = Appearance(), high = Appearance(highContrast: true)
            #expect(high.separator != plain.controlFill && high.controlFill != plain.controlFill)
            try session.setSetting("org.gnome.desktop.a11y.interface", "high-contrast", "true")
            let switched = Date()
            let outlined = try session.waitForScreen(timeout: 1, "the buttons outlined") { shot in
                shot.pixel(x: edge.x, y: edge.y) == Pixel(high.separator) && shot.pixel(x: inside.x, y: inside.y) == Pixel(high.controlFill)
            }
            #expect(Date().timeIntervalSince(switched) < 1)
            keepScreenshot(outlined, "gnome-high-contrast.png")
            #expect(app.app.standardError.contains("style: light, high contrast"))
            try session.setSetting("org.gnome.desktop.a11y.interface", "high-contrast", "false")
            _ = try session.waitForScreen(timeout: 1, "the buttons flat again") { shot in
                shot.pixel(x: edge.x, y: edge.y) == Pixel(plain.controlFill)
            }
        }
    }
}
