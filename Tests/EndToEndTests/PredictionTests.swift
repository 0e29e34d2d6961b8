// A13, T14 on the real app under headless Weston: the composed pictures show a moving finger's
// line reaching past the newest sample the app was sent (its predicted extension, aimed at when
// Weston shows the frame), never with --no-prediction; and the drawing saved is the same either
// way. Read from the plugin's capture of every repaint, not from screenshots: a guess lives for
// a frame or two.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

/// CLOCK_MONOTONIC in seconds: the plugin's clock.
private func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

@Suite("Predicted ink under Weston", .serialized)
struct PredictionEndToEndTests {
    /// One finger from (100, 300) right at 600 pt/s for 288 pt, a sample every 8 ms, held still at
    /// the end, then lifted. Returns, of the repaints while it moved, how many showed the red
    /// line's end more than 2 pt past the newest sample sent before that repaint, and how many were
    /// read; and the drawing file once saved.
    static func swipe(prediction: Bool) throws -> (ahead: Int, frames: Int, file: [UInt8]) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tt-prediction-\(getpid())-\(prediction)").path
        try? FileManager.default.removeItem(atPath: data)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var result: (Int, Int, [UInt8]) = (0, 0, [])
        withApp(arguments: prediction ? [] : ["--no-prediction"], environment: ["XDG_DATA_HOME": data]) { app in
            let start = app.global(100, 300)
            try app.session.startCapture(x: Int(start.x) - 20, y: Int(start.y) - 20, width: 420, height: 40, rgb: 0xff0000)
            try app.down(0, 100, 300)
            try app.frame()
            // Each sample's time as it was being sent and once sent: a repaint between the two
            // may or may not show it (a loaded machine can hold the sender between them).
            var sent: [(sending: Double, time: Double, x: Double)] = []
            let begin = monotonicNow()
            // Sixty samples, nearly half a second: enough repaints to read even where the app runs
            // several times slower (AddressSanitizer beside other tests read as few as seven of forty).
            for i in 1...60 {
                let x = 100 + 4.8 * Double(i)
                while monotonicNow() < begin + 0.008 * Double(i) { usleep(500) }
                let sending = monotonicNow()
                try app.move(0, x, 300)
                try app.frame()
                sent.append((sending, monotonicNow(), app.global(x, 300).x))
            }
            usleep(300_000)
            let capture = try app.session.stopCapture(writingTo: app.session.runtimeDirectory + "/capture.bin")
            try app.up(0)
            try app.frame()
            var ahead = 0, frames = 0
            for frame in capture.frames {
                // Repaints while the finger moved, after its first samples.
                guard let newest = sent.last(where: { $0.time < frame.repaint }), frame.repaint > sent[4].time,
                      frame.repaint <= sent[sent.count - 1].time + 0.002,
                      !sent.contains(where: { $0.sending <= frame.repaint && frame.repaint <= $0.time }),
                      let far = capture.points(frame.mask).map(\.x).max() else { continue }
                frames += 1
                // The line's round cap reaches 5 pt past its end; the pure red half a pixel less.
                if far - 4.5 > newest.x + 2 { ahead += 1 }
            }
            let file = data + "/touchtracker/drawing.json"
            let deadline = Date().addingTimeInterval(10)
            var bytes: [UInt8] = []
            while Date() < deadline {
                bytes = FileManager.default.contents(atPath: file).map([UInt8].init) ?? []
                if String(decoding: bytes, as: UTF8.self).contains("\"points\"") { break }
                usleep(50_000)
            }
            result = (ahead, frames, bytes)
        }
        return result
    }

    @Test("A13 T14: a moving finger's line is shown past its newest sample on screen, never with --no-prediction, and the saved drawing is the same")
    func aheadOnScreen() throws {
        let on = try Self.swipe(prediction: true)
        let off = try Self.swipe(prediction: false)
        #expect(on.frames >= 8 && off.frames >= 8, "repaints read: \(on.frames) with prediction, \(off.frames) without")
        #expect(Double(on.ahead) >= 0.5 * Double(on.frames), "\(on.ahead) of \(on.frames) repaints showed the line past its newest sample")
        #expect(off.ahead == 0, "without prediction \(off.ahead) of \(off.frames) repaints showed the line past its newest sample")
        // Each write of a file names itself with a token of its own (for its journal): the rest is
        // the drawing.
        func drawing(_ bytes: [UInt8]) -> String {
            String(decoding: bytes, as: UTF8.self).replacing(/"token":"[^"]*",/, with: "")
        }
        #expect(!on.file.isEmpty && drawing(on.file) == drawing(off.file),
                "the drawing files differ:\n\(drawing(on.file))\n\(drawing(off.file))")
    }
}
