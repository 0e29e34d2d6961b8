// The real touchtracker binary under a real headless Weston, driven through our plugin.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

/// One app in one private compositor; coordinates are the window's (the plugin takes global ones).
final class AppUnderTest {
    static let appID = "org.touchtracker.TouchTracker"

    let session: WestonSession
    let app: ChildProcess
    let window: WindowInfo

    /// `paper` is the canvas's colour in the first frame (the light style's white by default).
    init(arguments: [String] = ["--trace"], options: WestonSession.Options = .init(),
         environment: [String: String] = [:], paper: Pixel = .white) throws {
        session = try WestonSession(options)
        do {
            app = try session.launch(try HarnessPaths.executable("touchtracker"), arguments, name: "touchtracker",
                                     environment: environment)
            window = try session.waitForWindow(appID: Self.appID, process: app)
            // Park the pointer (and its cursor) in the output's bottom-right corner, away from
            // the pixels tests look at.
            let output = try session.output()
            try session.pointerMotion(x: output.x + output.width - 1, y: output.y + output.height - 1)
            // The first frame: the canvas (in the middle: a title bar may be at the top).
            try session.waitForScreen("the canvas") { shot in
                shot.pixel(x: self.window.x + self.window.width / 2, y: self.window.y + self.window.height / 2) == paper
            }
        } catch {
            let diagnostics = session.diagnostics
            session.stop()
            throw HarnessError("\(error)\n\(diagnostics)")
        }
    }

    deinit { session.stop() }

    func global(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (window.x + x, window.y + y) }

    func down(_ id: Int, _ x: Double, _ y: Double) throws {
        let p = global(x, y)
        try session.touchDown(id, x: p.x, y: p.y)
    }

    func move(_ id: Int, _ x: Double, _ y: Double) throws {
        let p = global(x, y)
        try session.touchMotion(id, x: p.x, y: p.y)
    }

    func up(_ id: Int) throws { try session.touchUp(id) }
    func frame() throws { try session.touchFrame() }

    /// A quick tap like a finger's: down, 50 ms, up. `settle` waits out the double-tap window.
    func tap(_ id: Int, _ x: Double, _ y: Double, settle: Bool = true) throws {
        try down(id, x, y)
        try frame()
        usleep(50_000)
        try up(id)
        try frame()
        if settle { usleep(500_000) }
    }

    /// A finger from `a` to `b` in five frames; lifted unless `lift` is false.
    func drawLine(_ id: Int, from a: (Double, Double), to b: (Double, Double), lift: Bool = true) throws {
        try down(id, a.0, a.1)
        try frame()
        for step in 1...5 {
            let t = Double(step) / 5
            try move(id, a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
            try frame()
        }
        guard lift else { return }
        try up(id)
        try frame()
    }

    /// Waits until the screen satisfies `condition`, with window-relative pixel lookup.
    @discardableResult
    func expectScreen(_ what: String, timeout: Double = 5,
                      _ condition: @escaping (_ pixel: (Double, Double) -> Pixel) -> Bool) throws -> Screenshot {
        try session.waitForScreen(timeout: timeout, what) { shot in
            condition { x, y in shot.pixel(x: self.window.x + x, y: self.window.y + y) ?? Pixel(red: 1, green: 2, blue: 3) }
        }
    }

    /// Fails the test with the app's and Weston's logs attached.
    func record(_ error: Error, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record("\(error)\n\(session.diagnostics)", sourceLocation: sourceLocation)
    }
}

/// A new configuration folder (for `XDG_CONFIG_HOME`) whose preferences turn Fingers off, so
/// fingers navigate from the start; the caller removes it.
func fingersOffConfig(_ name: String) throws -> String {
    let folder = NSTemporaryDirectory() + "\(name)-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder + "/touchtracker", withIntermediateDirectories: true)
    try "fingers-draw = false\n".write(toFile: folder + "/touchtracker/preferences", atomically: true, encoding: .utf8)
    return folder
}

/// Runs `body` with a fresh app; any error fails the test with logs; files are removed on success.
func withApp(arguments: [String] = ["--trace"], options: WestonSession.Options = .init(),
             environment: [String: String] = [:], paper: Pixel = .white,
             sourceLocation: SourceLocation = #_sourceLocation,
             _ body: (AppUnderTest) throws -> Void) {
    let app: AppUnderTest
    do {
        app = try AppUnderTest(arguments: arguments, options: options, environment: environment, paper: paper)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
    }
    do {
        try body(app)
        app.session.stop()
        app.session.removeFiles()
    } catch {
        app.record(error, sourceLocation: sourceLocation)
        app.session.stop()
    }
}

/// Whether every sample of the line from `a` to `b` (global points) shows `colour` in `shot`.
func showsLine(_ shot: Screenshot, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), is colour: Pixel) -> Bool {
    samples(from: a, to: b).allSatisfy { shot.pixel(x: $0.0, y: $0.1) == colour }
}

/// Samples along a segment, skipping the ends (round caps and neighbours blur them).
func samples(from a: (Double, Double), to b: (Double, Double), count: Int = 5) -> [(Double, Double)] {
    (1...count).map { i in
        let t = Double(i) / Double(count + 1)
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    }
}
