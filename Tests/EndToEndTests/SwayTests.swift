// The real touchtracker under a real headless Sway 1.7 (wlroots 0.15, pixman): server-side
// decorations through xdg-decoration, the pointer through wlroots' virtual-pointer protocol,
// screenshots through grim, window geometry through sway's IPC tree.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import SwayHarness

/// One app in one private Sway; coordinates are global unless a helper says otherwise.
final class SwayAppUnderTest {
    static let appID = "org.touchtracker.TouchTracker"
    /// Sway's default colours for the focused window, set explicitly so the test can check them.
    static let titleBarColour = Pixel(red: 0x28, green: 0x55, blue: 0x77)
    static let config = ["client.focused #4c7899 #285577 #ffffff #2e9ef4 #285577", "default_border normal 2"]

    let session: SwaySession
    let pointer: SwayVirtualPointer
    let app: ChildProcess
    let window: SwayWindow

    init(arguments: [String] = ["--trace"]) throws {
        session = try SwaySession(SwaySession.Options(config: Self.config))
        do {
            // The virtual pointer first: the seat gets its pointer capability before the app binds it.
            pointer = try SwayVirtualPointer(session)
            try pointer.move(x: 5, y: 5)
            app = try session.launch(try HarnessPaths.executable("touchtracker"), arguments, name: "touchtracker")
            // Sway shows a new view undecorated ("none") until it has settled its border style:
            // "normal" when the client asked for server-side decorations, "csd" when not.
            window = try session.waitForWindow(appID: Self.appID, process: app) { $0.border != "none" }
            let centre = (x: window.content.x + window.content.width / 2, y: window.content.y + window.content.height / 2)
            try session.waitForScreen("the white canvas") { $0.pixel(x: centre.x, y: centre.y) == .white }
        } catch {
            let diagnostics = session.diagnostics
            session.stop()
            throw HarnessError("\(error)\n\(diagnostics)")
        }
    }

    deinit { session.stop() }

    /// A point in the window's content (the canvas), in global coordinates.
    func global(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (window.content.x + x, window.content.y + y) }
}

/// Runs `body` with the app in a fresh Sway; any error fails the test with Sway's and the app's
/// logs; every process is stopped either way and files are removed on success.
func withSwayApp(arguments: [String] = ["--trace"], sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: (SwayAppUnderTest) throws -> Void) {
    withFreshApp({ try SwayAppUnderTest(arguments: arguments) }, session: \.session, sourceLocation: sourceLocation, body)
}

/// Runs `body` with an app `make` starts in a compositor of its own; any error fails the test with
/// the session's logs; every process is stopped either way and files are removed on success.
func withFreshApp<App, Session: CompositorSession>(_ make: () throws -> App, session: KeyPath<App, Session>,
                                                   sourceLocation: SourceLocation, _ body: (App) throws -> Void) {
    let app: App
    do {
        app = try make()
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
    }
    do {
        try body(app)
        app[keyPath: session].stop()
        app[keyPath: session].removeFiles()
    } catch {
        Issue.record("\(error)\n\(app[keyPath: session].diagnostics)", sourceLocation: sourceLocation)
        app[keyPath: session].stop()
    }
}

/// Fails (by throwing, so the session's files stay for a person to look at) unless the screenshot
/// has `colour` at `point` (global coordinates).
func ensure(_ shot: Screenshot, _ point: (x: Double, y: Double), is colour: Pixel, _ what: String) throws {
    let found = shot.pixel(x: point.x, y: point.y)
    guard found == colour else {
        throw HarnessError("\(what): \(colour) expected at \(point), found \(found.map(\.description) ?? "nothing") in \(shot.path)")
    }
}

@Suite("TouchTracker under Sway", .serialized)
struct SwayTests {
    @Test("Sway decorates the window (xdg-decoration server-side): its title bar above, the canvas from the window's top")
    func serverSideDecorations() {
        withSwayApp { app in
            let window = app.window
            #expect(window.title == "TouchTracker")
            // Sway kept its own decorations: had the app asked for client-side ones, sway would
            // report the border as "csd" and draw no title bar.
            #expect(window.border == "normal", "\(window)")
            #expect(window.titleBar.height > 0 && window.titleBar.y + window.titleBar.height == window.content.y, "\(window)")
            // Tiled to the output: the container fills it.
            #expect(window.frame.x == 0 && window.frame.width == 1024 && window.content.y + window.content.height <= 768)
            let shot = try app.session.screenshot()
            // Sway's title bar, its focused colour away from the title text.
            let bar = (x: window.titleBar.x + window.titleBar.width - 30, y: window.titleBar.y + window.titleBar.height / 2)
            try ensure(shot, bar, is: SwayAppUnderTest.titleBarColour, "sway's title bar")
            // No client title bar: the canvas is white right from the content's first rows, where
            // the app's own bar would be grey #EBEBEB with three buttons at the right.
            for (x, y) in [(60.0, 1.0), (60.0, 18.0), (window.content.width / 2, 18), (window.content.width - 21, 18)] {
                try ensure(shot, app.global(x, y), is: .white, "the canvas at \(x),\(y) of the content")
            }
        }
    }

    @Test("A1: the virtual pointer's left button draws a line (red while held, black after); grim shows it where the pointer went")
    func pointerDraws() {
        withSwayApp { app in
            // Near the content's top edge too: a client title bar would have swallowed this.
            let a = app.global(100, 12), b = app.global(600, 400)
            try app.pointer.move(x: a.x, y: a.y)
            try app.pointer.button(down: true)
            for step in 1...10 {
                let t = Double(step) / 10
                try app.pointer.move(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            try app.session.waitForScreen("a red line while the button is held") { shot in
                samples(from: a, to: b).allSatisfy { shot.pixel(x: $0.0, y: $0.1) == .red }
            }
            try app.pointer.button(down: false)
            let shot = try app.session.waitForScreen("a black line after release") { shot in
                samples(from: a, to: b).allSatisfy { shot.pixel(x: $0.0, y: $0.1) == .black }
            }
            // 10 px wide: black 4 px either side of the centre line, white 12 px off it.
            let mid = (x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            try ensure(shot, (mid.x, mid.y - 4), is: .black, "the line's upper half")
            try ensure(shot, (mid.x, mid.y + 4), is: .black, "the line's lower half")
            try ensure(shot, (mid.x, mid.y - 12), is: .white, "the canvas above the line")
            try ensure(shot, (mid.x, mid.y + 12), is: .white, "the canvas below the line")
            // Moving without the button draws nothing.
            try app.pointer.move(x: app.global(100, 600).x, y: app.global(100, 600).y)
            try app.pointer.move(x: app.global(600, 600).x, y: app.global(600, 600).y)
            try ensure(try app.session.screenshot(), app.global(350, 600), is: .white, "the canvas under a move without the button")
            #expect(app.app.standardError.contains("touchesBegan touches=1 phase=began"), "\(app.app.standardError)")
        }
    }

    @Test("--latency logs every frame with input under Sway too, which answers hardly any presentation feedback: once 64 wait, they and every later frame are logged at their commit")
    func latencyWithoutPresentation() {
        withSwayApp(arguments: ["--latency"]) { app in
            let a = app.global(100, 100)
            try app.pointer.move(x: a.x, y: a.y)
            try app.pointer.button(down: true)
            // Motions at 60 Hz, a pointer frame each, so the app reads and paints them one by one.
            for step in 1...150 {
                try app.pointer.move(x: a.x + Double(step % 100) * 5, y: a.y + Double(step % 100) * 3)
                usleep(16_000)
            }
            try app.pointer.button(down: false)
            func frames() -> [Int] {
                app.app.standardError.split(separator: "\n").compactMap { line in
                    guard let r = line.range(of: "frame "), line.contains("input→commit ") else { return nil }
                    return Int(line[r.upperBound...].prefix { $0.isNumber })
                }
            }
            let deadline = Date().addingTimeInterval(5)
            var logged = frames()
            while Date() < deadline {
                usleep(200_000)
                let now = frames()
                if now.count == logged.count, now.count >= 70 { break }
                logged = now
            }
            // Every frame from the first to the last, once each: none lost waiting for feedback.
            #expect(logged.count >= 70 && logged.sorted() == Array(1...logged.count), "\(app.app.standardError)")
            #expect(app.app.standardError.contains("presentation feedbacks unanswered"), "\(app.app.standardError)")
        }
    }

    @Test("Closing the window from sway (kill) ends the app with exit status 0")
    func closeExitsZero() {
        withSwayApp { app in
            try app.session.command("[app_id=\"\(SwayAppUnderTest.appID)\"] kill")
            let status = app.app.waitForExit(timeout: 5)
            #expect(status == 0, "exit status \(String(describing: status)); stderr: \(app.app.standardError)")
            // sway drops the window from its tree a moment after the client is gone.
            let deadline = Date().addingTimeInterval(5)
            var windows = try app.session.windows()
            while !windows.isEmpty, Date() < deadline {
                usleep(50_000)
                windows = try app.session.windows()
            }
            #expect(windows.isEmpty, "\(windows)")
        }
    }
}
