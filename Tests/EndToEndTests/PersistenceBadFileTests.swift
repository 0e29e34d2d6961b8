// Files that cannot be read: each kind gives one line naming the file and the problem, the file
// is moved aside with its content intact, a banner says so, and the app starts empty and saves to
// the freed path.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Persistence under Weston: unreadable files", .serialized)
struct PersistenceBadFileTests {
    struct BadFile: Sendable {
        var name: String
        /// Writes the file.
        var make: @Sendable (String) throws -> Void
        /// What the one-line message says about it.
        var problem: String
    }

    static func text(_ text: String) -> @Sendable (String) throws -> Void {
        { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    }

    static let good = """
        {"format":"touchtracker-drawing","version":1,"strokes":[
        {"id":1,"kind":"line","color":[0.0,0.0,0.0,1.0],"width":10.0,"points":[[100.0,100.0],[400.0,100.0]]},
        {"id":2,"kind":"line","color":[0.0,0.0,0.0,1.0],"width":10.0,"points":[[100.0,200.0],[400.0,300.0]]}
        ]}
        """

    static let kinds: [BadFile] = [
        BadFile(name: "truncated", make: text(String(good.prefix(good.count * 2 / 3))), problem: "(truncated?)"),
        BadFile(name: "not JSON", make: text("These are not the lines you are looking for.\n"),
                problem: "line 1, column 1: not a TouchTracker drawing: expected '{', found 'T'"),
        BadFile(name: "other JSON", make: text("{\"name\": \"shopping\", \"items\": [\"bread\"]}"),
                problem: "not a TouchTracker drawing: there is no \"format\": \"touchtracker-drawing\""),
        BadFile(name: "a newer version", make: text(good.replacingOccurrences(of: "\"version\":1", with: "\"version\":2")),
                problem: "line 1, column 44: format version 2 is newer than this TouchTracker reads (version 1)"),
        BadFile(name: "NaN coordinates", make: text(good.replacingOccurrences(of: "[400.0,300.0]", with: "[NaN,300.0]")),
                problem: "line 3, column 87: a coordinate is NaN, which is not a number"),
        BadFile(name: "an absurd width", make: text(good.replacingOccurrences(of: "\"width\":10.0", with: "\"width\":1e300")),
                problem: "stroke 1: width 1e+300 is outside (0, 1000.0]"),
        BadFile(name: "an absurd size", make: { path in
            try Data(good.utf8).write(to: URL(fileURLWithPath: path))
            truncate(path, 300_000_000)  // sparse: takes no disk space
        }, problem: "the file is 300 MB, more than the 128 MiB limit"),
        BadFile(name: "millions of points", make: text("""
            {"format":"touchtracker-drawing","version":1,"strokes":[{"id":1,"kind":"freehand","color":[0,0,0,1],"width":10,"points":[\
            \(String(repeating: "[5,5],", count: 3_000_000))[5,5]]}]}
            """), problem: "stroke 1 has more than 100000 points"),
    ]

    @Test("Each kind of unreadable file: one line on stderr, moved aside intact, a banner, an empty drawing saved in its place")
    func unreadableFiles() throws {
        let session = try WestonSession()
        defer { session.stop() }
        var passed = true
        for (n, kind) in Self.kinds.enumerated() {
            let folder = session.runtimeDirectory + "/files-\(n)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/drawing.json"
            try kind.make(file)
            let original = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
            let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: file)).read(upToCount: 1 << 20)
            let app = try PersistentApp(file: file, session: session)
            do {
                try app.launch()
                try app.expectBanner(keep: n == 0 ? NSTemporaryDirectory() + "touchtracker-unreadable-banner.png" : nil)
                // One line on standard error, naming the file and the problem.
                let lines = app.log.split(separator: "\n").filter { $0.contains("cannot read") }
                #expect(lines.count == 1, "\(kind.name): \(app.log)")
                let line = String(lines.first ?? "")
                #expect(line.hasPrefix("touchtracker: cannot read \(file): "), "\(kind.name): \(line)")
                #expect(line.contains(kind.problem), "\(kind.name): \(line)")
                // Moved aside, intact.
                let aside = files(in: folder, prefix: "drawing.unreadable-")
                #expect(aside.count == 1, "\(kind.name): \(aside)")
                let moved = folder + "/" + (aside.first ?? "none")
                #expect(line.contains("moved it to \(moved); starting with an empty drawing"), "\(kind.name): \(line)")
                #expect(try FileManager.default.attributesOfItem(atPath: moved)[.size] as? Int == original, "\(kind.name)")
                #expect(try FileHandle(forReadingFrom: URL(fileURLWithPath: moved)).read(upToCount: 1 << 20) == head, "\(kind.name)")
                // The app starts empty and saves to the original path, which no longer holds the bad file.
                try app.expectScreen("an empty canvas") { pixel in pixel(250, 100) == .white && pixel(250, 250) == .white }
                try app.drawLine(0, from: (100, 500), to: (400, 500))
                try app.expectScreen("the new line") { pixel in pixel(250, 500) == .black }
                try app.waitForFile(strokes: 1)
                #expect(app.end(with: SIGTERM) == 0)
            } catch {
                passed = false
                app.record(error)
            }
            if n == 0 { print("banner screenshot: \(NSTemporaryDirectory())touchtracker-unreadable-banner.png") }
        }
        if passed { session.removeFiles() }
    }

    @Test("Export refuses an unreadable file in one line and leaves it where it is")
    func exportLeavesBadFileAlone() throws {
        let folder = NSTemporaryDirectory() + "tt-export-bad-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/drawing.json"
        try Data("{\"format\": \"touchtracker-drawing\", \"version\": 1, \"strokes\": [".utf8).write(to: URL(fileURLWithPath: file))
        let (status, _, error) = try runTouchtracker(["export", "--file", file, "--png", folder + "/out.png"])
        #expect(status == 1)
        #expect(error.hasPrefix("touchtracker: cannot read \(file): line 1, column 62: ") && error.hasSuffix("(truncated?)\n"), "\(error)")
        #expect(error.split(separator: "\n").count == 1)
        #expect(files(in: folder, prefix: "") == ["drawing.json"])
    }
}

/// Runs the touchtracker executable without a compositor; returns status, stdout and stderr.
func runTouchtracker(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try HarnessPaths.executable("touchtracker"))
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "WAYLAND_DISPLAY")
    environment.removeValue(forKey: "DISPLAY")
    process.environment = environment.merging(extra) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output, error)
}
