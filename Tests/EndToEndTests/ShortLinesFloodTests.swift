// Lines drawn one after another, each its own down, motion and up, as fast as the compositor takes
// them: a stream where most frames begin or end a touch, which costs the app far more per event
// than fingers moving. However fast it comes, the app must stay connected (libwayland disconnects
// a client that lets its socket fill up) and keep every line. scripts/test runs it alone, after
// the rest: the app's socket reader keeps up with Weston, not with Weston and a busy machine.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Short lines one after another", .serialized)
struct ShortLinesFloodTests {
    static var lines: Int { ProcessInfo.processInfo.environment["TT_SHORT_LINES"].flatMap(Int.init) ?? 12_000 }

    @Test("A1: lines drawn one after another as fast as Weston takes them (each its own down, motion and up) leave the app connected, and the drawing file holds every one")
    func shortLinesAsFastAsTheyCome() throws {
        let app = try PersistentApp(arguments: ["--autosave-delay", "0.5"])
        try app.launch()
        let count = Self.lines
        // A grid of short diagonal lines over the canvas, below a title bar and above the
        // toolbar; each moves 24 pt, past any tap's slop, so none is a tap.
        let columns = Int((app.window.width - 80) / 6), rows = Int((app.window.height - 260) / 6)
        var commands: [String] = []
        commands.reserveCapacity(count * 3)
        for i in 0..<count {
            let cell = i % (columns * rows)
            let (x, y) = app.global(40 + Double(cell % columns) * 6, 60 + Double(cell / columns % rows) * 6)
            commands.append(String(format: "touch raw d 0 %.1f %.1f f", x, y))
            commands.append(String(format: "touch raw m 0 %.1f %.1f f", x + 20, y + 14))
            commands.append("touch raw u 0 f")
        }
        let begin = Date()
        var sent = 0
        do {
            while sent < commands.count {
                let batch = Array(commands[sent..<min(sent + 300, commands.count)])
                try app.session.control.sendAll(batch)
                sent += batch.count
            }
        } catch {
            Issue.record("Weston stopped taking the stream after \(sent / 3) lines: \(error)")
        }
        let seconds = Date().timeIntervalSince(begin)
        print("short lines: \(sent / 3) lines in \(String(format: "%.2f", seconds)) s, \(Int(Double(sent / 3) / seconds)) lines/s")
        usleep(500_000)
        #expect(app.app.isRunning, "the app exited: \(app.app.standardError.suffix(500))")
        #expect(!app.app.standardError.contains("lost the Wayland compositor"),
                "disconnected: \(app.app.standardError.suffix(500))")
        guard app.app.isRunning else { return }
        // Every line reaches the drawing. Touches are handled in the order they came, so once a
        // last, long line shows, every short one before it was handled; then the app quits on
        // SIGTERM, saving the whole drawing (a big one keeps its last changes in a journal until then).
        try app.drawLine(1, from: (40, app.window.height - 150), to: (app.window.width - 40, app.window.height - 150))
        try app.expectScreen("the long line after the short ones", timeout: 120) { pixel in
            pixel(app.window.width / 2, app.window.height - 150) == .black
        }
        #expect(app.end(with: SIGTERM) == 0)
        try app.waitForFile(strokes: count + 1, timeout: 10)
    }
}
