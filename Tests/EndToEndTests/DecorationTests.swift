// Client-side decorations where the compositor offers no xdg-decoration (Weston, GNOME): a title
// bar drawn by the app, whose buttons and drag work by touch and pointer. Hidden in fullscreen.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchTrackerKit
import WaylandHost

@Suite("Client-side decorations under Weston desktop-shell", .serialized)
struct DecorationTests {
    static let titleBarHeight = TitleBarLayout.height

    /// The app in a 600x400 window on desktop-shell (no panel).
    func withDecoratedApp(_ body: (AppUnderTest, WindowInfo) throws -> Void) {
        withApp(arguments: [], options: .desktop()) { app in
            try app.session.resize(appID: AppUnderTest.appID, width: 600, height: 400)
            let window = try waitForWindow(app) { $0.width == 600 && $0.height == 400 }
            try app.session.waitForScreen("the title bar") { shot in
                // Title bar grey above, white canvas below.
                shot.pixel(x: window.x + 60, y: window.y + 10) == Pixel(red: 0xEB, green: 0xEB, blue: 0xEB)
                    && shot.pixel(x: window.x + 60, y: window.y + Self.titleBarHeight + 10) == .white
            }
            try body(app, window)
        }
    }

    func waitForWindow(_ app: AppUnderTest, timeout: Double = 5, _ condition: (WindowInfo) -> Bool) throws -> WindowInfo {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let window = try app.session.windows().first(where: { $0.appID == AppUnderTest.appID }), condition(window) {
                return window
            }
            usleep(20_000)
        }
        throw HarnessError("window never reached the expected state: \(try app.session.windows())")
    }

    /// The window once it meets `condition` and has kept the same place and size for 300 ms: a
    /// loaded machine's app may trail the pointer of a resize, and pass through sizes that also
    /// meet the condition before it reaches the last one.
    func waitForSettledWindow(_ app: AppUnderTest, timeout: Double = 5, _ condition: (WindowInfo) -> Bool) throws -> WindowInfo {
        let deadline = Date().addingTimeInterval(timeout)
        var candidate: (window: WindowInfo, since: Date)?
        while Date() < deadline {
            let window = try app.session.windows().first(where: { $0.appID == AppUnderTest.appID })
            if let window, condition(window) {
                if let seen = candidate, seen.window.x == window.x, seen.window.y == window.y,
                   seen.window.width == window.width, seen.window.height == window.height {
                    if Date().timeIntervalSince(seen.since) >= 0.3 { return window }
                } else {
                    candidate = (window, Date())
                }
            } else {
                candidate = nil
            }
            usleep(20_000)
        }
        throw HarnessError("window never settled in the expected state: \(try app.session.windows())")
    }

    @Test("The title bar shows when the compositor leaves decorations to the client; drawing happens below it")
    func titleBarShownAndCanvasBelow() {
        withDecoratedApp { app, window in
            // A touch on the canvas lands in the canvas's own coordinates, below the bar.
            try app.session.touchDown(0, x: window.x + 100, y: window.y + 150)
            try app.session.touchFrame()
            try app.session.touchMotion(0, x: window.x + 300, y: window.y + 150)
            try app.session.touchFrame()
            try app.session.touchUp(0)
            try app.session.touchFrame()
            try app.session.waitForScreen("the line under the finger") { shot in
                shot.pixel(x: window.x + 200, y: window.y + 150) == .black
            }
            // A touch on the title bar draws nothing.
            try app.session.touchDown(1, x: window.x + 150, y: window.y + 20)
            try app.session.touchFrame()
            try app.session.touchUp(1)
            try app.session.touchFrame()
            let shot = try app.session.screenshot()
            #expect(shot.pixel(x: window.x + 150, y: window.y + 20) != .black)
        }
    }

    @Test("Tapping the close button ends the app with exit status 0")
    func closeButtonByTouch() {
        withDecoratedApp { app, window in
            let close = (x: window.x + TitleBarLayout.buttonCentres(width: window.width)[0].x, y: window.y + Self.titleBarHeight / 2)
            try app.session.touchDown(0, x: close.x, y: close.y)
            try app.session.touchFrame()
            try app.session.touchUp(0)
            try app.session.touchFrame()
            #expect(app.app.waitForExit(timeout: 5) == 0)
        }
    }

    @Test("Clicking maximize fills the output; clicking it again restores the size")
    func maximizeByPointer() {
        withDecoratedApp { app, window in
            let maximize = (x: window.x + TitleBarLayout.buttonCentres(width: window.width)[1].x, y: window.y + Self.titleBarHeight / 2)
            try app.session.pointerMotion(x: maximize.x, y: maximize.y)
            try app.session.pointerButton(down: true)
            try app.session.pointerButton(down: false)
            let maximized = try waitForWindow(app) { $0.width == 1024 && $0.height == 768 }
            #expect(maximized.x == 0 && maximized.y == 0)
            let again = (x: TitleBarLayout.buttonCentres(width: maximized.width)[1].x, y: Self.titleBarHeight / 2)
            try app.session.pointerMotion(x: again.x, y: again.y)
            try app.session.pointerButton(down: true)
            try app.session.pointerButton(down: false)
            _ = try waitForWindow(app) { $0.width == 600 && $0.height == 400 }
        }
    }

    @Test("Dragging the title bar by touch moves the window")
    func dragMovesWindow() {
        withDecoratedApp { app, window in
            let start = (x: window.x + 150, y: window.y + 18)
            try app.session.touchDown(0, x: start.x, y: start.y)
            try app.session.touchFrame()
            // The compositor's move grab starts when it reads the app's xdg_toplevel.move: a
            // person's finger rests that long before it moves.
            usleep(300_000)
            for step in 1...10 {
                try app.session.touchMotion(0, x: start.x + Double(step) * 20, y: start.y + Double(step) * 15)
                try app.session.touchFrame()
                usleep(10_000)
            }
            try app.session.touchUp(0)
            try app.session.touchFrame()
            // The window follows the finger: it ends where the finger moved it (a loaded machine may
            // start the compositor's grab one 20x15 step late, never more).
            _ = try waitForWindow(app) {
                (178...202).contains($0.x - window.x) && (133...152).contains($0.y - window.y)
            }
        }
    }

    @Test("The cursor comes from the theme: a crosshair over the canvas, the arrow over the title bar and the toolbar, between its buttons too")
    func cursorShapes() {
        withDecoratedApp { app, window in
            func dark(_ shot: Screenshot, _ x: Double, _ y: Double) -> Bool {
                guard let p = shot.pixel(x: x, y: y) else { return false }
                return Int(p.red) + Int(p.green) + Int(p.blue) < 150
            }
            let canvas = (x: window.x + 300, y: window.y + 200)
            try app.session.pointerMotion(x: canvas.x, y: canvas.y)
            // A crosshair has arms on every side of its hotspot.
            try app.session.waitForScreen("a crosshair at the pointer") { shot in
                dark(shot, canvas.x - 6, canvas.y) && dark(shot, canvas.x + 6, canvas.y)
                    && dark(shot, canvas.x, canvas.y - 6) && dark(shot, canvas.x, canvas.y + 6)
            }
            let bar = (x: window.x + 150, y: window.y + 12)
            try app.session.pointerMotion(x: bar.x, y: bar.y)
            // The arrow's body lies below and right of its tip, nothing to the left.
            try app.session.waitForScreen("an arrow at the pointer") { shot in
                dark(shot, bar.x + 3, bar.y + 8) && !dark(shot, bar.x - 6, bar.y + 1)
            }
            // The toolbar's background between two of its buttons.
            let frames = ToolbarView.layout(width: window.width).values.sorted { $0.minX < $1.minX }
            let gap = try #require(zip(frames, frames.dropFirst()).first { $1.minX - $0.maxX >= 6 })
            let between = (x: window.x + (gap.0.maxX + gap.1.minX) / 2,
                           y: window.y + window.height - ToolbarView.height + gap.0.midY - 6)
            try app.session.pointerMotion(x: between.x, y: between.y)
            try app.session.waitForScreen("an arrow between the toolbar's buttons") { shot in
                dark(shot, between.x + 3, between.y + 8) && !dark(shot, between.x - 6, between.y + 1)
            }
        }
    }

    @Test("Dragging the window's right edge or bottom-right corner with the pointer resizes it; a touch there draws")
    func resizeByPointerAtTheBorder() {
        withDecoratedApp { app, window in
            let edge = (x: window.x + window.width - 2, y: window.y + 200)
            try app.session.pointerMotion(x: edge.x, y: edge.y)
            try app.session.pointerButton(down: true)
            // The app asks for the resize when the press reaches it; the compositor's grab follows
            // the pointer from then on (a loaded machine may start it a step or two late).
            usleep(100_000)
            for step in 1...10 { try app.session.pointerMotion(x: edge.x + Double(step * 10), y: edge.y + Double(step * 10)) }
            try app.session.pointerButton(down: false)
            // The right edge follows the pointer; the height stays.
            let wider = try waitForSettledWindow(app) { (670...705).contains($0.width) && $0.height == 400 }
            #expect(wider.x == window.x && wider.y == window.y)

            let corner = (x: wider.x + wider.width - 3, y: wider.y + wider.height - 3)
            try app.session.pointerMotion(x: corner.x, y: corner.y)
            try app.session.pointerButton(down: true)
            usleep(100_000)
            for step in 1...5 { try app.session.pointerMotion(x: corner.x - Double(step * 20), y: corner.y - Double(step * 10)) }
            try app.session.pointerButton(down: false)
            let smaller = try waitForSettledWindow(app) {
                (wider.width - 105...wider.width - 60).contains($0.width) && (345...375).contains($0.height)
            }

            // Touch is for drawing, up to the very edge: once the compositor shows the window at
            // its new size (and has ended the pointer's resize grab).
            let y = smaller.y + 200
            try app.session.waitForScreen("the window at its new size") { shot in
                shot.pixel(x: smaller.x + smaller.width - 3, y: y) == .white
                    && shot.pixel(x: smaller.x + smaller.width + 3, y: y) != .white
            }
            usleep(100_000)
            try app.session.touchDown(0, x: smaller.x + smaller.width - 2, y: y)
            try app.session.touchFrame()
            try app.session.touchMotion(0, x: smaller.x + smaller.width - 120, y: y)
            try app.session.touchFrame()
            try app.session.touchUp(0)
            try app.session.touchFrame()
            try app.session.waitForScreen("a line drawn from the edge") { shot in
                shot.pixel(x: smaller.x + smaller.width - 60, y: y) == .black
            }
            #expect(try app.session.windows().first { $0.appID == AppUnderTest.appID }?.width == smaller.width)
        }
    }

    @Test("No title bar in fullscreen (kiosk-shell)")
    func noTitleBarInFullscreen() {
        withApp(arguments: []) { app in
            let shot = try app.session.screenshot()
            #expect(shot.pixel(x: app.window.x + 60, y: app.window.y + 10) == .white)
        }
    }
}
