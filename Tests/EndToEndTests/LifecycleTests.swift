// How the app starts and ends under a real compositor.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("App lifecycle under Weston", .serialized)
struct LifecycleTests {
    @Test("The window is titled TouchTracker, has the app id, and fills kiosk-shell's output")
    func windowIdentity() {
        withApp { app in
            #expect(app.window.title == "TouchTracker")
            #expect(app.window.appID == AppUnderTest.appID)
            #expect(app.window.width == 1024 && app.window.height == 768)
        }
    }

    @Test("The canvas follows the window when the compositor resizes it; lines stay")
    func resizeFollowsWindow() {
        withApp { app in
            try app.drawLine(0, from: (50, 50), to: (300, 50))
            try app.expectScreen("the first line") { pixel in pixel(175, 50) == .black }
            try app.session.resize(appID: AppUnderTest.appID, width: 600, height: 400)
            let deadline = Date().addingTimeInterval(5)
            var resized = try app.session.windows().first { $0.appID == AppUnderTest.appID }
            while resized?.width != 600, Date() < deadline {
                usleep(20_000)
                resized = try app.session.windows().first { $0.appID == AppUnderTest.appID }
            }
            let window = try #require(resized)
            #expect(window.width == 600 && window.height == 400, "\(window)")
            // Draw near the new bottom-right corner, just above the zoom control that sits over
            // it: the canvas covers the whole new size.
            let (ox, oy) = (window.x, window.y)
            try app.session.touchDown(1, x: ox + 450, y: oy + 270)
            try app.session.touchFrame()
            try app.session.touchMotion(1, x: ox + 590, y: oy + 270)
            try app.session.touchFrame()
            try app.session.touchUp(1)
            try app.session.touchFrame()
            try app.session.waitForScreen("both lines in the resized window") { shot in
                shot.pixel(x: ox + 175, y: oy + 50) == .black && shot.pixel(x: ox + 520, y: oy + 270) == .black
                    && shot.pixel(x: ox + 595, y: oy + 200) == .white
            }
        }
    }

    @Test("Closing the window ends the app with exit status 0")
    func closeExitsZero() {
        withApp { app in
            try app.session.close(appID: AppUnderTest.appID)
            let status = app.app.waitForExit(timeout: 5)
            #expect(status == 0, "exit status \(String(describing: status)); stderr: \(app.app.standardError)")
        }
    }

    @Test("SIGTERM and SIGINT end the app cleanly with exit status 0")
    func signalsExitZero() {
        for signal in [SIGTERM, SIGINT] {
            withApp { app in
                app.app.signal(signal)
                let status = app.app.waitForExit(timeout: 5)
                #expect(status == 0, "signal \(signal): exit status \(String(describing: status))")
            }
        }
    }

    @Test("Killing the compositor mid-stroke ends the app with a one-line message and a non-zero status")
    func compositorLoss() {
        withApp { app in
            try app.drawLine(0, from: (100, 100), to: (300, 300), lift: false)
            app.session.killCompositor()
            let status = app.app.waitForExit(timeout: 5)
            #expect(status != nil && status != 0, "exit status \(String(describing: status))")
            let messages = app.app.standardError.split(separator: "\n").filter { $0.contains("lost the Wayland compositor") }
            #expect(messages.count == 1, "stderr: \(app.app.standardError)")
            #expect(!app.app.standardError.contains("Fatal error"))
        }
    }

    @Test("Ctrl+Q quits with exit status 0")
    func controlQQuits() {
        withApp { app in
            // Keyboard focus follows the mapped window; evdev 29 = left Ctrl, 16 = Q.
            try app.session.key(29, down: true)
            try app.session.key(16, down: true)
            try app.session.key(16, down: false)
            try app.session.key(29, down: false)
            #expect(app.app.waitForExit(timeout: 5) == 0)
        }
    }

    @Test("touchtracker DRAWING opens that drawing, as a file manager's Open With does, and saves there")
    func drawingArgumentOpensIt() throws {
        var template = Array("/tmp/tt-open-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let path = folder + "/holiday sketch.touchtracker"
        try "{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[{\"id\":1,\"kind\":\"line\",\"color\":[0,0,0,1],\"width\":10,\"points\":[[100,100],[600,100]]}]}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        withApp(arguments: [path]) { app in
            try app.expectScreen("the drawing's line") { pixel in pixel(350, 100) == .black }
            try app.drawLine(0, from: (100, 300), to: (600, 300))
            try app.expectScreen("the new line") { pixel in pixel(350, 300) == .black }
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
        }
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.components(separatedBy: "\"kind\":\"line\"").count - 1 == 2, "\(saved)")
    }

    @Test("--trace logs every touch method call with phase, touch and location")
    func traceLogsTouches() {
        withApp(arguments: ["--trace"]) { app in
            try app.down(0, 120, 130)
            try app.frame()
            try app.move(0, 220, 230)
            try app.frame()
            try app.up(0)
            try app.frame()
            try app.expectScreen("the line") { pixel in pixel(170, 180) == .black }
            let log = app.app.standardError
            #expect(log.contains("touchesBegan touches=1 phase=began"), "\(log)")
            #expect(log.contains("touchesMoved touches=1 phase=moved"))
            #expect(log.contains("touchesEnded touches=1 phase=ended"))
            #expect(log.contains("x=120.0 y=130.0"))
        }
    }

    @Test("Without a compositor the app says so in one line and exits non-zero")
    func noCompositor() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try HarnessPaths.executable("touchtracker"))
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "tt-no-such-display"
        environment["XDG_RUNTIME_DIR"] = NSTemporaryDirectory()
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(output.split(separator: "\n").count == 1, "\(output)")
        #expect(output.contains("tt-no-such-display"))
    }

    @Test("--help and --version")
    func helpAndVersion() throws {
        func run(_ argument: String) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try HarnessPaths.executable("touchtracker"))
            process.arguments = [argument]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let (helpStatus, help) = try run("--help")
        #expect(helpStatus == 0)
        #expect(help.contains("--trace") && help.contains("multi-touch drawing app"))
        let (versionStatus, version) = try run("--version")
        #expect(versionStatus == 0)
        #expect(version.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}

@Suite("HiDPI under Weston", .serialized)
struct HiDPITests {
    @Test("On a scale-2 output the app renders 2x buffers: lines are 20 pixels wide and touches stay in points")
    func scaleTwo() {
        // Weston's headless size is in points: 1024x768 points at scale 2 is 2048x1536 pixels.
        withApp(arguments: ["--verbose"], options: WestonSession.Options(width: 1024, height: 768, scale: 2)) { app in
            // Global coordinates are in points; the screenshot is in pixels.
            try app.down(0, 100, 100)
            try app.frame()
            try app.move(0, 400, 100)
            try app.frame()
            try app.up(0)
            try app.frame()
            let shot = try app.session.waitForScreen("a horizontal line at y = 100 pt") { shot in
                shot.pixel(x: (app.window.x + 250) * 2, y: (app.window.y + 100) * 2) == .black
            }
            #expect(shot.width == 2048)
            // 10 pt wide = 20 pixels: black 9 px above and below the centre, white at 11.
            let cx = Int((app.window.x + 250) * 2), cy = Int((app.window.y + 100) * 2)
            #expect(shot.pixel(x: cx, y: cy - 9) == .black && shot.pixel(x: cx, y: cy + 9) == .black)
            #expect(shot.pixel(x: cx, y: cy - 12) == .white && shot.pixel(x: cx, y: cy + 12) == .white)
            // Crisp, not an upscaled 1x buffer: the edge goes from black to white within 2 pixels.
            let edge = (cy - 12...cy - 8).compactMap { shot.pixel(x: cx, y: $0) }.filter { $0 != .black && $0 != .white }
            #expect(edge.count <= 2, "blurred edge: \(edge)")
            // A diagonal line's antialiased edge has detail at single pixels; an upscaled 1x
            // buffer would repeat every value in 2x2 blocks.
            try app.down(1, 500, 200)
            try app.frame()
            try app.move(1, 800, 500)
            try app.frame()
            try app.up(1)
            try app.frame()
            let diagonal = try app.session.waitForScreen("the diagonal line") { shot in
                shot.pixel(x: (app.window.x + 650) * 2, y: (app.window.y + 350) * 2) == .black
            }
            var differingPartners = 0
            for y in stride(from: Int((app.window.y + 300) * 2), to: Int((app.window.y + 400) * 2), by: 1) {
                for x in stride(from: Int((app.window.x + 600) * 2), to: Int((app.window.x + 700) * 2), by: 2)
                where diagonal.pixel(x: x, y: y) != diagonal.pixel(x: x + 1, y: y) {
                    differingPartners += 1
                }
            }
            #expect(differingPartners > 50, "only \(differingPartners) pixel pairs differ: upscaled?")
            #expect(app.app.standardError.contains("buffer scale 2"))
        }
    }
}

@Suite("Latency log under Weston", .serialized)
struct LatencyLogTests {
    /// The numbers of one `--latency` line, in ms.
    struct Frame {
        var toCommit: Double, readToCommit: Double, cpu: Double, toPresented: Double
    }

    static func frames(in log: String) -> [Frame] {
        log.split(separator: "\n").compactMap { line in
            func number(after label: String) -> Double? {
                guard let range = line.range(of: label) else { return nil }
                return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
            }
            guard let toCommit = number(after: "input→commit "), let read = number(after: "read→commit "),
                  let cpu = number(after: "ms, "), let presented = number(after: "input→presented ") else { return nil }
            return Frame(toCommit: toCommit, readToCommit: read, cpu: cpu, toPresented: presented)
        }
    }

    @Test("--latency logs every frame that shows input: input to commit, the app's share of it and its CPU time, and input to presentation; a landing that shows nothing is not timed")
    func latencyLog() {
        withApp(arguments: ["--latency"]) { app in
            try app.down(0, 100, 100)
            try app.frame()
            // The finger rests before it moves: its landing shows nothing (the double tap holds
            // it, A3), so the first frame is timed from the first move, not from the landing.
            usleep(150_000)
            for x in stride(from: 120.0, through: 300, by: 20) {
                try app.move(0, x, 120)
                try app.frame()
                usleep(20_000)  // a frame each, as a finger at 50 Hz
            }
            try app.up(0)
            try app.frame()
            try app.expectScreen("the finished line") { pixel in pixel(200, 110) == .black }
            // Every committed frame with input gets a line once it is presented, or replaced by a
            // later commit before it could be ("discarded"); input frames read together are
            // committed together.
            func logged() -> Int { app.app.standardError.components(separatedBy: "input→commit").count - 1 }
            let deadline = Date().addingTimeInterval(5)
            var count = 0, steadySince = Date()
            while Date() < deadline, count < 10 || Date().timeIntervalSince(steadySince) < 0.3 {
                usleep(50_000)
                if logged() != count { (count, steadySince) = (logged(), Date()) }
            }
            #expect((10...12).contains(logged()), "ten moves and the up:\n\(app.app.standardError)")
            let toCommit = app.app.standardError.split(separator: "\n").compactMap { line -> Double? in
                guard let range = line.range(of: "input→commit ") else { return nil }
                return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
            }
            #expect(toCommit.allSatisfy { $0 < 100 }, "no frame timed from the landing 150 ms before its move: \(toCommit)")
            let frames = Self.frames(in: app.app.standardError)
            #expect(frames.count >= 6, "most frames are presented:\n\(app.app.standardError)")
            for frame in frames {
                // The app's share is within the whole, its CPU time within its share (the clocks
                // are read a few microseconds apart), and a frame is shown after it is committed.
                #expect(frame.readToCommit <= frame.toCommit + 1, "\(frame)")
                #expect(frame.cpu <= frame.readToCommit + 0.02, "\(frame)")
                #expect(frame.toPresented >= frame.toCommit, "\(frame)")
                #expect(frame.toPresented < 1_000, "\(frame)")
            }
            #expect(app.app.standardError.contains("refresh 16.67 ms"), "Weston's 60 Hz output")
        }
    }
}
