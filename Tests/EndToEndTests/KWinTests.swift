// The real touchtracker under a real headless KWin 5.27 (KDE Plasma's compositor): touch through
// KDE's fake-input protocol on our generated bindings, screenshots from KWin's ScreenShot2 API,
// window geometry from a KWin script. KWin offers xdg-decoration and decorates with Breeze, as
// Plasma does, so the app draws no title bar; without a decoration plugin KWin declines and the
// app draws its own. Pointer and keys come through fake input too.
// KWin sends a real `wl_touch.cancel` when told to (GNOME Shell sends one when it takes a swipe).
//
// The suite shares one session (the `.kwinSession` trait starts it before the first test and
// stops it after the last); each test launches its own app and leaves the session clean
// (`KWinSession.reset()`), also when it fails.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KWinHarness
import Testing
import CompositorHarness
import Graphics
import TouchKit
import TouchTrackerKit
import WaylandHost

/// Starts one KWin session for the suite it is attached to and ends it, and every process it
/// started, after the suite's last test. A session that does not start fails the suite.
struct KWinSessionTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: KWinSession?
    var options = KWinSession.Options()

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let session = try KWinSession(options)
        defer {
            session.stop()
            session.removeFiles()
        }
        try await Self.$current.withValue(session) { try await function() }
    }
}

extension Trait where Self == KWinSessionTrait {
    /// One shared headless KWin for the suite's tests (`KWinSessionTrait.current`).
    static var kwinSession: Self { Self() }

    /// One shared headless KWin; `decorations: false` runs it without a decoration plugin.
    static func kwinSession(decorations: Bool) -> Self { Self(options: KWinSession.Options(decorations: decorations)) }
}

/// The app in the suite's KWin session; its window is placed (centred) by KWin.
final class KWinAppUnderTest: DesktopAppUnderTest {
    static let appID = "org.touchtracker.TouchTracker"

    let session: KWinSession
    let app: ChildProcess
    let window: KWinWindow

    /// Where the canvas starts below the top of the app's surface: 0 when KWin decorates the
    /// window, the height of the app's own title bar when it does not.
    let canvasTop: Double

    /// `scale`: the output's, which the screenshots' pixels are at (window geometry is logical).
    init(session: KWinSession, arguments: [String], environment: [String: String] = [:], scale: Double = 1,
         canvasTop: Double = 0) throws {
        self.session = session
        self.canvasTop = canvasTop
        app = try session.launch(try HarnessPaths.executable("touchtracker"), arguments, name: "touchtracker",
                                 environment: environment)
        let window = try session.waitForWindow(appID: Self.appID, process: app)
        self.window = window
        try session.waitForScreen("the white canvas") { shot in
            shot.pixel(x: (window.x + window.width / 2) * scale, y: (window.y + window.height / 2) * scale) == .white
                && shot.pixel(x: (window.x + 8) * scale, y: (window.y + canvasTop + 8) * scale) == .white
        }
    }

    /// A point of the canvas, in global coordinates.
    func onCanvas(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (window.x + x, window.y + canvasTop + y) }

    /// One finger draws a finished line.
    func drawLine(_ id: Int, from a: (x: Double, y: Double), to b: (x: Double, y: Double), steps: Int = 6) throws {
        try down(id, a)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            try move(id, (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
        }
        try up(id)
    }

    /// One finger draws a line across the canvas from `x0` to `x1` at height `y` (canvas
    /// points); returns its ends in global coordinates once the screen shows it black.
    func drawShownLine(y: Double, from x0: Double, to x1: Double) throws -> ((x: Double, y: Double), (x: Double, y: Double)) {
        let line = (onCanvas(x0, y), onCanvas(x1, y))
        try drawLine(0, from: line.0, to: line.1)
        try session.waitForScreen("the line drawn") { showsLine($0, line.0, line.1, is: .black) }
        return line
    }

    /// A tap: one finger down and up again where it landed.
    func tap(_ id: Int, _ p: (x: Double, y: Double)) throws {
        try down(id, p)
        usleep(50_000)
        try up(id)
    }

    func down(_ id: Int, _ p: (x: Double, y: Double)) throws { try session.touchDown(id, x: p.x, y: p.y) }
    func move(_ id: Int, _ p: (x: Double, y: Double)) throws { try session.touchMotion(id, x: p.x, y: p.y) }
    func up(_ id: Int) throws { try session.touchUp(id) }
    func key(_ code: Int, down: Bool) throws { try session.key(code, down: down) }
    func launchClient(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try session.launch(executable, arguments)
    }
    var runtimeDirectory: String { session.runtimeDirectory }

    /// The menu's dark background (94 % opaque) over the white canvas.
    static let menuColour = Pixel(red: 41, green: 41, blue: 44)

    /// The box of the popup menu's dark background in the 160 x 120 px above `tap`, if it shows:
    /// KWin 5.27's scripting does not list popups, so the screenshot finds it.
    static func menu(in shot: Screenshot, above tap: (x: Double, y: Double))
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in Int(tap.y) - 120..<Int(tap.y) {
            for x in Int(tap.x) - 160...Int(tap.x) + 160 where shot.pixel(x: x, y: y)?.isClose(to: menuColour, tolerance: 10) == true {
                box = box.map { (min($0.minX, x), min($0.minY, y), max($0.maxX, x), max($0.maxY, y)) } ?? (x, y, x, y)
            }
        }
        guard let box, box.maxX - box.minX > 20, box.maxY - box.minY > 10 else { return nil }
        return (Double(box.minX), Double(box.minY), Double(box.maxX + 1), Double(box.maxY + 1))
    }
}

/// Runs `body` with a fresh app in the suite's KWin session. An error fails the test with the
/// session's logs and keeps its files; either way the session is reset for the next test.
func withKWinApp(arguments: [String] = ["--trace"], environment: [String: String] = [:], canvasTop: Double = 0,
                 sourceLocation: SourceLocation = #_sourceLocation, _ body: (KWinAppUnderTest) throws -> Void) {
    guard let session = KWinSessionTrait.current else {
        Issue.record("no KWin session: the suite needs the .kwinSession trait", sourceLocation: sourceLocation)
        return
    }
    do {
        try body(try KWinAppUnderTest(session: session, arguments: arguments, environment: environment,
                                      canvasTop: canvasTop))
    } catch {
        session.keepFiles = true
        Issue.record("\(error)\n\(session.diagnostics)", sourceLocation: sourceLocation)
    }
    do {
        try session.reset()
    } catch {
        session.keepFiles = true
        Issue.record("the KWin session could not be reset for the next test: \(error)\n\(session.diagnostics)",
                     sourceLocation: sourceLocation)
    }
}

@Suite("TouchTracker under KWin", .serialized, .kwinSession)
struct KWinTests {
    @Test("A1 T2: two fingers draw two lines, red while down, black once lifted")
    func twoFingersDraw() {
        withKWinApp { app in
            let (starts, ends) = try app.twoFingersDown(steps: 8)
            try app.session.waitForScreen("two red lines") { shot in
                (0...1).allSatisfy { showsLine(shot, starts[$0], ends[$0], is: .red) }
            }
            try app.up(0)
            try app.session.waitForScreen("the first line black, the second still red") { shot in
                showsLine(shot, starts[0], ends[0], is: .black)
                    && showsLine(shot, starts[1], ends[1], is: .red)
            }
            try app.up(1)
            let shot = try app.session.waitForScreen("two black lines") { shot in
                (0...1).allSatisfy { showsLine(shot, starts[$0], ends[$0], is: .black) }
            }
            try ensure(shot, app.onCanvas(300, 450), is: .white, "the canvas between the lines")
            // Each finger is its own touch, located in canvas coordinates; KWin frames every
            // fake-input event, so the two downs came as two calls (T2).
            let log = app.app.standardError
            #expect(log.contains("x=150.0 y=100.0") && log.contains("x=400.0 y=100.0"), "\(log)")
            #expect(log.components(separatedBy: "touchesBegan").count - 1 == 2, "\(log)")
            #expect(log.components(separatedBy: "phase=ended").count - 1 >= 2, "\(log)")
        }
    }

    @Test("A4 A5 M2: a tap selects a line (green) and shows the Delete popup above the finger; tapping Delete removes the line")
    func tapLineThenDelete() {
        withKWinApp(arguments: ["--trace", "--verbose"]) { app in
            let a = app.onCanvas(200, 300), b = app.onCanvas(600, 300)
            let other = (app.onCanvas(200, 500), app.onCanvas(600, 500))
            try app.drawLine(0, from: a, to: b)
            try app.drawLine(1, from: other.0, to: other.1)
            try app.session.waitForScreen("two black lines") { shot in
                showsLine(shot, a, b, is: .black) && showsLine(shot, other.0, other.1, is: .black)
            }
            let near = app.onCanvas(400, 306)
            try app.tap(2, near)
            let shot = try app.session.waitForScreen("the selected line green and the menu above the tap") { shot in
                shot.pixel(x: a.x + 50, y: a.y) == .green && KWinAppUnderTest.menu(in: shot, above: near) != nil
            }
            let menu = KWinAppUnderTest.menu(in: shot, above: near)!
            #expect(menu.maxY <= near.y && menu.minY > near.y - 120, "the menu sits above the tap: \(menu) in \(shot.path)")
            #expect(abs((menu.minX + menu.maxX) / 2 - near.x) < 3, "centred on the tap: \(menu) in \(shot.path)")
            // Delete is the menu's first item (Copy follows it).
            try app.tap(3, (menu.minX + 24, (menu.minY + menu.maxY) / 2))
            try app.session.waitForScreen("the selected line and the menu gone, the other line kept") { shot in
                showsLine(shot, a, b, is: .white) && showsLine(shot, other.0, other.1, is: .black)
                    && KWinAppUnderTest.menu(in: shot, above: near) == nil
            }
            #expect(app.app.standardError.contains("menu: chose Delete"), "\(app.app.standardError)")
        }
    }

    @Test("A6: a long press picks a line up (green), a pan drags it under the finger, release drops it")
    func longPressAndDrag() {
        withKWinApp { app in
            let a = app.onCanvas(200, 200), b = app.onCanvas(400, 200)
            try app.drawLine(0, from: a, to: b)
            try app.session.waitForScreen("the line") { shot in showsLine(shot, a, b, is: .black) }
            try app.down(1, app.onCanvas(300, 200))
            usleep(800_000)  // longer than the 0.6 s press
            try app.session.waitForScreen("the picked line green") { shot in shot.pixel(x: a.x + 50, y: a.y) == .green }
            for step in 1...10 {
                try app.move(1, app.onCanvas(300 + Double(step) * 20, 200 + Double(step) * 20))
                usleep(16_000)
            }
            let moved = (app.onCanvas(400, 400), app.onCanvas(600, 400))
            try app.session.waitForScreen("the line moved with the finger, still green") { shot in
                showsLine(shot, moved.0, moved.1, is: .green) && showsLine(shot, a, b, is: .white)
            }
            try app.up(1)
            try app.session.waitForScreen("the line dropped, black, where the finger left it; no stray line") { shot in
                showsLine(shot, moved.0, moved.1, is: .black) && showsLine(shot, a, b, is: .white)
                    && shot.pixel(x: app.onCanvas(400, 300).x, y: app.onCanvas(400, 300).y) == .white
            }
        }
    }

    @Test("A3: a double tap clears every line, and its taps leave no dots")
    func doubleTapClears() {
        withKWinApp { app in
            let lines = [(app.onCanvas(100, 100), app.onCanvas(500, 100)), (app.onCanvas(100, 300), app.onCanvas(500, 300))]
            for (id, line) in lines.enumerated() { try app.drawLine(id, from: line.0, to: line.1) }
            try app.session.waitForScreen("two lines") { shot in
                lines.allSatisfy { showsLine(shot, $0.0, $0.1, is: .black) }
            }
            try app.tap(2, app.onCanvas(700, 500))
            usleep(100_000)
            try app.tap(3, app.onCanvas(701, 501))
            try app.session.waitForScreen("an empty canvas") { shot in
                lines.allSatisfy { showsLine(shot, $0.0, $0.1, is: .white) }
                    && shot.count(.white, inX: Int(app.onCanvas(690, 0).x)..<Int(app.onCanvas(712, 0).x),
                                  y: Int(app.onCanvas(0, 490).y)..<Int(app.onCanvas(0, 512).y), tolerance: 0) == 22 * 22
            }
        }
    }

    @Test("A13 T14 under Plasma: KWin's virtual session has no wp_presentation and stamps fake touches on another clock, yet a moving finger's line is guessed ahead, each guess timed by the window's frame callback")
    func predictionWithoutPresentation() {
        withKWinApp(arguments: ["--latency"]) { app in
            let start = app.onCanvas(100, 200)
            try app.down(0, start)
            for k in 1...40 {
                usleep(8_000)
                try app.move(0, (start.x + Double(k) * 8, start.y))
            }
            usleep(300_000)
            try app.up(0)
            let frames = { app.app.standardError.split(separator: "\n").filter { $0.contains("input→frame callback ") } }
            let deadline = Date().addingTimeInterval(5)
            while frames().count < 20, Date() < deadline { usleep(50_000) }
            let guessed = frames().filter { $0.contains(" tip (") }
            #expect(guessed.count >= 15, "\(guessed.count) of \(frames().count) frames timed by the frame callback carried a guess; the last: \(frames().last ?? "none")")
        }
    }

    @Test("A2 T9: KWin's own wl_touch.cancel in the middle of a two-finger stroke removes both lines in progress and keeps the finished one")
    func compositorCancel() {
        withKWinApp { app in
            let finished = (app.onCanvas(100, 600), app.onCanvas(900, 600))
            try app.drawLine(0, from: finished.0, to: finished.1)
            try app.session.waitForScreen("the finished line black") { shot in
                showsLine(shot, finished.0, finished.1, is: .black)
            }
            let (starts, ends) = try app.twoFingersDown(steps: 6)
            try app.session.waitForScreen("two red lines beside the black one") { shot in
                (0...1).allSatisfy { showsLine(shot, starts[$0], ends[$0], is: .red) }
                    && showsLine(shot, finished.0, finished.1, is: .black)
            }
            try app.session.touchCancel()
            try app.session.waitForScreen("the red lines gone, the black one kept") { shot in
                (0...1).allSatisfy { showsLine(shot, starts[$0], ends[$0], is: .white) }
                    && showsLine(shot, finished.0, finished.1, is: .black)
            }
            // The cancel came from the compositor and reached the canvas for both touches at once.
            try app.waitForTrace("touchesCancelled", count: 2)
            let log = app.app.standardError
            let cancelled = log.split(separator: "\n").filter { $0.contains("touchesCancelled") }
            #expect(cancelled.count == 2 && cancelled.allSatisfy { $0.contains("touches=2") }, "\(log)")
            #expect(!log.contains("touchesEnded touches=2"), "\(log)")
            // Touch still works after a cancel.
            let again = (app.onCanvas(700, 150), app.onCanvas(700, 450))
            try app.drawLine(5, from: again.0, to: again.1)
            try app.session.waitForScreen("a new black line") { shot in
                showsLine(shot, again.0, again.1, is: .black)
                    && showsLine(shot, finished.0, finished.1, is: .black)
            }
        }
    }
    @Test("Book challenge under Plasma: a three-finger swipe up shows the palette and leaves no lines (KWin leaves three fingers to the app, where GNOME Shell takes them)")
    func threeFingerSwipeShowsPalette() {
        withKWinApp { app in
            let starts = (0..<3).map { app.onCanvas(300 + Double($0) * 100, 500) }
            for (id, p) in starts.enumerated() { try app.down(id, p) }
            for step in 1...8 {
                for id in 0..<3 { try app.move(id, (starts[id].x, starts[id].y - Double(step) * 25)) }
                usleep(16_000)
            }
            for id in 0..<3 { try app.up(id) }
            // The palette's first swatch (black), centred above the toolbar, as under Weston.
            let first = AppLayout.swatch(0, width: app.window.width, height: app.window.height)
            let swatch = (x: app.window.x + first.0, y: app.window.y + first.1)
            try app.session.waitForScreen("the palette, and no lines") { shot in
                shot.pixel(x: swatch.x, y: swatch.y) == .black
                    && starts.allSatisfy { shot.pixel(x: $0.x, y: $0.y - 100) == .white }
            }
            #expect(!app.app.standardError.contains("touchesEnded"), "\(app.app.standardError)")
        }
    }

    @Test("Under Plasma KWin draws Breeze's title bar and the app none; a click on Breeze's close button ends the app with exit status 0, its line saved")
    func breezeDecorations() {
        withKWinApp(arguments: ["--verbose"]) { app in
            let window = app.window
            // Breeze's title bar above the app's surface, none below or beside it.
            #expect(window.y - window.frame.y >= 20 && window.frame.x == window.x && window.frame.width == window.width,
                    "\(window)")
            let line = (app.onCanvas(100, 200), app.onCanvas(500, 200))
            try app.drawLine(0, from: line.0, to: line.1)
            let shot = try app.session.waitForScreen("the line drawn") { shot in
                showsLine(shot, line.0, line.1, is: .black)
            }
            // The app's first rows are canvas, not its own title bar; KWin's bar is there instead.
            try ensure(shot, app.onCanvas(300, 3), is: .white, "the canvas's top row")
            let bar = shot.pixel(x: window.x + window.width / 2 - 150, y: (window.frame.y + window.y) / 2)
            #expect(bar != .white && bar != Pixel(red: 0xEB, green: 0xEB, blue: 0xEB), "\(String(describing: bar)) in \(shot.path)")
            #expect(app.app.standardError.contains("decorations: the compositor's"), "\(app.app.standardError)")

            // Breeze's close button: the last one, at the bar's right end.
            let close = (x: window.frame.x + window.frame.width - 18, y: (window.frame.y + window.y) / 2)
            try app.session.pointerMotion(x: close.x, y: close.y)
            try app.session.pointerButton(down: true)
            try app.session.pointerButton(down: false)
            #expect(app.app.waitForExit(timeout: 5) == 0, "\(app.app.standardError)")
            let saved = try SavedStroke.read(app.session.home + "/.local/share/touchtracker/drawing.json")
            #expect(saved.count == 1, "\(saved)")
        }
    }

    @Test("Keys under KWin: Ctrl+Z undoes the last line and Ctrl+Shift+Z brings it back")
    func keysUndoRedo() {
        withKWinApp(arguments: ["--verbose"]) { app in
            let line = try app.drawShownLine(y: 300, from: 100, to: 600)
            let (ctrl, shift, z) = (29, 42, 44)
            try app.press(z, with: [ctrl])
            try app.session.waitForScreen("the line undone") { showsLine($0, line.0, line.1, is: .white) }
            try app.press(z, with: [ctrl, shift])
            try app.session.waitForScreen("the line redone") { showsLine($0, line.0, line.1, is: .black) }
        }
    }

    @Test("P2 P3 under Plasma: Ctrl+C puts the drawing on KWin's clipboard, read back by a second client as the app's own type and a PNG; what that client then offers, Ctrl+V pastes")
    func copyAndPaste() {
        withKWinApp(arguments: ["--verbose"]) { app in
            let line = try app.drawShownLine(y: 300, from: 200, to: 600)
            let (ctrl, c, v, z) = (29, 46, 47, 44)
            try app.press(c, with: [ctrl])
            try app.waitForLog("clipboard: offering", "Ctrl+C took no selection")
            let drawing = try app.readClipboard("application/vnd.touchtracker.drawing+json")
            let copiedPath = app.session.runtimeDirectory + "/copied.json"
            try drawing.write(to: URL(fileURLWithPath: copiedPath))
            #expect(try SavedStroke.read(copiedPath).map(\.points) == [[[200, 300], [600, 300]]])
            let pngPath = app.session.runtimeDirectory + "/copied.png"
            try app.readClipboard("image/png").write(to: URL(fileURLWithPath: pngPath))
            let picture = try Screenshot(contentsOf: pngPath)
            #expect(picture.width == 430 && picture.height == 30, "\(picture.width)x\(picture.height)")
            #expect(picture.pixel(x: picture.width / 2, y: picture.height / 2) == .black)

            // The line undone, the probe offers the copied drawing; once it unmaps its window KWin
            // focuses the app again, which pastes the line back where it was.
            try app.press(z, with: [ctrl])
            try app.session.waitForScreen("the line undone") { showsLine($0, line.0, line.1, is: .white) }
            let offer = try app.session.launch(try HarnessPaths.executable("tt-clipboard-probe"),
                                               ["offer", "application/vnd.touchtracker.drawing+json",
                                                String(decoding: drawing, as: UTF8.self)])
            defer { offer.stop() }
            try app.waitForLog("the selection offers application/vnd.touchtracker.drawing+json", "the app never saw the offer")
            try app.press(v, with: [ctrl])
            try app.session.waitForScreen("the line pasted back") { showsLine($0, line.0, line.1, is: .black) }
        }
    }
}

@Suite("TouchTracker under KWin without a decoration plugin", .serialized, .kwinSession(decorations: false))
struct KWinClientDecorationTests {
    @Test("Where KWin declines to decorate (no decoration plugin), the app draws its own title bar; dragging it by touch moves the window, its close button ends the app")
    func ownTitleBar() {
        withKWinApp(arguments: ["--verbose"], canvasTop: DecorationTests.titleBarHeight) { app in
            let window = app.window
            #expect(window.frame.y == window.y && window.frame.height == window.height, "\(window)")
            let shot = try app.session.screenshot()
            let grey = Pixel(red: 0xEB, green: 0xEB, blue: 0xEB)
            #expect(shot.pixel(x: window.x + 60, y: window.y + 10) == grey, "\(shot.path)")
            #expect(app.app.standardError.contains("decorations: our own"), "\(app.app.standardError)")

            // A touch drag on the title bar moves the window with the finger (KWin's move grab
            // starts once it has read the app's xdg_toplevel.move).
            let start = (x: window.x + 150, y: window.y + 18)
            try app.down(0, start)
            usleep(300_000)
            for step in 1...10 {
                try app.move(0, (start.x + Double(step) * 10, start.y + Double(step) * 8))
                usleep(10_000)
            }
            try app.up(0)
            let moved = try app.session.waitForWindow(appID: KWinAppUnderTest.appID, process: app.app, where: {
                $0.x - window.x >= 80 && $0.y - window.y >= 64
            })
            #expect(moved.x - window.x <= 100 && moved.y - window.y <= 80, "\(moved)")

            let close = (x: moved.x + TitleBarLayout.buttonCentres(width: moved.width)[0].x, y: moved.y + DecorationTests.titleBarHeight / 2)
            try app.tap(0, close)
            #expect(app.app.waitForExit(timeout: 5) == 0, "\(app.app.standardError)")
        }
    }
}

extension KWinFractionalScaleTests {
    @Test("The display's scale changes while the app runs (1 to 1.5, 2, 1.25 and back to 1): the app follows each, its toolbar and its lines drawn anew at the output's pixels")
    func scaleChangesWhileRunning() throws {
        let session = try KWinSession(KWinSession.Options(scale: 1))
        defer {
            session.stop()
            session.removeFiles()
        }
        do {
            let app = try KWinAppUnderTest(session: session, arguments: ["--verbose"])
            // A line 10 pt wide with its edges at canvas 294 and 304 pt.
            let line = (app.onCanvas(200, 299), app.onCanvas(600, 299))
            try app.drawLine(0, from: line.0, to: line.1)
            try session.waitForScreen("the line") { showsLine($0, line.0, line.1, is: .black) }
            for scale in [1.5, 2, 1.25, 1] {
                // The output keeps its 1280 x 960 pixels; its logical size shrinks or grows, and
                // KWin fits the window in it.
                let scaleLine = "fractional scale \(scale)"
                let told = app.app.standardError.components(separatedBy: scaleLine).count - 1
                try session.setScale(scale)
                // The app has the new scale, and KWin's window is the size the app was last given:
                // the window of the step before fits the output too (640x443 pt at 2 fits at 1),
                // and under load it read the same twice before KWin resized it.
                try app.waitForTrace(scaleLine, count: told + 1)
                let window = try session.waitForWindow(appID: KWinAppUnderTest.appID, process: app.app) { shown in
                    let given = lastWindowSize(in: app.app.standardError)
                    return shown.frame.x >= 0 && shown.frame.y >= 0 && shown.frame.x + shown.frame.width <= 1280 / scale
                        && shown.frame.y + shown.frame.height <= 960 / scale
                        && given.map { Double($0.width) == shown.width && Double($0.height) == shown.height } ?? false
                }
                let line = ((x: window.x + 200, y: window.y + 299), (x: window.x + 600, y: window.y + 299))
                let shot = try session.waitForScreen("the line at scale \(scale)") { shot in
                    samples(from: line.0, to: line.1).allSatisfy { shot.pixel(x: $0.0 * scale, y: $0.1 * scale) == .black }
                }
                #expect(shot.width == 1280 && shot.height == 960, "\(shot.width)x\(shot.height)")
                if scale != 1 {
                    #expect(app.app.standardError.contains("fractional scale \(scale)"), "\(app.app.standardError)")
                }
                // The toolbar (Undo now enabled) as the app draws it at this scale.
                let (expected, _) = expectedWindow(width: window.width, height: window.height, showsTitleBar: false,
                                                   scale: scale, afterALine: true, style: KWinStyleTests.plasma)
                let rows = expected.height - Int((ToolbarView.height * scale).rounded(.up))..<expected.height
                // Leaving out the outermost pixels: where the window's edge falls inside an output
                // pixel (853 pt at 1.5 is 1279.5 pixels), KWin blends that pixel with what is beside.
                let toolbar = try waitForMatch(expected, rows: rows.lowerBound..<rows.upperBound - 1,
                                               columns: 1..<expected.width - 1, in: session,
                                               near: (window.x * scale, window.y * scale))
                if toolbar.count != 0 { session.keepFiles = true }
                #expect(toolbar.count == 0, "at \(scale): \(toolbar.count) toolbar pixels differ, e.g. \(toolbar.example), in \(toolbar.path)")
                // The line's edges: whole pixels where the edge falls between two, one grey pixel
                // where it falls inside one.
                let x = Int((line.0.x + 200) * scale), y = Int(line.0.y * scale)
                let edges = [edgeWidth(shot, from: (x, y), step: (0, -1), ink: .black),
                             edgeWidth(shot, from: (x, y), step: (0, 1), ink: .black)]
                let expectedEdges = [294.0, 304].map { ($0 * scale).rounded() == $0 * scale ? 0 : 1 }
                #expect(edges == expectedEdges, "at \(scale): edges \(edges), expected \(expectedEdges), in \(shot.path)")
            }
        } catch {
            session.keepFiles = true
            Issue.record("\(error)\n\(session.diagnostics)")
        }
    }
}

/// The window size the app logged last (`--verbose`: "window size WxH").
func lastWindowSize(in log: String) -> (width: Int, height: Int)? {
    guard let range = log.range(of: "window size ", options: .backwards) else { return nil }
    let parts = log[range.upperBound...].prefix { $0.isNumber || $0 == "x" }.split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
    return (width, height)
}

/// Waits up to 5 s for `image` (blended over white) to show on the screen with its top-left corner
/// within `slack` pixels of `near` (the compositor puts a surface on whole output pixels, rounding
/// its logical place), comparing `rows` of it. The best placement's differing pixels (0 once it
/// shows), one of them, and the last screenshot.
private func waitForMatch(_ image: ImageSurface, rows: Range<Int>, columns: Range<Int>? = nil, in session: KWinSession,
                          near: (x: Double, y: Double), slack: Int = 1) throws -> (count: Int, example: String, path: String) {
    var best = (count: Int.max, example: "", path: "")
    // Generous: a sanitized debug build of the tests compares a screenshot in seconds beside the
    // rest of the suite, so a deadline of a few seconds may leave one look, taken too early.
    let deadline = Date().addingTimeInterval(20)
    repeat {
        let shot = try session.screenshot()
        for dy in -slack...slack {
            for dx in -slack...slack {
                let origin = (x: Int(near.x.rounded()) + dx, y: Int(near.y.rounded()) + dy)
                var count = 0, example = ""
                for y in rows {
                    for x in columns ?? 0..<image.width {
                        guard let c = image.color(x: x, y: y) else { continue }
                        let want = overWhite(c)
                        guard let seen = shot.pixel(x: origin.x + x, y: origin.y + y), !seen.isClose(to: want, tolerance: 6) else { continue }
                        count += 1
                        if example.isEmpty { example = "\(x),\(y) at \(origin): expected \(want), saw \(seen)" }
                    }
                    if count > best.count { break }
                }
                if count < best.count { best = (count, example, shot.path) }
            }
        }
        if best.count == 0 { break }
        usleep(100_000)
    } while Date() < deadline
    return best
}

/// A colour with alpha as it shows over the white canvas.
private func overWhite(_ c: Color) -> Pixel {
    func channel(_ value: Double) -> UInt8 {
        let blended: Double = value * c.alpha + (1 - c.alpha)
        return UInt8((blended * 255).rounded())
    }
    return Pixel(red: channel(c.red), green: channel(c.green), blue: channel(c.blue))
}

/// Across one edge of a line: how many pixels are neither paper nor ink (antialiased), starting
/// from `from` (inside the ink) and walking `step` pixels at a time out to the paper.
private func edgeWidth(_ shot: Screenshot, from: (x: Int, y: Int), step: (x: Int, y: Int), ink: Pixel) -> Int? {
    var (x, y) = from
    guard shot.pixel(x: x, y: y)?.isClose(to: ink, tolerance: 8) == true else { return nil }
    while shot.pixel(x: x, y: y)?.isClose(to: ink, tolerance: 8) == true { x += step.x; y += step.y }
    var partial = 0
    while let pixel = shot.pixel(x: x, y: y), !pixel.isClose(to: .white, tolerance: 8) {
        partial += 1
        x += step.x; y += step.y
        if partial > 20 { return partial }
    }
    return partial
}

@Suite("TouchTracker under KWin at fractional scales", .serialized)
struct KWinFractionalScaleTests {
    @Test("Fractional scales: the app takes KWin's wp_fractional_scale_v1, draws at the output's pixels (sharp line edges) and touches land under the finger",
          arguments: [1.25, 1.5, 1.75, 2.0])
    func fractionalScale(scale: Double) throws {
        let session = try KWinSession(KWinSession.Options(scale: scale))
        defer {
            session.stop()
            session.removeFiles()
        }
        do {
            let app = try KWinAppUnderTest(session: session, arguments: ["--trace", "--verbose"], scale: scale)
            let shot0 = try session.screenshot()
            #expect(shot0.width == Int((1280 * scale).rounded()) && shot0.height == Int((960 * scale).rounded()),
                    "\(shot0.width)x\(shot0.height)")
            // The toolbar's words and buttons are exactly the app's own drawing at this scale, pixel
            // for pixel (upscaled or downscaled text would differ in thousands of pixels).
            let (expected, _) = expectedWindow(width: app.window.width, height: app.window.height, showsTitleBar: false,
                                               scale: scale, style: KWinStyleTests.plasma)
            let toolbarRows = expected.height - Int((ToolbarView.height * scale).rounded(.up))..<expected.height
            let toolbar = try waitForMatch(expected, rows: toolbarRows, in: session,
                                           near: (app.window.x * scale, app.window.y * scale))
            if toolbar.count != 0 {
                session.keepFiles = true
                try expected.writePNG(to: session.runtimeDirectory + "/expected-window.png")
            }
            #expect(toolbar.count == 0, "\(toolbar.count) toolbar pixels differ, e.g. \(toolbar.example), in \(toolbar.path)")
            // Lines 10 pt wide whose edges fall on even points of the canvas: a 1x buffer scaled
            // up 1.5 times with linear filtering turns each such edge into two grey pixels; drawn
            // at 1.5 they are whole pixels, with no grey at all.
            let h = (app.onCanvas(200, 299), app.onCanvas(600, 299))
            let v = (app.onCanvas(799, 100), app.onCanvas(799, 500))
            try app.drawLine(0, from: h.0, to: h.1)
            try app.drawLine(1, from: v.0, to: v.1)
            let shot = try session.waitForScreen("two black lines under the fingers") { shot in
                [h, v].allSatisfy { line in
                    samples(from: line.0, to: line.1).allSatisfy { shot.pixel(x: $0.0 * scale, y: $0.1 * scale) == .black }
                }
            }
            let log = app.app.standardError
            if scale != 2 {
                #expect(log.contains("fractional scale \(scale)"), "\(log)")
            }
            // Where the fingers were, in canvas points: exactly where they were sent.
            #expect(log.contains("x=200.0 y=299.0") && log.contains("x=799.0 y=100.0"), "\(log)")
            // Each edge (canvas 294 and 304 pt across the first line, 794 and 804 across the
            // second) is one grey (antialiased) pixel where it falls inside a pixel of the buffer
            // (294 * 1.25 = 367.5) and none where it falls between two (304 * 1.25 = 380): drawn
            // for these pixels, not scaled from a buffer of another size. (KWin puts the buffer on
            // whole output pixels, whatever its logical position.)
            let hx = Int((h.0.x + 200) * scale), hy = Int(h.0.y * scale)
            let vx = Int(v.0.x * scale), vy = Int((v.0.y + 200) * scale)
            let edges = [
                edgeWidth(shot, from: (hx, hy), step: (0, -1), ink: .black),
                edgeWidth(shot, from: (hx, hy), step: (0, 1), ink: .black),
                edgeWidth(shot, from: (vx, vy), step: (-1, 0), ink: .black),
                edgeWidth(shot, from: (vx, vy), step: (1, 0), ink: .black),
            ]
            let expectedEdges = [294.0, 304, 794, 804].map { ($0 * scale).rounded() == $0 * scale ? 0 : 1 }
            #expect(edges == expectedEdges, "edges \(edges), expected \(expectedEdges), in \(shot.path)")

            // A tap on the first line: the edit menu shows above the finger, drawn at the output's
            // pixels like the window (its own fractional scale), pixel for pixel the menu drawn here.
            let tap = app.onCanvas(400, 299)
            try app.tap(2, tap)
            let menu = WaylandHost.menuPicture(titles: ["Delete", "Copy"], scale: scale)
            // The positioner's place: centred on the tap, its bottom 8 pt above it.
            let place = ((tap.x - Double(menu.width) / scale / 2) * scale, (tap.y - 8) * scale - Double(menu.height))
            let shown = try waitForMatch(menu, rows: 0..<menu.height, in: session, near: place, slack: Int(scale * 2))
            if shown.count != 0 {
                session.keepFiles = true
                try menu.writePNG(to: session.runtimeDirectory + "/expected-menu.png")
            }
            #expect(shown.count == 0, "\(shown.count) menu pixels differ, e.g. \(shown.example), in \(shown.path)")
        } catch {
            session.keepFiles = true
            Issue.record("\(error)\n\(session.diagnostics)")
        }
    }
}
