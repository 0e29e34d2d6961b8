// The real app with a private data folder under a private Weston: draw, kill or quit, launch
// again, look at the screen and at the drawing file (read with Foundation's JSON parser, as any
// other program would read it).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchTrackerKit

/// One drawing folder and one compositor, across several runs of the app.
final class PersistentApp {
    static let appID = "org.touchtracker.TouchTracker"
    nonisolated(unsafe) private static var count = 0

    let session: WestonSession
    /// `XDG_DATA_HOME` of every run.
    let dataHome: String
    /// The drawing file the runs use (the default one unless `file` was given).
    let file: String
    private(set) var app: ChildProcess!
    private(set) var window: WindowInfo!
    /// Arguments of every run (before the per-launch ones).
    var arguments: [String]
    private let ownsSession: Bool

    /// A new data folder in `session` (stopped by its owner), or in a new compositor of its own.
    init(file: String? = nil, arguments: [String] = [], session: WestonSession? = nil) throws {
        ownsSession = session == nil
        self.session = try session ?? WestonSession()
        PersistentApp.count += 1
        dataHome = self.session.runtimeDirectory + "/data-\(PersistentApp.count)"
        try FileManager.default.createDirectory(atPath: dataHome, withIntermediateDirectories: true)
        self.file = file ?? dataHome + "/touchtracker/drawing.json"
        self.arguments = arguments + (file.map { ["--file", $0] } ?? [])
    }

    /// `XDG_STATE_HOME` of every run: where the app keeps each drawing's view.
    var stateHome: String { dataHome + "/state" }

    /// Has the drawing open at 100 % from its origin, as it was left there: a seeded drawing
    /// reaching far past the window would otherwise open fitted (A15).
    func leaveViewAtOrigin() throws {
        try FileManager.default.createDirectory(atPath: stateHome + "/touchtracker", withIntermediateDirectories: true)
        try "1.0 0.0 0.0 \(file)\n".write(toFile: stateHome + "/touchtracker/views", atomically: true, encoding: .utf8)
    }

    deinit {
        app?.stop()
        if ownsSession { session.stop() }
    }

    /// Starts the app (through `wrapper`, e.g. a shell that sets a limit) and waits for its canvas.
    func launch(_ extra: [String] = [], wrapper: [String] = [], environment: [String: String] = [:]) throws {
        if let app, app.isRunning { throw HarnessError("the app is still running") }
        // The previous run's window must be gone before the next one is looked for.
        let deadline = Date().addingTimeInterval(5)
        while try session.windows().contains(where: { $0.appID == Self.appID }), Date() < deadline { usleep(20_000) }
        let executable = try HarnessPaths.executable("touchtracker")
        let command = wrapper.isEmpty ? executable : wrapper[0]
        let arguments = wrapper.isEmpty ? self.arguments + extra : Array(wrapper.dropFirst()) + [executable] + self.arguments + extra
        app = try session.launch(command, arguments, name: "touchtracker",
                                 environment: ["XDG_DATA_HOME": dataHome, "XDG_STATE_HOME": stateHome].merging(environment) { $1 })
        window = try session.waitForWindow(appID: Self.appID, process: app)
        // The canvas is up when its bottom-right corner, just above the toolbar (where no test
        // draws), is white.
        try session.waitForScreen("the canvas") { shot in
            shot.pixel(x: self.window.x + self.window.width - 8,
                       y: self.window.y + self.window.height - ToolbarView.height - 8) == .white
        }
    }

    func global(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (window.x + x, window.y + y) }

    /// A finger from `a` to `b` in a few frames; lifted unless `lift` is false.
    func drawLine(_ id: Int, from a: (Double, Double), to b: (Double, Double), lift: Bool = true) throws {
        let start = global(a.0, a.1)
        try session.touchDown(id, x: start.x, y: start.y)
        try session.touchFrame()
        for step in 1...4 {
            let t = Double(step) / 4
            let p = global(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
            try session.touchMotion(id, x: p.x, y: p.y)
            try session.touchFrame()
        }
        if lift {
            try session.touchUp(id)
            try session.touchFrame()
        }
    }

    /// Waits until the screen satisfies `condition` (window-relative pixels).
    @discardableResult
    func expectScreen(_ what: String, timeout: Double = 5,
                      _ condition: @escaping (_ pixel: (Double, Double) -> Pixel) -> Bool) throws -> Screenshot {
        try session.waitForScreen(timeout: timeout, what) { shot in
            condition { x, y in shot.pixel(x: self.window.x + x, y: self.window.y + y) ?? Pixel(red: 1, green: 2, blue: 3) }
        }
    }

    /// Waits until the drawing file (or the one at `path`) parses and holds `count` strokes; returns them.
    @discardableResult
    func waitForFile(_ path: String? = nil, strokes count: Int, timeout: Double = 5) throws -> [SavedStroke] {
        let file = path ?? self.file
        let deadline = Date().addingTimeInterval(timeout)
        var last = "no file"
        repeat {
            do {
                let strokes = try SavedStroke.read(file)
                if strokes.count == count { return strokes }
                last = "\(strokes.count) strokes"
            } catch {
                last = "\(error)"
            }
            usleep(20_000)
        } while Date() < deadline
        throw HarnessError("\(file) never held \(count) strokes within \(timeout) s (last: \(last))")
    }

    /// Sends a signal and waits for the exit status.
    func end(with signal: Int32) -> Int32? {
        app.signal(signal)
        return app.waitForExit(timeout: 5)
    }

    /// Whether the banner strip (red: an error) shows across the top of the canvas, with text; a
    /// long message wraps, and the strip grows to hold up to three lines.
    static func showsBanner(_ shot: Screenshot, in window: WindowInfo, red: Bool = true) -> Bool {
        let colour = red ? Pixel(red: 0xB3, green: 0x26, blue: 0x1E) : Pixel(red: 0x26, green: 0x32, blue: 0x38)
        let x0 = Int(window.x), y0 = Int(window.y)
        return shot.pixel(x: x0 + 4, y: y0 + 4) == colour && shot.pixel(x: x0 + Int(window.width) - 4, y: y0 + 30) == colour
            && shot.count(.white, inX: x0..<(x0 + Int(window.width)), y: y0..<(y0 + 36), tolerance: 60) > 150
            && (40...70).contains { shot.pixel(x: x0 + 4, y: y0 + $0) == .white }
    }

    /// Waits for the banner; copies the screenshot to `keep` when given (to look at it).
    @discardableResult
    func expectBanner(red: Bool = true, keep: String? = nil, timeout: Double = 5) throws -> Screenshot {
        let shot = try session.waitForScreen(timeout: timeout, "the \(red ? "red" : "dark") banner") { shot in
            PersistentApp.showsBanner(shot, in: self.window, red: red)
        }
        if let keep {
            try? FileManager.default.removeItem(atPath: keep)
            try? FileManager.default.copyItem(atPath: shot.path, toPath: keep)
        }
        return shot
    }

    /// Waits until no banner shows.
    func expectNoBanner(timeout: Double = 10) throws {
        try session.waitForScreen(timeout: timeout, "no banner") { shot in
            shot.pixel(x: self.window.x + 4, y: self.window.y + 4) == .white
        }
    }

    /// The app's standard error, its log.
    var log: String { app?.standardError ?? "" }

    /// Fails the test with the logs attached.
    func record(_ error: Error, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record("\(error)\n\(session.diagnostics)", sourceLocation: sourceLocation)
    }
}

/// Runs `body` with a fresh compositor and data folder; errors fail the test with the logs.
func withPersistentApp(file: String? = nil, arguments: [String] = [], launch: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: (PersistentApp) throws -> Void) {
    let app: PersistentApp
    do {
        app = try PersistentApp(file: file, arguments: arguments)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
    }
    do {
        if launch { try app.launch() }
        try body(app)
        app.session.stop()
        app.session.removeFiles()
    } catch {
        app.record(error, sourceLocation: sourceLocation)
        app.session.stop()
    }
}

/// A stroke as the file holds it, read with Foundation's JSON parser.
struct SavedStroke: Equatable, CustomStringConvertible {
    var id: Int
    var kind: String
    var color: [Double]
    var width: Double
    var points: [[Double]]

    var description: String { "#\(id) \(kind) \(points)" }

    static func read(_ path: String) throws -> [SavedStroke] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              root["format"] as? String == "touchtracker-drawing", root["version"] as? Int == 1,
              let strokes = root["strokes"] as? [[String: Any]] else {
            throw HarnessError("\(path) is not a version-1 drawing")
        }
        return try strokes.map { object in
            guard let id = object["id"] as? Int, let kind = object["kind"] as? String,
                  let color = object["color"] as? [Double], let width = object["width"] as? Double,
                  let points = object["points"] as? [[Double]] else {
                throw HarnessError("a stroke of \(path) lacks a field: \(object)")
            }
            return SavedStroke(id: id, kind: kind, color: color, width: width, points: points)
        }
    }
}

/// The bytes of a file, or nil.
func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Files in a folder whose names start with `prefix`.
func files(in folder: String, prefix: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
}
