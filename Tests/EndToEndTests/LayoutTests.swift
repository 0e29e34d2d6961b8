// The layout from a phone to 4K under Weston (kiosk-shell gives the window the whole output):
// every toolbar control and swatch inside the window and a finger's size, drawn where the app laid
// it out, the edit menu of a line near the window's edge and New's banner inside the window. The
// phone and 4K in the dark style too (TOUCHTRACKER_STYLE, as Weston has no portal): the canvas
// dark, a black line light, every control's face distinct from the dark bar.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit
import WaylandHost

@Suite("Layout from a phone to 4K under Weston", .serialized)
struct LayoutTests {
    struct Screen: Sendable, CustomTestStringConvertible {
        var name: String
        var width: Int, height: Int, scale: Int
        var dark = false
        var testDescription: String { "\(name), \(width)x\(height) points at scale \(scale)\(dark ? ", dark" : "")" }
        var style: Appearance { Appearance(scheme: dark ? .dark : .light) }
    }

    @Test("Every control inside the window, 44 pt or more, on screen; the palette inside; the edit menu inside",
          arguments: [
              Screen(name: "phone", width: 360, height: 640, scale: 2),
              Screen(name: "tablet", width: 800, height: 1280, scale: 1),
              Screen(name: "laptop", width: 1366, height: 768, scale: 1),
              Screen(name: "4k", width: 1920, height: 1080, scale: 2),
              Screen(name: "phone-dark", width: 360, height: 640, scale: 2, dark: true),
              Screen(name: "4k-dark", width: 1920, height: 1080, scale: 2, dark: true),
          ])
    func reach(_ screen: Screen) {
        withApp(options: WestonSession.Options(width: screen.width, height: screen.height, scale: screen.scale),
                environment: ["TOUCHTRACKER_STYLE": screen.dark ? "dark" : "light"], paper: Pixel(screen.style.paper)) { app in
            let window = Rect(x: 0, y: 0, width: app.window.width, height: app.window.height)
            let scale = Double(screen.scale)
            func pixel(_ shot: Screenshot, _ x: Double, _ y: Double) -> Pixel? {
                shot.pixel(x: (app.window.x + x) * scale, y: (app.window.y + y) * scale)
            }
            func check(_ shot: Screenshot, _ controls: [(String, Rect)]) {
                let bar = pixel(shot, 1, window.height - 2)
                for (name, frame) in controls {
                    #expect(window.contains(frame), "\(name) \(frame) inside the window \(window)")
                    #expect(frame.width >= ToolbarView.minimumTarget && frame.height >= ToolbarView.minimumTarget, "\(name) \(frame)")
                    let face = pixel(shot, frame.minX + 5, frame.midY)
                    #expect(face != nil && face != bar, "\(name) at \(frame) on screen: \(String(describing: face)) in \(shot.path)")
                }
            }
            let top = window.height - ToolbarView.height
            let toolbar = ToolbarView.layout(width: window.width).map { ("\($0.key)", $0.value.offsetBy(dx: 0, dy: top)) }
            #expect(toolbar.count == (window.width < ToolbarView.narrowBelow ? 7 : 10))
            // A line in the default black, on the canvas's style: black on white, light on dark.
            let lineY = window.height / 4
            try app.drawLine(1, from: (40, lineY), to: (window.width - 40, lineY))
            let shot = try app.session.waitForScreen("the line finished") { shot in
                guard let ink = pixel(shot, window.width / 2, lineY) else { return false }
                return screen.dark ? ink.green > 0xD0 : ink == .black
            }
            keepScreenshot(shot, "layout-\(screen.name).png")
            check(shot, toolbar)
            #expect(pixel(shot, window.width / 2, window.height / 2) == Pixel(screen.style.paper), "the canvas in \(shot.path)")
            let ink = try #require(pixel(shot, window.width / 2, lineY))
            #expect(screen.dark ? ink.red > 0xD0 && ink.green > 0xD0 && ink.blue > 0xD0 : ink == .black,
                    "the black line shows \(screen.dark ? "light" : "black"): \(ink) in \(shot.path)")

            let colours = toolbar.first { $0.0 == "colours" }!.1
            try app.tap(10, colours.midX, colours.midY)
            let paletteTop = top - PaletteView.height(forWidth: window.width)
            let swatches = PaletteView.swatchFrames(width: window.width).enumerated().map {
                ("swatch \($0.offset)", $0.element.offsetBy(dx: 0, dy: paletteTop))
            }
            let blue = swatches[5].1
            let palette = try app.session.waitForScreen("the palette") { shot in
                pixel(shot, blue.midX, blue.midY) == Pixel(red: 0x35, green: 0x84, blue: 0xE4)
            }
            check(palette, swatches)
            keepScreenshot(palette, "layout-\(screen.name)-palette.png")
            try app.tap(11, colours.midX, colours.midY)

            // A short line by the right edge, tapped: its menu stays inside the window.
            let y = window.height / 3
            try app.drawLine(0, from: (window.width - 40, y), to: (window.width - 12, y))
            try app.tap(12, window.width - 26, y)
            let menu = try app.session.waitForPopup(of: app.app)
            let menuRect = Rect(x: menu.x - app.window.x, y: menu.y - app.window.y, width: menu.width, height: menu.height)
            #expect(window.contains(menuRect), "the edit menu \(menuRect) inside the window \(window)")
            keepScreenshot(try app.session.screenshot(), "layout-\(screen.name)-menu.png")

            // New (under More on a narrow bar): its banner across the canvas's top, in the style.
            try app.tap(13, window.width / 2, window.height / 2)
            if let new = toolbar.first(where: { $0.0 == "new" })?.1 {
                try app.tap(14, new.midX, new.midY)
            } else {
                let more = toolbar.first { $0.0 == "more" }!.1
                try app.tap(14, more.midX, more.midY)
                let popup = try app.session.waitForPopup(of: app.app)
                let item = WaylandHost.menuItemFrames(titles: ["New", "Angle", "Speed", "✓ Fingers"])[0]
                try app.tap(15, popup.x - app.window.x + item.midX, popup.y - app.window.y + item.midY)
            }
            // Its corner, left clear of the words, in the banner's colour; the words wrapped inside.
            let banner = try app.session.waitForScreen("the New banner") { shot in
                pixel(shot, 2, 2) == Pixel(screen.style.bannerInfo)
            }
            keepScreenshot(banner, "layout-\(screen.name)-banner.png")
        }
    }
}

/// Keeps a screenshot where `TT_SCREENSHOT_DIR` says (for a person to look at), as `name`.
func keepScreenshot(_ shot: Screenshot, _ name: String) {
    guard let folder = ProcessInfo.processInfo.environment["TT_SCREENSHOT_DIR"] else { return }
    try? FileManager.default.removeItem(atPath: folder + "/" + name)
    try? FileManager.default.copyItem(atPath: shot.path, toPath: folder + "/" + name)
}
