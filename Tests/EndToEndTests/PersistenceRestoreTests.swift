// Never lose a finished line: kill -9, a killed compositor, SIGTERM, SIGINT and closing the
// window, each followed by a new start that shows the same drawing.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Persistence under Weston: restore", .serialized)
struct PersistenceRestoreTests {
    let lines: [((Double, Double), (Double, Double))] = [((100, 100), (400, 100)), ((100, 200), (400, 300)), ((600, 150), (600, 450))]

    func drawAll(_ app: PersistentApp) throws {
        for (n, line) in lines.enumerated() { try app.drawLine(n, from: line.0, to: line.1) }
    }

    func expectLines(_ app: PersistentApp, _ what: String) throws {
        try app.expectScreen(what) { pixel in
            self.lines.allSatisfy { line in samples(from: line.0, to: line.1).allSatisfy { pixel($0.0, $0.1) == .black } }
        }
    }

    @Test("kill -9 after three lines: all three are on screen after the next start")
    func killNineAfterLines() {
        withPersistentApp { app in
            try drawAll(app)
            try expectLines(app, "three black lines")
            let saved = try app.waitForFile(strokes: 3)
            #expect(app.end(with: SIGKILL) == 128 + SIGKILL)
            try app.launch()
            try expectLines(app, "the three lines restored")
            #expect(try SavedStroke.read(app.file) == saved, "starting does not rewrite the drawing")
        }
    }

    @Test("kill -9 with a big drawing: lines saved in its journal come back, and quitting leaves one whole file")
    func killNineWithJournal() {
        withPersistentApp(launch: false) { app in
            let folder = app.dataHome + "/touchtracker"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Over 1 MiB, so that autosave appends to the journal (after one whole write that
            // gives the file its token).
            let seeded = 10_000
            _ = try PersistenceDiskTests.seed(app.file, lines: seeded)
            try app.leaveViewAtOrigin()
            try app.launch()
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            try app.waitForFile(strokes: seeded + 1)
            try app.drawLine(1, from: (100, 200), to: (400, 300))
            let journal = app.file + ".journal"
            let deadline = Date().addingTimeInterval(5)
            while (contents(journal).map { $0.split(separator: 0x0A).count } ?? 0) < 2, Date() < deadline { usleep(20_000) }
            #expect(contents(journal).map { $0.split(separator: 0x0A).count } == 2, "a header and one record")
            #expect(try SavedStroke.read(app.file).count == seeded + 1, "the file itself was not rewritten")
            #expect(app.end(with: SIGKILL) == 128 + SIGKILL)
            try app.launch()
            try app.expectScreen("both lines restored") { pixel in pixel(250, 100) == .black && pixel(250, 250) == .black }
            // Soon after the start the journal is folded into the file.
            try app.waitForFile(strokes: seeded + 2)
            #expect(contents(journal) == nil)
            try app.drawLine(2, from: (100, 400), to: (400, 400))
            try app.expectScreen("the third line") { pixel in pixel(250, 400) == .black }
            #expect(app.end(with: SIGTERM) == 0)
            #expect(try SavedStroke.read(app.file).count == seeded + 3, "quitting writes the whole file")
            #expect(files(in: folder, prefix: "") == ["drawing.json"])
        }
    }

    @Test("kill -9 with a finger down: the finished lines come back, the unfinished one is gone")
    func killNineMidStroke() {
        withPersistentApp { app in
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            try app.drawLine(1, from: (100, 300), to: (700, 300), lift: false)
            try app.expectScreen("a black line and a red one") { pixel in pixel(250, 100) == .black && pixel(400, 300) == .red }
            try app.waitForFile(strokes: 1)
            _ = app.end(with: SIGKILL)
            try app.launch()
            try app.expectScreen("only the finished line") { pixel in pixel(250, 100) == .black && pixel(400, 300) == .white }
        }
    }

    @Test("Killing Weston mid-stroke: the app saves on its way out, and the next start restores the lines")
    func compositorKilled() throws {
        // A minute's autosave delay: only the save on losing the compositor can have written the file.
        withPersistentApp(arguments: ["--autosave-delay", "60"]) { app in
            try app.waitForFile(strokes: 0)
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            try app.drawLine(1, from: (100, 200), to: (400, 300))
            try app.drawLine(2, from: (600, 150), to: (600, 450), lift: false)
            try app.expectScreen("two black lines and a red one") { pixel in
                pixel(250, 100) == .black && pixel(250, 250) == .black && pixel(600, 300) == .red
            }
            #expect(try SavedStroke.read(app.file).isEmpty, "nothing saved yet")
            app.session.killCompositor()
            #expect(app.app.waitForExit(timeout: 5) == 1)
            #expect(app.log.split(separator: "\n").filter { $0.contains("lost the Wayland compositor") }.count == 1)
            let saved = try SavedStroke.read(app.file)
            #expect(saved.count == 2, "\(saved)")
            // A new compositor and a new start show both lines.
            let second = try PersistentApp(arguments: ["--file", app.file])
            try second.launch()
            try second.expectScreen("both lines restored") { pixel in
                pixel(250, 100) == .black && pixel(250, 250) == .black && pixel(600, 300) == .white
            }
            second.session.stop()
            second.session.removeFiles()
        }
    }

    @Test("SIGTERM, SIGINT and closing the window save the last lines before exiting 0")
    func orderlyEnds() {
        for end in ["SIGTERM", "SIGINT", "close"] {
            withPersistentApp(arguments: ["--autosave-delay", "60"]) { app in
                try app.waitForFile(strokes: 0)
                try app.drawLine(0, from: (100, 100), to: (400, 100))
                try app.drawLine(1, from: (100, 200), to: (400, 300))
                try app.expectScreen("two lines") { pixel in pixel(250, 100) == .black && pixel(250, 250) == .black }
                let status: Int32?
                switch end {
                case "SIGTERM": status = app.end(with: SIGTERM)
                case "SIGINT": status = app.end(with: SIGINT)
                default:
                    try app.session.close(appID: PersistentApp.appID)
                    status = app.app.waitForExit(timeout: 5)
                }
                #expect(status == 0, "\(end)")
                #expect(try SavedStroke.read(app.file).count == 2, "\(end)")
                try app.launch()
                try app.expectScreen("the lines after \(end)") { pixel in pixel(250, 100) == .black && pixel(250, 250) == .black }
            }
        }
    }

    @Test("A second TouchTracker on the same drawing exits 1 saying which process has it, and leaves the first one's drawing alone")
    func secondAppOnOneDrawing() {
        withPersistentApp { app in
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            let saved = try app.waitForFile(strokes: 1)
            let second = try app.session.launch(try HarnessPaths.executable("touchtracker"), app.arguments, name: "second",
                                                environment: ["XDG_DATA_HOME": app.dataHome])
            #expect(second.waitForExit(timeout: 10) == 1)
            #expect(second.standardError.contains("is open in another TouchTracker (process \(app.app.pid))"),
                    "stderr: \(second.standardError)")
            #expect(try app.session.windows().filter { $0.appID == PersistentApp.appID }.count == 1, "no second window")
            #expect(app.app.isRunning)
            // The first one goes on drawing and saving; once it has quit, the drawing opens again.
            try app.drawLine(1, from: (100, 200), to: (400, 300))
            #expect(try app.waitForFile(strokes: 2).first == saved.first)
            #expect(app.end(with: SIGTERM) == 0)
            try app.launch()
            try app.expectScreen("both lines") { pixel in pixel(250, 100) == .black && pixel(250, 250) == .black }
        }
    }

    @Test("Restore is exact: ids, order, kinds, colours, widths and points as written, shown as drawn")
    func exactRestore() {
        let folder = NSTemporaryDirectory() + "tt-exact-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/exact.json"
        // Numbers no finger produces, written as another program might (spaces, any key order).
        let text = """
            {"version": 1, "format": "touchtracker-drawing", "strokes": [
              {"id": 40, "kind": "line", "color": [0.0, 0.0, 1.0, 1.0], "width": 12.5,
               "points": [[100.12345678901234, 100.1], [500.3333333333333, 100.00000000000001]]},
              {"id": 7, "kind": "freehand", "color": [0.0, 0.5019607843137255, 0.0, 1.0], "width": 8.0,
               "points": [[100.0, 300.0], [300.0, 300.0], [300.0, 450.0]]},
              {"id": 12, "kind": "circle", "color": [1.0, 0.0, 0.0, 1.0], "width": 6.0,
               "points": [[600.0, 200.0], [800.0, 400.0]]}
            ]}
            """
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        let written = try? SavedStroke.read(file)
        withPersistentApp(file: file) { app in
            try app.expectScreen("a blue line, a green freehand stroke and a red circle") { pixel in
                pixel(300, 100) == Pixel(red: 0, green: 0, blue: 255) && pixel(200, 300) == Pixel(red: 0, green: 128, blue: 0)
                    && pixel(300, 400) == Pixel(red: 0, green: 128, blue: 0) && pixel(800, 300) == .red
                    && pixel(700, 300) == .white
            }
            // One more line, so the app writes the file itself.
            try app.drawLine(0, from: (100, 600), to: (400, 600))
            let saved = try app.waitForFile(strokes: 4)
            #expect(Array(saved.prefix(3)) == written, "\(saved)")
            #expect(saved[3].id == 41, "a new stroke gets the next id")
            // Bit for bit: the numbers come back in the same shortest decimal form. (Foundation's
            // JSON parser misrounds some 17-digit numbers on Linux, so compare the text.)
            let savedText = String(decoding: contents(app.file) ?? Data(), as: UTF8.self)
            for number in ["100.12345678901234", "100.1", "500.3333333333333", "100.00000000000001", "0.5019607843137255", "12.5"] {
                #expect(savedText.contains(number), "\(number) in \(savedText)")
            }
        }
    }

    @Test("The default drawing is $XDG_DATA_HOME/touchtracker/drawing.json, else ~/.local/share/touchtracker/drawing.json")
    func defaultLocation() {
        withPersistentApp(launch: false) { app in
            try app.launch()
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            try app.waitForFile(strokes: 1)
            #expect(app.file == app.dataHome + "/touchtracker/drawing.json")
            _ = app.end(with: SIGTERM)
            // An empty XDG_DATA_HOME counts as unset.
            let home = app.session.runtimeDirectory + "/home"
            try app.launch(environment: ["XDG_DATA_HOME": "", "HOME": home])
            try app.drawLine(0, from: (100, 200), to: (400, 200))
            // The app has the finished line before it is told to quit (a busy machine may not
            // have delivered the lift yet), and saves it on SIGTERM.
            try app.expectScreen("the finished line") { pixel in pixel(250, 200) == .black }
            _ = app.end(with: SIGTERM)
            #expect(try SavedStroke.read(home + "/.local/share/touchtracker/drawing.json").count == 1)
        }
    }
}
