// Ctrl with a wheel or a touchpad's scroll, from a real Weston through the real app's host: as
// its recording shows them (zooms about the pointer, S14 and S15; plain scrolls, S9; the
// compositor's resize as the window's new size), on the canvas, and in a replay of the recording
// without a compositor. No compositor here can send a touchpad's pinch
// (Weston 10 has no pointer gestures, and neither wlroots' virtual pointer, KWin's fake input nor
// mutter's remote desktop can make one), so the pinch is checked by unit and replay tests.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Zoom by the pointer under Weston")
struct PointerZoomEndToEndTests {
    /// The words of each line of `recording` that starts with one of `kinds`.
    static func lines(_ recording: String, _ kinds: Set<String>) -> [[String]] {
        recording.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .filter { $0.first.map(kinds.contains) == true }
    }

    /// Asks the compositor to make the window `width` x `height` and waits until it is.
    static func resize(_ app: AppUnderTest, width: Int, height: Int) throws -> WindowInfo {
        try app.session.resize(appID: AppUnderTest.appID, width: width, height: height)
        let deadline = Date().addingTimeInterval(5)
        var resized = try app.session.windows().first { $0.appID == AppUnderTest.appID }
        while resized.map({ Int($0.width) != width || Int($0.height) != height }) != false, Date() < deadline {
            usleep(20_000)
            resized = try app.session.windows().first { $0.appID == AppUnderTest.appID }
        }
        let window = try #require(resized)
        try #require(Int(window.width) == width && Int(window.height) == height, "\(window)")
        return window
    }

    @Test("S14 S15 S9: under Weston, Ctrl with a wheel's notches and with a touchpad's scroll reach the app as zooms of 1.1 a notch (or 15 points) about the pointer, a touchpad's scroll begun with Ctrl zooms to its end, a plain wheel still scrolls, and the resize before them is recorded as the window's new size")
    func ctrlScrollIsRecordedAsZoom() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let recording = folder + "/zoom.ttrec"
        withApp(arguments: ["--record", recording]) { app in
            let window = try Self.resize(app, width: 600, height: 400)
            try app.session.pointerMotion(x: window.x + 200, y: window.y + 150)
            func axis(_ arguments: String) throws { _ = try app.session.control.send("pointer axis vertical " + arguments) }
            try app.session.key(Key.leftCtrl, down: true)
            // Two notches up, as Weston's libinput backend gives them: 10 points and a notch each.
            try axis("-10 -1 wheel")
            try axis("-10 -1 wheel")
            // Fingers on a touchpad, Ctrl let go midway: the scroll zooms to its end.
            try axis("-15 finger")
            try app.session.key(Key.leftCtrl, down: false)
            try axis("-15 finger")
            try axis("0 finger")
            // Without Ctrl a notch down scrolls.
            try axis("10 1 wheel")
            usleep(300_000)
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
        }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        let windows = Self.lines(text, ["window"]).map { Array($0[1...2]) }
        #expect(windows.first == ["1024.0", "768.0"] && windows.last == ["600.0", "400.0"], "\(windows)")
        let pointer = Self.lines(text, ["zoom", "scroll", "scroll-end"])
        let kinds = pointer.map { words in words[0] == "scroll-end" ? "scroll-end" : [words[0], words.last!].joined(separator: " ") }
        #expect(kinds == ["zoom wheel", "zoom wheel", "zoom touchpad", "zoom touchpad", "scroll-end", "scroll wheel"], "\(pointer)")
        for zoom in pointer where zoom[0] == "zoom" {
            #expect(zoom[1...3] == ["1.1", "200.0", "150.0"], "1.1 times about the pointer: \(zoom)")
        }
        if let scroll = pointer.last, scroll[0] == "scroll" {
            #expect(scroll[1...4] == ["0.0", "10.0", "200.0", "150.0"], "\(scroll)")
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test("S14 S15: under Weston, Ctrl with the wheel and with a touchpad's scroll zoom the canvas about the pointer after the window was resized, and the recording replays without a compositor to the same picture at the new size")
    func ctrlScrollZoomsTheCanvas() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let recording = folder + "/zoom.ttrec", picture = folder + "/replay.png"
        var live: (shot: Screenshot, window: WindowInfo)?
        withApp(arguments: ["--record", recording]) { app in
            try app.drawLine(0, from: (100, 200), to: (500, 200))
            try app.expectScreen("the line") { pixel in pixel(300, 200) == .black }
            // Smaller, then the zoom: the replay must lay the window out at its new size first.
            let window = try Self.resize(app, width: 800, height: 600)
            func pixelAt(_ shot: Screenshot, _ x: Double, _ y: Double) -> Pixel? { shot.pixel(x: window.x + x, y: window.y + y) }
            let pointer = (x: window.x + 100, y: window.y + 100)
            try app.session.pointerMotion(x: pointer.x, y: pointer.y)
            func axis(_ arguments: String) throws { _ = try app.session.control.send("pointer axis vertical " + arguments) }
            try app.session.key(Key.leftCtrl, down: true)
            for _ in 1...4 { try axis("-10 -1 wheel") }
            try axis("-15 finger")
            try axis("-15 finger")
            try axis("0 finger")
            try app.session.key(Key.leftCtrl, down: false)
            // Four notches and 30 points: 1.1 to the sixth. About (100, 100), the line at y 200
            // is now at 100 + 100 x 1.77 = 277, and as thick.
            let zoom = 1.771561, y = 100 + 100 * zoom
            try app.session.waitForScreen("the line zoomed about the pointer") { shot in
                let pixel = { (x: Double, y: Double) in pixelAt(shot, x, y) }
                return pixel(300, y) == .black && pixel(300, y - 7) == .black && pixel(300, y + 7) == .black
                    && pixel(300, 200) == .white && pixel(300, y - 12) == .white && pixel(300, y + 12) == .white
            }
            // The zoom control, aside since the line, back (the middle of its + inked): the
            // replay ends with the window at rest.
            let plus = AppLayout.zoomButton(in: true, width: window.width, height: window.height)
            try app.session.waitForScreen("the zoom control back") { shot in pixelAt(shot, plus.x, plus.y).map { $0 != .white } ?? false }
            // The cursor back in the corner, away from what is compared.
            let output = try app.session.output()
            try app.session.pointerMotion(x: output.x + output.width - 1, y: output.y + output.height - 1)
            usleep(300_000)
            live = (try app.session.screenshot(to: folder + "/live.png"), window)
            app.app.signal(SIGTERM)
            #expect(app.app.waitForExit(timeout: 10) == 0)
        }
        guard let live else { return }
        let replay = try runTouchTracker(["replay", recording, "--window-png", picture])
        #expect(replay.status == 0, "\(replay.error)")
        try expectSameWindow(replayedAt: picture, as: live.shot, window: live.window)
        try? FileManager.default.removeItem(atPath: folder)
    }
}
