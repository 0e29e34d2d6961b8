// The app on a phone's screen: a real headless phoc 0.24 (Phosh's compositor) at 360x720 points,
// scale 2, in portrait, and 720x360 in landscape. phoc maximizes the window over the screen; every
// control must sit inside it and be a finger's size (44 pt), the palette must wrap, and the narrow
// toolbar's More menu (an xdg_popup) must open and work. Input is wlroots' virtual pointer, as
// under Sway; grim's screenshots are in pixels, twice the points. Each test runs in the light style
// and in the dark one (TOUCHTRACKER_STYLE: phoc has no portal here).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import SwayHarness
import TouchKit
import TouchTrackerKit
import WaylandHost

/// One app in one private phoc; points are the window's (it covers the output from 0,0).
final class PhocAppUnderTest {
    let session: PhocSession
    let pointer: SwayVirtualPointer
    let app: ChildProcess
    let window: PhocWindow
    let style: Appearance

    init(_ options: PhocSession.Options, style: Appearance = .light) throws {
        self.style = style
        session = try PhocSession(options)
        do {
            // The virtual pointer first: the seat has a pointer before the app binds it.
            pointer = try SwayVirtualPointer(session)
            try pointer.move(x: 1, y: 1)
            app = try session.launch(try HarnessPaths.executable("touchtracker"), ["--trace"], name: "touchtracker",
                                     environment: ["TOUCHTRACKER_STYLE": style.isDark ? "dark" : "light"])
            window = try session.waitForWindow(appID: AppUnderTest.appID, process: app)
            try session.waitForScreen("the canvas") { $0.pixel(x: self.pixel(20), y: self.pixel(20)) == Pixel(style.paper) }
        } catch {
            let diagnostics = session.diagnostics
            session.stop()
            throw HarnessError("\(error)\n\(diagnostics)")
        }
    }

    deinit { session.stop() }

    var scale: Double { Double(session.options.scale) }
    /// A point's first pixel in grim's screenshot.
    func pixel(_ points: Double) -> Double { points * scale }
    func pixelAt(_ shot: Screenshot, _ x: Double, _ y: Double) -> Pixel? { shot.pixel(x: pixel(x), y: pixel(y)) }

    /// The toolbar's controls as laid out at this width, in window points.
    var toolbar: [ToolbarView.Item: Rect] {
        let top = window.height - ToolbarView.height
        return ToolbarView.layout(width: window.width).mapValues { $0.offsetBy(dx: 0, dy: top) }
    }

    func click(_ x: Double, _ y: Double) throws {
        try pointer.move(x: x, y: y)
        try pointer.button(down: true)
        try pointer.button(down: false)
        usleep(150_000)
    }

    func click(_ rect: Rect) throws { try click(rect.midX, rect.midY) }

    /// Keeps a screenshot named for the style: `phone-portrait.png`, `phone-portrait-dark.png`.
    func keep(_ shot: Screenshot, _ name: String) { keepScreenshot(shot, name + (style.isDark ? "-dark" : "") + ".png") }

    /// Whether a line finished in the default black shows at `x`, `y`: black, or light on dark
    /// (not the red of a line in progress).
    func showsFinishedLine(_ shot: Screenshot, _ x: Double, _ y: Double) -> Bool {
        guard let ink = pixelAt(shot, x, y) else { return false }
        return style.isDark ? ink.green > 0xD0 : ink == .black
    }

    /// A finger's line in the default black, from `a` to `b`.
    func drag(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) throws {
        try pointer.move(x: a.x, y: a.y)
        try pointer.button(down: true)
        for step in 1...8 { try pointer.move(x: a.x + (b.x - a.x) * Double(step) / 8, y: a.y + (b.y - a.y) * Double(step) / 8) }
        try pointer.button(down: false)
    }
}

func withPhocApp(_ options: PhocSession.Options, dark: Bool = false, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: (PhocAppUnderTest) throws -> Void) {
    withFreshApp({ try PhocAppUnderTest(options, style: Appearance(scheme: dark ? .dark : .light)) }, session: \.session,
                 sourceLocation: sourceLocation, body)
}

/// The canvas in the app's style, and a black line across it shown black in the light style and
/// light in the dark one.
func checkCanvas(_ app: PhocAppUnderTest, _ shot: Screenshot, lineAt y: Double) throws {
    #expect(app.pixelAt(shot, app.window.width / 2, app.window.height / 2) == Pixel(app.style.paper), "the canvas in \(shot.path)")
    let ink = try #require(app.pixelAt(shot, app.window.width / 2, y))
    #expect(app.style.isDark ? ink.red > 0xD0 && ink.green > 0xD0 && ink.blue > 0xD0 : ink == .black,
            "the black line shows \(app.style.isDark ? "light" : "black"): \(ink) in \(shot.path)")
}

/// Every control inside the window, a finger's size, and drawn where it was laid out: its face
/// differs from the bar beside it.
func checkReach(_ app: PhocAppUnderTest, _ shot: Screenshot, _ controls: [String: Rect]) throws {
    let window = Rect(x: 0, y: 0, width: app.window.width, height: app.window.height)
    let bar = app.pixelAt(shot, 1, app.window.height - 2)
    for (name, frame) in controls {
        #expect(window.contains(frame.origin) && window.contains(Point(x: frame.maxX - 0.01, y: frame.maxY - 0.01)),
                "\(name) \(frame) inside the window \(window)")
        #expect(frame.width >= ToolbarView.minimumTarget && frame.height >= ToolbarView.minimumTarget, "\(name) \(frame) is 44 pt or more")
        let face = app.pixelAt(shot, frame.minX + 5, frame.midY)
        #expect(face != nil && face != bar, "\(name)'s face at \(frame) shows on screen, not the bar: \(String(describing: face)) in \(shot.path)")
    }
}

@Suite("TouchTracker on a phone under phoc", .serialized)
struct PhocTests {
    @Test("Portrait, 360x720 at scale 2: the narrow toolbar's seven controls and the palette's two rows inside the window, each 44 pt or more; the canvas and a black line in the style",
          arguments: [false, true])
    func portraitReach(dark: Bool) {
        withPhocApp(PhocSession.Options(), dark: dark) { app in
            #expect(app.window.width == 360 && app.window.height == 720)
            let toolbar = app.toolbar
            #expect(Set(toolbar.keys) == [.undo, .redo, .line, .freehand, .circle, .colours, .more])
            try app.drag(from: (40, 200), to: (320, 200))
            let shot = try app.session.waitForScreen("the line finished") { shot in app.showsFinishedLine(shot, 180, 200) }
            app.keep(shot, "phone-portrait")
            try checkReach(app, shot, Dictionary(uniqueKeysWithValues: toolbar.map { ("\($0.key)", $0.value) }))
            try checkCanvas(app, shot, lineAt: 200)

            try app.click(toolbar[.colours]!)
            let top = app.window.height - ToolbarView.height - PaletteView.height(forWidth: app.window.width)
            let swatches = PaletteView.swatchFrames(width: app.window.width).map { $0.offsetBy(dx: 0, dy: top) }
            #expect(Set(swatches.map(\.minY)).count == 2, "two rows: \(swatches)")
            let blue = swatches[5]
            let palette = try app.session.waitForScreen("the palette") { shot in
                app.pixelAt(shot, blue.midX, blue.midY) == Pixel(red: 0x35, green: 0x84, blue: 0xE4)
            }
            app.keep(palette, "phone-palette")
            try checkReach(app, palette, Dictionary(uniqueKeysWithValues: swatches.enumerated().map { ("swatch \($0.offset)", $0.element) }))
        }
    }

    @Test("Portrait: More opens the overflow menu as a popup inside the screen; its Angle turns colours by angle on",
          arguments: [false, true])
    func overflowMenu(dark: Bool) {
        withPhocApp(PhocSession.Options(), dark: dark) { app in
            try app.click(app.toolbar[.more]!)
            let titles = ["New", "Angle", "Speed", "✓ Fingers"]
            let items = WaylandHost.menuItemFrames(titles: titles)
            let width = items.last!.maxX
            // The menu's body, found on screen: its left edge on the row through its middle, the
            // first pixel there that is not the canvas. The zoom control (Fingers first, on a
            // phone) lies on that row too, 8 pt from the right: until the popup shows, it is all
            // there is, and a menu that fits starts left of it.
            let paper = Pixel(app.style.paper)
            let controlLeft = app.window.width - 8 - ZoomControlView.size(showingFingers: true).width
            var menuLeft: Double?
            let shot = try app.session.waitForScreen("the overflow menu") { shot in
                let row = app.window.height - ToolbarView.height - 30
                menuLeft = stride(from: 0.0, to: app.window.width, by: 0.5).first { x in
                    guard let p = app.pixelAt(shot, x, row) else { return false }
                    return !p.isClose(to: paper, tolerance: 8)
                }
                return (menuLeft ?? .infinity) < controlLeft - 1
            }
            app.keep(shot, "phone-overflow")
            let left = try #require(menuLeft)
            #expect(left >= 0 && left + width <= app.window.width + 1, "the menu (\(width) pt from \(left)) inside the screen")
            // Angle, the second item, on the menu's row (it sits above the More button).
            let angle = items[1]
            var menuTop = app.window.height - ToolbarView.height - 30
            while menuTop > 0, let p = app.pixelAt(shot, left + angle.midX, menuTop - 1), !p.isClose(to: paper, tolerance: 8) { menuTop -= 0.5 }
            try app.click(left + angle.midX, menuTop + angle.midY)
            // A line drawn right to left is cyan with colours by angle (black without).
            try app.drag(from: (300, 300), to: (60, 300))
            _ = try app.session.waitForScreen("a cyan line") { shot in
                app.pixelAt(shot, 180, 300) == Pixel(red: 0, green: 255, blue: 255)
            }
        }
    }

    @Test("Landscape, 720x360 at scale 2: the wide toolbar's ten controls inside the window, each 44 pt or more; the canvas and a black line in the style",
          arguments: [false, true])
    func landscapeReach(dark: Bool) {
        withPhocApp(PhocSession.Options(width: 720, height: 360), dark: dark) { app in
            #expect(app.window.width == 720 && app.window.height == 360)
            let toolbar = app.toolbar
            #expect(toolbar.count == 10 && toolbar[.more] == nil)
            try app.drag(from: (60, 100), to: (660, 100))
            let shot = try app.session.waitForScreen("the line finished") { shot in app.showsFinishedLine(shot, 360, 100) }
            app.keep(shot, "phone-landscape")
            try checkReach(app, shot, Dictionary(uniqueKeysWithValues: toolbar.map { ("\($0.key)", $0.value) }))
            try checkCanvas(app, shot, lineAt: 100)
        }
    }
}
