// Copy and paste under a real headless Weston (P2-P5): Ctrl+C in the app, read back by a second
// Wayland client of our own (tt-clipboard-probe) as PNG, SVG and the app's own type; a paste into a
// second app with its own drawing, undone with Ctrl+Z; another program's text declined.
// Weston gives the selection to the client with keyboard focus; kiosk-shell focuses the window
// mapped last and, when it goes, the one under it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Copy and paste under Weston", .serialized)
struct ClipboardTests {
    static let drawingType = "application/vnd.touchtracker.drawing+json"

    /// Ctrl (evdev 29) with `key`: 46 = C, 47 = V, 44 = Z.
    static func control(_ key: Int, in session: WestonSession) throws {
        try session.key(29, down: true)
        try session.key(key, down: true)
        try session.key(key, down: false)
        try session.key(29, down: false)
    }

    /// Ctrl+C in `app` (run with `--verbose`), waited for until the app has taken the selection:
    /// a client started before that (the probe, a second app) would get focus and find none.
    static func copy(in app: PersistentApp, count: Int = 1) throws {
        try control(46, in: app.session)
        let deadline = Date().addingTimeInterval(10)
        while app.app.standardError.components(separatedBy: "clipboard: offering").count - 1 < count {
            guard Date() < deadline else { throw HarnessError("Ctrl+C took no selection: \(app.app.standardError.suffix(2000))") }
            usleep(20_000)
        }
    }

    /// Runs the probe to read `type` from the clipboard; returns its bytes and the types offered.
    static func probeRead(_ type: String, in session: WestonSession) throws -> (bytes: Data, types: [String]) {
        let out = session.runtimeDirectory + "/probe-\(UUID().uuidString)"
        let probe = try session.launch(try HarnessPaths.executable("tt-clipboard-probe"), ["read", type, out])
        guard let status = probe.waitForExit(timeout: 15) else {
            probe.stop()
            throw HarnessError("the probe did not finish: \(probe.standardError)")
        }
        let types = probe.standardOutput.split(separator: "\n").first { $0.hasPrefix("types:") }
            .map { $0.dropFirst(6).split(separator: " ").map(String.init) } ?? []
        guard status == 0, let bytes = contents(out) else {
            throw HarnessError("the probe could not read \(type) (status \(status)): \(probe.standardOutput)\(probe.standardError)")
        }
        return (bytes, types)
    }

    /// Waits until the probe's window is gone (kiosk-shell then focuses the app again).
    static func waitForProbeGone(_ session: WestonSession) throws {
        let deadline = Date().addingTimeInterval(5)
        while try session.windows().contains(where: { $0.appID == "tt-clipboard-probe" }) {
            guard Date() < deadline else { throw HarnessError("the probe's window stayed") }
            usleep(20_000)
        }
    }

    @Test("P2: Ctrl+C puts the drawing on the clipboard; a second client reads it back as PNG (the line's pixels), SVG and the app's own type")
    func copyReadBack() {
        withPersistentApp(arguments: ["--verbose"]) { app in
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.expectScreen("the line") { pixel in pixel(300, 300) == .black }
            try Self.copy(in: app)

            let (png, types) = try Self.probeRead("image/png", in: app.session)
            #expect(types == [Self.drawingType, "image/png", "image/svg+xml"], "\(types)")
            let pngPath = app.session.runtimeDirectory + "/copied.png"
            try png.write(to: URL(fileURLWithPath: pngPath))
            let picture = try Screenshot(contentsOf: pngPath)
            // Cropped to the line: 400 pt long and 10 wide, its box 2 pt wider all round for the
            // antialiased edge, with an 8 pt margin: 430 x 30.
            #expect(picture.width == 430 && picture.height == 30, "\(picture.width)x\(picture.height)")
            #expect(picture.pixel(x: picture.width / 2, y: picture.height / 2) == .black)
            #expect(picture.pixel(x: 2, y: 2) == .white && picture.pixel(x: picture.width / 2, y: 1) == .white)
            try Self.waitForProbeGone(app.session)

            let svg = String(decoding: try Self.probeRead("image/svg+xml", in: app.session).bytes, as: UTF8.self)
            #expect(svg.contains("<svg") && svg.contains("d=\"M 15 15 L 415 15 \""), "\(svg)")
            try Self.waitForProbeGone(app.session)

            let own = try Self.probeRead(Self.drawingType, in: app.session).bytes
            let ownPath = app.session.runtimeDirectory + "/copied.json"
            try own.write(to: URL(fileURLWithPath: ownPath))
            let strokes = try SavedStroke.read(ownPath)
            #expect(strokes.count == 1 && strokes.first?.points == [[100, 300], [500, 300]], "\(strokes)")
        }
    }

    @Test("P3: lines copied in one app paste into a second app with its own drawing, as one step that Ctrl+Z takes back")
    func pasteIntoSecondApp() {
        withPersistentApp(arguments: ["--verbose"]) { first in
            try first.drawLine(0, from: (100, 200), to: (500, 200))
            try first.drawLine(0, from: (100, 400), to: (500, 400))
            try first.expectScreen("two lines") { pixel in pixel(300, 200) == .black && pixel(300, 400) == .black }
            try Self.copy(in: first)

            // The second app, on its own drawing, maps over the first and takes the focus.
            let second = try PersistentApp(session: first.session)
            try second.launch()
            try second.expectScreen("an empty canvas") { pixel in pixel(300, 200) == .white }
            try Self.control(47, in: second.session)
            try second.expectScreen("the pasted lines") { pixel in pixel(300, 200) == .black && pixel(300, 400) == .black }
            let pasted = try second.waitForFile(strokes: 2)
            #expect(pasted.map(\.points) == [[[100, 200], [500, 200]], [[100, 400], [500, 400]]], "\(pasted)")
            try Self.control(44, in: second.session)
            try second.expectScreen("the paste undone") { pixel in pixel(300, 200) == .white && pixel(300, 400) == .white }
            try second.waitForFile(strokes: 0)
            // The first drawing is untouched.
            #expect(try first.waitForFile(strokes: 2).count == 2)
            second.app.stop()
        }
    }

    @Test("P5: another program's text on the clipboard is declined with a banner, the drawing unchanged")
    func textDeclined() {
        withPersistentApp(arguments: ["--verbose"]) { app in
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.waitForFile(strokes: 1)
            let probe = try app.session.launch(try HarnessPaths.executable("tt-clipboard-probe"),
                                               ["offer", "text/plain;charset=utf-8", "hello"])
            defer { probe.stop() }
            let deadline = Date().addingTimeInterval(10)
            while !app.log.contains("the selection offers text/plain;charset=utf-8") {
                guard Date() < deadline else { throw HarnessError("the app never saw the text offer: \(probe.standardError)") }
                usleep(50_000)
            }
            try Self.control(47, in: app.session)
            try app.expectBanner(red: false)
            #expect(app.log.contains("The clipboard holds nothing TouchTracker can paste"), "\(app.log)")
            #expect(try app.waitForFile(strokes: 1).first?.points == [[100, 300], [500, 300]])
            try app.expectScreen("the line, alone") { pixel in pixel(300, 300) == .black && pixel(300, 330) == .white }
        }
    }

    /// Starts the probe offering the clipboard in `mode` and waits until it holds the selection
    /// and the app (run with --verbose) has been told of an offer of that type since.
    static func probeOffer(_ arguments: [String], to app: PersistentApp) throws -> ChildProcess {
        // Counted, not just found: an earlier probe's offer named the same type, and Weston's
        // clipboard offers its copy of it again when that probe goes.
        let line = "the selection offers \(arguments[1])"
        let before = app.log.components(separatedBy: line).count
        let probe = try app.session.launch(try HarnessPaths.executable("tt-clipboard-probe"), arguments)
        let deadline = Date().addingTimeInterval(10)
        while !probe.standardOutput.contains("offering") || app.log.components(separatedBy: line).count == before {
            guard Date() < deadline else {
                probe.stop()
                throw HarnessError("the app never saw the offer: \(probe.standardError)")
            }
            usleep(50_000)
        }
        return probe
    }

    @Test("P4: hostile bytes under the app's own type are refused with a red banner, the drawing unchanged")
    func hostileOwnType() {
        withPersistentApp(arguments: ["--verbose"]) { app in
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.waitForFile(strokes: 1)
            let probe = try Self.probeOffer(["offer", Self.drawingType, "{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[[[[NaN"], to: app)
            defer { probe.stop() }
            try Self.control(47, in: app.session)
            try app.expectBanner(red: true)
            #expect(app.log.contains("Cannot paste: the clipboard's drawing is damaged: "), "\(app.log)")
            #expect(try app.waitForFile(strokes: 1).count == 1)
        }
    }

    @Test("P4 P7: a paste whose owner sends nothing fails after 5 s, one that never ends is cut at 128 MiB; the app draws meanwhile")
    func stalledAndEndlessPastes() {
        withPersistentApp(arguments: ["--verbose"]) { app in
            let silent = try Self.probeOffer(["offer-silent", Self.drawingType], to: app)
            try Self.control(47, in: app.session)
            // The app keeps drawing while it waits.
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.expectScreen("a line drawn while the paste waits") { pixel in pixel(300, 300) == .black }
            #expect(!PersistentApp.showsBanner(try app.session.screenshot(), in: app.window))
            try app.expectBanner(red: true, timeout: 10)
            #expect(app.log.contains("Cannot paste: the program holding the clipboard sent nothing for 5 s"), "\(app.log)")
            silent.stop()

            let endless = try Self.probeOffer(["offer-endless", Self.drawingType], to: app)
            defer { endless.stop() }
            try app.expectNoBanner(timeout: 15)
            try Self.control(47, in: app.session)
            try app.expectBanner(red: true, timeout: 30)
            let deadline = Date().addingTimeInterval(10)
            while !endless.standardOutput.contains("sent "), Date() < deadline { usleep(50_000) }
            #expect(endless.standardOutput.contains("Broken pipe"), "the app hung up: \(endless.standardOutput)")
            #expect(app.log.contains("Cannot paste: the clipboard holds more than 128 MiB"), "\(app.log)")
            #expect(try app.waitForFile(strokes: 1).count == 1)
        }
    }

    @Test("P7: a reader that takes nothing does not stop the app, and is dropped after 10 s")
    func stalledReader() throws {
        // A drawing of 4,000 lines: its copy is far more than a pipe holds.
        let folder = try HarnessPaths.privateFolder("clipboard")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/big.json"
        let strokes = (1...4000).map { i in
            "{\"id\":\(i),\"kind\":\"line\",\"color\":[0,0,0,1],\"width\":2,\"points\":[[\(i % 900 + 50),600],[\(i % 900 + 60),650]]}"
        }
        try ("{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[" + strokes.joined(separator: ",\n") + "]}")
            .write(toFile: file, atomically: true, encoding: .utf8)
        withPersistentApp(file: file, arguments: ["--verbose"]) { app in
            try Self.copy(in: app)
            let probe = try app.session.launch(try HarnessPaths.executable("tt-clipboard-probe"), ["stall", Self.drawingType, "30"])
            defer { probe.stop() }
            let deadline = Date().addingTimeInterval(10)
            while !probe.standardOutput.contains("stalling") {
                guard Date() < deadline else { throw HarnessError("the probe never asked: \(probe.standardError)") }
                usleep(50_000)
            }
            try Self.waitForProbeGone(app.session)
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.expectScreen("a line drawn while the reader hangs") { pixel in pixel(300, 300) == .black }
            let dropped = Date().addingTimeInterval(15)
            while !app.log.contains("not sent: the reader took nothing for 10 s") {
                guard Date() < dropped else { throw HarnessError("the stalled transfer was never dropped") }
                usleep(100_000)
            }
        }
    }

    @Test("P2 P6 M2: the tapped line's menu copies that line; a long press on empty canvas offers Paste, which lays the copy 20 pt off the original")
    func copyAndPasteThroughTheMenu() {
        withApp(arguments: ["--verbose"]) { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.drawLine(1, from: (200, 500), to: (600, 500))
            try app.tap(2, 400, 305)
            var popup = try app.waitForPopup()
            // Delete, then Copy: Copy is the last item.
            try app.tap(3, popup.x - app.window.x + popup.width - 20, popup.y - app.window.y + popup.height / 2)
            try app.waitForNoPopup()
            #expect(app.app.standardError.contains("menu: chose Copy"), "\(app.app.standardError)")
            let copied = try Self.probeRead(Self.drawingType, in: app.session).bytes
            let path = app.session.runtimeDirectory + "/menu-copy.json"
            try copied.write(to: URL(fileURLWithPath: path))
            #expect(try SavedStroke.read(path).map(\.points) == [[[200, 300], [600, 300]]], "the selected line only")
            try Self.waitForProbeGone(app.session)

            // A long press on empty canvas: Copy and Paste once the finger lifts.
            try app.down(4, 400, 650)
            try app.frame()
            usleep(800_000)
            try app.up(4)
            try app.frame()
            popup = try app.waitForPopup()
            try app.tap(5, popup.x - app.window.x + popup.width - 20, popup.y - app.window.y + popup.height / 2)
            try app.waitForNoPopup()
            #expect(app.app.standardError.contains("menu: chose Paste"), "\(app.app.standardError)")
            try app.expectScreen("the pasted line 20 pt right of and below the original") { pixel in
                pixel(400, 320) == .black && pixel(610, 320) == .black && pixel(300, 300) == .black && pixel(400, 650) == .white
            }
        }
    }

    @Test("P3: a recorded copy and paste replays without a compositor to the drawing the live app saved")
    func recordedPasteReplays() throws {
        let folder = RecordReplayTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = folder + "/paste.ttrec"
        var saved = false
        withApp(arguments: ["--record", recording]) { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.expectScreen("the line") { pixel in pixel(400, 300) == .black }
            try Self.control(46, in: app.session)
            try Self.control(47, in: app.session)
            try app.expectScreen("the pasted line") { pixel in pixel(400, 320) == .black }
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
            _ = try runTouchTracker(["export", "--file", app.session.runtimeDirectory + "/data/touchtracker/drawing.json",
                                     "--svg", folder + "/live.svg"])
            saved = true
        }
        guard saved else { return }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains("\npaste data 7b"), "the paste's bytes are recorded")
        let replay = try runTouchTracker(["replay", recording, "--svg", folder + "/replay.svg"])
        #expect(replay.status == 0, "\(replay.error)")
        func paths(_ file: String) throws -> [String] {
            try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("<path") }.map(String.init)
        }
        #expect(try paths("live.svg").count == 2)
        #expect(try paths("replay.svg") == paths("live.svg"))
    }
}
