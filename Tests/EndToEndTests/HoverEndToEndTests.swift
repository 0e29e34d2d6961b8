// The pointer hovering over the real app under a real Weston (G20): the seat reports it to
// TouchKit's hover path, which `--record` writes down line by line, so the test reads the hover
// where the app took it, in the window's points.
import Foundation
import Testing
import CompositorHarness

@Suite("Hover under Weston")
struct HoverEndToEndTests {
    /// The recording's entries of `kind` ("hover", "hover-end", "down", "up") for the pointer.
    static func pointerLines(_ kind: String, in text: String) -> [[Substring]] {
        text.split(separator: "\n").map { $0.split(separator: " ") }
            .filter { $0.count >= 3 && $0[0] == kind && $0[1] == "pointer" }
    }

    /// Waits until `recording` holds what `ready` looks for, and returns its text.
    static func waitFor(_ what: String, in recording: String, timeout: Double = 5,
                        _ ready: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = (try? String(contentsOfFile: recording, encoding: .utf8)) ?? ""
            if ready(text) { return text }
            guard Date() < deadline else { throw HarnessError("no \(what) in the recording:\n\(text)") }
            usleep(20_000)
        }
    }

    @Test("G20: the pointer over the window with no button down hovers where it is; a press ends the hover and a release resumes it")
    func pointerHovers() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let recording = folder + "/hover.ttrec"
        withApp(arguments: ["--record", recording]) { app in
            let start = app.global(300, 250)
            try app.session.pointerMotion(x: start.x, y: start.y)
            let to = app.global(340, 260)
            try app.session.pointerMotion(x: to.x, y: to.y)
            var text = try Self.waitFor("hover at 340,260", in: recording) { text in
                Self.pointerLines("hover", in: text).contains { $0[3] == "340.0" && $0[4] == "260.0" }
            }
            #expect(Self.pointerLines("hover", in: text).contains { $0[3] == "300.0" && $0[4] == "250.0" },
                    "the hover follows the pointer in window points")
            #expect(Self.pointerLines("hover-end", in: text).isEmpty)

            try app.session.pointerButton(down: true)
            text = try Self.waitFor("a press", in: recording) { !Self.pointerLines("down", in: $0).isEmpty }
            let lines = text.split(separator: "\n")
            let press = try #require(lines.firstIndex { $0.hasPrefix("down pointer") })
            let end = try #require(lines.firstIndex { $0.hasPrefix("hover-end pointer") }, "the press ends the hover")
            #expect(end < press)

            try app.session.pointerButton(down: false)
            let back = app.global(360, 270)
            try app.session.pointerMotion(x: back.x, y: back.y)
            text = try Self.waitFor("a hover after the release", in: recording) { text in
                Self.pointerLines("hover", in: text).contains { $0[3] == "360.0" && $0[4] == "270.0" }
            }
            let after = text.split(separator: "\n")
            let release = try #require(after.firstIndex { $0.hasPrefix("up pointer") })
            #expect(after[release...].contains { $0.hasPrefix("hover pointer") }, "hovering again once released")
        }
    }
}
