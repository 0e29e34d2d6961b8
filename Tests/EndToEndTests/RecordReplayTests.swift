// `touchtracker --record` under a real Weston, then `touchtracker replay` with no compositor: the
// recording reproduces what the window showed, pixel for pixel, and the same touch method calls.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

/// Runs `touchtracker ARGUMENTS` to its end, in English unless `environment` (added to the tests'
/// own) says otherwise; its exit status, standard output and error.
/// Expects the replay's picture of the window (`--window-png`) to be the live window in `shot`,
/// pixel for pixel give or take 4/255 per channel, but for the output's bottom-right corner, where
/// the pointer's cursor is parked.
func expectSameWindow(replayedAt picture: String, as shot: Screenshot, window: WindowInfo,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
    let replayed = try Screenshot(contentsOf: picture)
    #expect(replayed.width == Int(window.width) && replayed.height == Int(window.height), sourceLocation: sourceLocation)
    var differing = 0
    var example = ""
    for y in 0..<replayed.height {
        for x in 0..<replayed.width where !(x >= replayed.width - 40 && y >= replayed.height - 40) {
            guard let a = replayed.pixel(x: x, y: y), let b = shot.pixel(x: Int(window.x) + x, y: Int(window.y) + y) else { continue }
            if !a.isClose(to: b, tolerance: 4) {
                differing += 1
                if example.isEmpty { example = "\(x),\(y): replay \(a), live \(b)" }
            }
        }
    }
    #expect(differing == 0, "\(differing) pixels differ from the live window, e.g. \(example)", sourceLocation: sourceLocation)
}

func runTouchTracker(_ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try HarnessPaths.executable("touchtracker"))
    process.arguments = arguments
    process.environment = HarnessPaths.environmentInEnglish.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

/// The touch method calls of a --trace log, without the logger's time stamps.
func traceCalls(_ log: String) -> [String] {
    log.split(separator: "\n").compactMap { line in
        guard line.contains("touchtracker.trace"), let start = line.range(of: "] ") else { return nil }
        return String(line[start.upperBound...])
    }
}

@Suite("Recording and replaying")
struct RecordReplayTests {
    static func temporaryFolder() -> String {
        var template = Array("/tmp/tt-record-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test("A1 A2 A6 A8 T2 T11: a session recorded under Weston (touches, a cancel, a long-press drag, Ctrl+Z) replays without a compositor to the same picture and the same touch method calls")
    func recordedSessionReplays() throws {
        let folder = Self.temporaryFolder()
        let recording = folder + "/session.ttrec", picture = folder + "/replay.png"
        var live: (shot: Screenshot, window: WindowInfo, trace: [String])?
        withApp(arguments: ["--trace", "--record", recording]) { app in
            // Two fingers at once, their motion in several frames.
            try app.down(0, 100, 150)
            try app.down(1, 100, 350)
            try app.frame()
            for step in 1...6 {
                try app.move(0, 100 + Double(step) * 60, 150 + Double(step) * 10)
                try app.move(1, 100 + Double(step) * 50, 350 - Double(step) * 20)
                try app.frame()
            }
            try app.up(0)
            try app.up(1)
            try app.frame()
            // A finger the compositor cancels: its line goes.
            try app.drawLine(2, from: (600, 500), to: (800, 450), lift: false)
            try app.session.touchCancel()
            // A long press picks the first line up and a drag moves it.
            usleep(400_000)
            try app.down(3, 280, 180)
            try app.frame()
            usleep(800_000)
            for step in 1...5 {
                try app.move(3, 280, 180 + Double(step) * 30)
                try app.frame()
            }
            try app.up(3)
            try app.frame()
            let shot = try app.expectScreen("the moved line, black again") { pixel in
                pixel(280, 330) == .black && pixel(700, 475) == .white
            }
            // A third line, taken back with Ctrl+Z (keys are recorded too).
            try app.drawLine(4, from: (600, 100), to: (900, 150))
            try app.expectScreen("the third line") { pixel in pixel(750, 125) == .black }
            try app.press(44, with: [29])  // Ctrl+Z
            try app.expectScreen("the third line undone") { pixel in pixel(750, 125) == .white }
            // The zoom control, aside since the line, back (the middle of its + inked): the
            // replay ends with the window at rest.
            let plus = AppLayout.zoomButton(in: true, width: app.window.width, height: app.window.height)
            try app.expectScreen("the zoom control back") { pixel in pixel(plus.x, plus.y) != .white }
            usleep(500_000)
            let final = try app.session.screenshot(to: folder + "/live.png")
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
            // The drawing the live app saved as it quit.
            _ = try runTouchTracker(["export", "--file", app.session.runtimeDirectory + "/data/touchtracker/drawing.json",
                                     "--svg", folder + "/live.svg"])
            live = (final, app.window, traceCalls(app.app.standardError))
            _ = shot
        }
        guard let live else { return }

        let replay = try runTouchTracker(["replay", recording, "--window-png", picture, "--svg", folder + "/replay.svg", "--trace"])
        #expect(replay.status == 0, "\(replay.error)")
        // The strokes, exactly as the live app saved them (Cairo numbers its SVG surfaces apart).
        func paths(_ file: String) throws -> [String] {
            try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("<path") }.map(String.init)
        }
        #expect(try paths("replay.svg") == paths("live.svg"), "the replay's drawing differs from the one the live app saved")
        #expect(try paths("live.svg").count == 2)
        #expect(traceCalls(replay.error) == live.trace, "the replay's touch method calls differ from the live ones")
        #expect(live.trace.contains { $0.hasPrefix("touchesCancelled") })

        try expectSameWindow(replayedAt: picture, as: live.shot, window: live.window)
    }

    @Test("A recording killed with SIGKILL mid-session keeps every entry before it, and replays")
    func recordingSurvivesKill() throws {
        let folder = Self.temporaryFolder()
        let recording = folder + "/killed.ttrec", svg = folder + "/killed.svg"
        withApp(arguments: ["--record", recording]) { app in
            try app.drawLine(0, from: (100, 100), to: (500, 300))
            try app.expectScreen("the line") { pixel in pixel(300, 200) == .black }
            try app.drawLine(1, from: (100, 400), to: (500, 400), lift: false)
            try app.expectScreen("the second line, in progress") { pixel in pixel(300, 400) == .red }
            app.app.signal(SIGKILL)
            _ = app.app.waitForExit(timeout: 5)
        }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.hasPrefix("touchtracker-input 1\n"))
        #expect(text.hasSuffix("\n"), "the last entry is whole")
        let replay = try runTouchTracker(["replay", recording, "--svg", svg])
        #expect(replay.status == 0, "\(replay.error)")
        let drawn = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawn.components(separatedBy: " d=\"M ").count - 1 == 1, "the finished line, and not the one in progress: \(drawn)")
    }

    @Test("A1 A8: --replay plays a recording into the live window, through the same adapter: the lines come back, and Undo in the recording still takes one away")
    func liveReplay() throws {
        let folder = Self.temporaryFolder()
        let recording = folder + "/live.ttrec"
        withApp(arguments: ["--record", recording]) { app in
            try app.drawLine(0, from: (100, 200), to: (600, 200))
            try app.drawLine(1, from: (100, 400), to: (600, 450))
            try app.drawLine(2, from: (700, 100), to: (900, 500))
            try app.expectScreen("three lines") { pixel in pixel(800, 300) == .black }
            try app.press(44, with: [29])  // Ctrl+Z takes the third back
            try app.expectScreen("the third line undone") { pixel in pixel(800, 300) == .white }
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
        }
        // A new user (a fresh drawing) replays it as fast as it goes.
        withApp(arguments: ["--replay", recording, "--speed", "0"]) { app in
            try app.expectScreen("the two lines of the recording, and not the undone one", timeout: 10) { pixel in
                pixel(350, 200) == .black && pixel(350, 425) == .black && pixel(800, 300) == .white
            }
        }
    }

    @Test("A15: replay's --png is the whole drawing, lines beyond the window too, and --window-png the window as the app showed it")
    func replayPicturesTheWholeDrawing() throws {
        let folder = Self.temporaryFolder()
        let drawing = folder + "/far.json"
        try ("{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[{\"id\":1,\"kind\":\"line\",\"color\":[0,0,0,1],"
             + "\"width\":10,\"points\":[[1300,100],[1700,100]]}]}\n").write(toFile: drawing, atomically: true, encoding: .utf8)
        let recording = folder + "/empty.ttrec"
        try "touchtracker-input 1\nframe\n".write(toFile: recording, atomically: true, encoding: .utf8)
        let replay = try runTouchTracker(["replay", recording, "--file", drawing, "--png", folder + "/whole.png",
                                          "--window-png", folder + "/window.png"])
        #expect(replay.status == 0, "\(replay.error)")
        let whole = try Screenshot(contentsOf: folder + "/whole.png")
        #expect(whole.width >= 1707)
        #expect(whole.pixel(x: 1500, y: 100) == .black)
        let window = try Screenshot(contentsOf: folder + "/window.png")
        #expect(window.width == 1024)
        #expect((0..<window.width).allSatisfy { window.pixel(x: $0, y: 100) != .black }, "the window shows the drawing's origin")
    }

    @Test("An unreadable recording gets one line naming its line number, and no crash")
    func unreadableRecording() throws {
        let folder = Self.temporaryFolder()
        let path = folder + "/bad.ttrec"
        try "touchtracker-input 1\nframe\ndown touchscreen 1 x 2 3 direct 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let replay = try runTouchTracker(["replay", path, "--png", folder + "/out.png"])
        #expect(replay.status == 1)
        #expect(replay.error == "touchtracker: cannot replay \(path): line 3: x 'x' is not a finite number\n")
    }
}
