// When saving fails: a full disk (a file-size limit, as `ulimit -f` sets it) and a read-only
// folder. The user sees a red banner, the log says why, the previous file stays as it was, the
// drawing stays on screen, and saving resumes by itself once the disk allows it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Persistence under Weston: saving fails", .serialized)
struct PersistenceDiskTests {
    /// A drawing file of `count` lines, as the app writes it (about 100 bytes a line).
    static func drawing(lines count: Int) -> Data {
        let strokes = (0..<count).map { n in
            "{\"id\":\(n + 1),\"kind\":\"line\",\"color\":[0.0,0.0,0.0,1.0],\"width\":10.0,\"points\":[[\(600 + n * 4).0,400.0],[\(600 + n * 4).0,450.0]]}"
        }
        return Data("{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[\n\(strokes.joined(separator: ",\n"))\n]}\n".utf8)
    }

    static func seed(_ path: String, lines count: Int) throws -> Data {
        let data = drawing(lines: count)
        try data.write(to: URL(fileURLWithPath: path))
        return data
    }

    @Test("A full disk (ulimit -f): red banner, a log line, the old file intact, and saving resumes when space returns")
    func fileSizeLimit() throws {
        // The limit counts every file the app makes, its window buffers (memfd) too: a small
        // output keeps a buffer (480 x 360 x 4 bytes) under a limit a drawing file can reach.
        let session = try WestonSession(.init(width: 480, height: 360))
        defer { session.stop() }
        let app = try PersistentApp(session: session)
        do {
            try FileManager.default.createDirectory(atPath: app.dataHome + "/touchtracker", withIntermediateDirectories: true)
            // `ulimit -S -f 1400`: 1400 blocks of 512 bytes (dash's unit) = 716,800 bytes, a soft
            // limit that prlimit may raise later. The seed has as many lines as fit; one more
            // line does not.
            let limit = 1400 * 512
            var lines = limit / 110
            while Self.drawing(lines: lines + 1).count <= limit { lines += 1 }
            let seeded = try Self.seed(app.file, lines: lines)
            try app.leaveViewAtOrigin()
            #expect(seeded.count <= limit && Self.drawing(lines: lines + 1).count > limit)
            // The limit applies to the app alone. The app ignores SIGXFSZ itself, so a write past
            // the limit fails with EFBIG instead of the signal killing it.
            try app.launch(wrapper: ["/bin/sh", "-c", "ulimit -S -f 1400 && exec \"$0\" \"$@\""])
            try app.drawLine(0, from: (40, 100), to: (400, 100))
            let keep = NSTemporaryDirectory() + "touchtracker-full-disk-banner.png"
            try app.expectBanner(keep: keep)
            print("banner screenshot: \(keep)")
            #expect(app.app.isRunning)
            #expect(app.log.contains("cannot write \(app.file): File too large (a file-size limit was reached); the drawing is kept in memory and saving is retried"),
                    "\(app.log)")
            #expect(contents(app.file) == seeded, "the previous file is intact")
            #expect(files(in: app.dataHome + "/touchtracker", prefix: ".drawing.json.tmp-").isEmpty, "no temporary file left")
            // More lines while saving fails stay on screen.
            try app.drawLine(1, from: (40, 200), to: (400, 200))
            try app.expectScreen("both new lines") { pixel in pixel(250, 100) == .black && pixel(250, 200) == .black }
            // Space comes back: the banner goes and the file gets every line.
            let prlimit = Process()
            prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            prlimit.arguments = ["--pid", "\(app.app.pid)", "--fsize=unlimited"]
            let prlimitErrors = Pipe()
            prlimit.standardError = prlimitErrors
            try prlimit.run()
            let prlimitOutput = String(decoding: prlimitErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            prlimit.waitUntilExit()
            #expect(prlimit.terminationStatus == 0, "\(prlimitOutput)")
            try app.expectNoBanner()
            try app.waitForFile(strokes: lines + 2)
            #expect(app.log.contains("saved \(app.file) again"))
            #expect(app.end(with: SIGTERM) == 0)
            session.stop()
            session.removeFiles()
        } catch {
            app.record(error)
        }
    }

    @Test("A read-only folder: red banner, a log line, the old file intact, and saving resumes when it is writable again")
    func readOnlyFolder() {
        withPersistentApp(launch: false) { app in
            let folder = app.dataHome + "/touchtracker"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let seeded = try Self.seed(app.file, lines: 3)
            chmod(folder, 0o555)
            defer { chmod(folder, 0o755) }
            // Root writes anywhere; without CAP_DAC_OVERRIDE it obeys the permissions like a user.
            let wrapper = getuid() == 0
                ? ["/usr/bin/setpriv", "--inh-caps=-dac_override,-dac_read_search",
                   "--bounding-set=-dac_override,-dac_read_search", "--"]
                : []
            try app.launch(wrapper: wrapper)
            try app.expectScreen("the restored lines") { pixel in pixel(601, 425) == .black }
            try app.drawLine(0, from: (100, 100), to: (400, 100))
            try app.expectBanner()
            #expect(app.log.contains("cannot create a temporary file in \(folder): Permission denied"), "\(app.log)")
            #expect(contents(app.file) == seeded)
            chmod(folder, 0o755)
            try app.expectNoBanner()
            let saved = try app.waitForFile(strokes: 4)
            #expect(saved[3].points == [[100, 100], [400, 100]] || saved[3].points.first?.first == 100, "\(saved)")
            #expect(app.end(with: SIGTERM) == 0)
        }
    }
}
