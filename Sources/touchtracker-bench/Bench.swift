// touchtracker-bench: how fast TouchTracker answers touches at any drawing size, measured on the
// compositor's side. A private headless Weston (1920x1080, pixman, our plugin) runs the app with a
// canvas of 0, 1,000, 10,000 and 100,000 finished lines while ten fingers circle over it; the plugin
// stamps each injected touch frame, the app's next damaged commit and the end of the output repaint
// that shows it (CLOCK_MONOTONIC). The same run measures weston-simple-touch the same way.
//
//   swift run -c release touchtracker-bench            # about 3 minutes
//   swift run -c release touchtracker-bench --quick    # under a minute
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import TouchTrackerKit
import WestonHarness

@main
struct TouchTrackerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker-bench",
        abstract: "Input-to-commit and input-to-repaint latency, CPU per frame and memory of TouchTracker under headless Weston, against weston-simple-touch.")

    @Flag(help: "A short run (under a minute): shorter phases, fewer queries.")
    var quick = false

    @Option(parsing: .upToNextOption, help: "Canvas sizes in finished lines.")
    var sizes: [Int] = [0, 1_000, 10_000, 100_000]

    @Option(help: "Seconds of finger motion per phase (default 8, or 2.5 with --quick).")
    var seconds: Double?

    @Option(help: "The touchtracker executable (default: the one built beside this benchmark).")
    var app: String?

    @Flag(help: "Skip weston-simple-touch.")
    var noReference = false

    @Flag(help: "Keep each session's runtime folder (logs, the app's stderr).")
    var keepFiles = false

    @Flag(help: "Only the measurements that need no compositor (hit-testing, canvas changes).")
    var inProcessOnly = false

    @Flag(help: "Preload the canvas by injecting the lines as touches instead of opening a drawing file.")
    var injectPreload = false

    @Flag(help: "Also run the app with --latency and report its share of each frame (from reading the input to the commit) and the CPU time of that share: a frame slow on the CPU ran slowly, one slow only on the clock waited. Adds a presentation feedback per frame.")
    var breakdown = false

    static let width = 1920, height = 1080

    func run() throws {
        let seconds = self.seconds ?? (quick ? 2.5 : 8)
        let started = monotonicNow()
        let appPath = inProcessOnly ? "(not needed)" : try app ?? locateApp()
        say("touchtracker-bench: headless Weston \(Self.width)x\(Self.height) (pixman, 60 Hz), 10 fingers, \(seconds) s per phase; \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        say("app: \(appPath)")

        // Compositor-free measurements first: hit-testing and canvas changes.
        let canvas = Area(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        say("\n## Hit-testing (Drawing.stroke(near:within: 20)), in process")
        say("lines     index build   per query (index)   per query (scan all)   per change   mismatches")
        for size in sizes where size > 0 {
            let r = measureHitTesting(count: size, queries: quick ? 5_000 : 20_000, area: canvas)
            say(pad("\(size)", 9) + pad(String(format: "%.1f ms", r.indexBuildMs), 14)
                + pad(String(format: "%.2f µs", r.indexQueryUs), 20) + pad(String(format: "%.1f µs", r.scanQueryUs), 23)
                + pad(String(format: "%.2f µs", r.changeUs), 13) + "\(r.mismatches)")
        }
        say("\n## Memory per finished line (heap: strokes, id table, hit-test index), in process")
        for size in sizes where size > 0 {
            say(pad("\(size)", 9) + String(format: "%.0f bytes", measureDrawingMemory(count: size, area: canvas)))
        }
        say("\n## Canvas changes (DrawView, window-sized raster), in process")
        say("lines     add a finished line   select and deselect a line   remove a line   resize and back")
        for size in sizes {
            let r = measureCanvasChanges(count: size, area: canvas)
            say(pad("\(size)", 9) + pad(String(format: "%.3f ms", r.addMs), 22) + pad(String(format: "%.2f ms", r.selectMs), 29)
                + pad(String(format: "%.2f ms", r.removeMs), 16) + String(format: "%.1f ms", r.resizeMs))
        }

        say("\n## One touch frame, in process (ten fingers through TouchInput, painted as the host does; µs)")
        say("lines     input p50   p99      paint p50   p99      max      pixels/frame")
        for size in sizes {
            let r = measureFramePainting(count: size, width: Self.width, height: Self.height, frames: quick ? 300 : 1_200)
            say(pad("\(size)", 9) + pad("\(r.input.valueAtPercentile(50))", 12) + pad("\(r.input.valueAtPercentile(99))", 9)
                + pad("\(r.paint.valueAtPercentile(50))", 12) + pad("\(r.paint.valueAtPercentile(99))", 9) + pad("\(r.paint.max)", 9) + "\(r.pixels / max(r.frames, 1))")
        }

        if inProcessOnly { return }
        say("\n## Under Weston")
        var reference: ClientResult?
        if !noReference {
            reference = try measureClient(.reference, seconds: seconds)
        }
        var results: [ClientResult] = []
        for size in sizes {
            results.append(try measureClient(.app(path: appPath, lines: size), seconds: seconds))
        }
        report(results, reference: reference)
        say(String(format: "\n(total %.0f s)", monotonicNow() - started))
    }

    // MARK: One client under Weston

    enum Client {
        case app(path: String, lines: Int)
        case reference

        var isApp: Bool {
            if case .app = self { true } else { false }
        }

        var name: String {
            switch self {
            case .app(_, let lines): "touchtracker, \(lines) lines"
            case .reference: "weston-simple-touch"
            }
        }
    }

    struct Phase {
        var rate: Double
        var latency: LatencyReport
        /// CPU time of the whole process (every thread: the app's autosave too) and of its main
        /// thread (event loop and painting), from /proc.
        var cpuSeconds: Double
        var mainThreadSeconds: Double
        /// With --breakdown: from the app's --latency log, its share of each frame and the CPU
        /// time of that share.
        var appShare: (wall: Latencies, cpu: Latencies)?
        /// CPU time per damaged commit of the client, in ms.
        var cpuPerFrameMs: Double { latency.commits > 0 ? cpuSeconds * 1000 / Double(latency.commits) : 0 }
        var mainThreadPerFrameMs: Double { latency.commits > 0 ? mainThreadSeconds * 1000 / Double(latency.commits) : 0 }
    }

    struct ClientResult {
        var name: String
        var lines: Int
        var at60: Phase
        var at120: Phase
        var rssKiB: Int
        var peakKiB: Int
        /// VmRSS after 2.5 s without input.
        var idleKiB: Int
        var resident: ResidentMemory?
        var preloadSeconds: Double
    }

    func measureClient(_ client: Client, seconds: Double) throws -> ClientResult {
        let session = try WestonSession(WestonSession.Options(width: Self.width, height: Self.height))
        defer {
            session.stop()
            if keepFiles { say("  (files: \(session.runtimeDirectory))") } else { session.removeFiles() }
        }
        let child: ChildProcess
        let appID: String
        var lines = 0
        switch client {
        case .app(let path, let count):
            // Always a drawing file of the run's own: never the user's, and the real way a big
            // drawing reaches the app (docs/file-format.md).
            let file = session.runtimeDirectory + "/drawing.json"
            if count > 0, !injectPreload {
                let canvas = Area(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height - 130))
                try drawingFile(randomLines(count: count, in: canvas, seed: 7)).write(toFile: file, atomically: true, encoding: .utf8)
            }
            child = try session.launch(path, ["--file", file] + (breakdown ? ["--latency"] : []), name: "touchtracker")
            appID = "org.touchtracker.TouchTracker"
            lines = count
        case .reference:
            guard let path = ["/usr/bin/weston-simple-touch", "/usr/local/bin/weston-simple-touch"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw HarnessError("weston-simple-touch is not installed (apt-get install weston)")
            }
            child = try session.launch(path, [], name: "simple-touch")
            appID = "simple-touch"
        }
        let window = try session.waitForWindow(appID: appID, process: child)
        let pid = window.pid
        // Fingers stay on the canvas: clear of a client-side title bar, should there be one, and
        // of the app's toolbar and palette at the bottom (the toolbar's buttons would act).
        let bottom = client.isApp ? 130.0 : 0
        let area = Area(x: window.x, y: window.y + 40, width: window.width, height: window.height - 40 - bottom)
        try settle(session, pid: pid)

        var preload = 0.0
        if lines > 0, injectPreload {
            let start = monotonicNow()
            try inject(preloadCommands(randomLines(count: lines, in: area, seed: 7)), session: session, pid: pid)
            try settle(session, pid: pid)
            preload = monotonicNow() - start
        }
        var fingers = Fingers(area: area, seed: 42)
        var clock = 0.0
        // Warm-up, not recorded.
        _ = try play(&fingers, clock: &clock, rate: 60, seconds: 0.5, session: session, child: child, pid: pid, record: false)
        let at60 = try play(&fingers, clock: &clock, rate: 60, seconds: seconds, session: session, child: child, pid: pid, record: true)!
        let at120 = try play(&fingers, clock: &clock, rate: 120, seconds: seconds, session: session, child: child, pid: pid, record: true)!
        guard child.isRunning else {
            throw HarnessError("\(client.name) exited during the run:\n\(child.standardError)")
        }
        let rss = statusKiB(pid: pid, "VmRSS") ?? 0
        let resident = ResidentMemory(pid: pid)
        // And once the window has been left alone for a while, as most of the time.
        usleep(2_500_000)
        let result = ClientResult(name: client.name, lines: lines, at60: at60, at120: at120,
                                  rssKiB: rss, peakKiB: statusKiB(pid: pid, "VmHWM") ?? 0,
                                  idleKiB: statusKiB(pid: pid, "VmRSS") ?? 0,
                                  resident: resident,
                                  preloadSeconds: preload)
        printRow(result)
        return result
    }

    /// Fingers at `rate` Hz for `seconds`, one frame in each 1/`rate` slot (a late frame does not
    /// shift the next); then every finger lifts and the client settles.
    func play(_ fingers: inout Fingers, clock: inout Double, rate: Double, seconds: Double,
              session: WestonSession, child: ChildProcess, pid: Int32, record: Bool) throws -> Phase? {
        let control = session.control
        let logStart = breakdown ? child.standardError.utf8.count : 0
        if record { try control.send("latency start \(pid)") }
        let cpu0 = cpuSeconds(pid: pid) ?? 0, main0 = cpuSeconds(pid: pid, thread: pid) ?? 0
        let frames = Int(seconds * rate)
        let start = monotonicNow() + 0.01
        // Each frame goes at its own point of its slot: a digitizer's clock is not locked to the
        // display's, so frames meet every phase of the output's refresh. On a fixed schedule every
        // frame would meet the same phase, set by chance at start-up, and the repaint medians of
        // two clients would differ by that chance more than by their own speed. The points follow
        // the golden-ratio sequence, which covers the slot evenly (random points would leave
        // clumps and gaps that move the median by a few tenths of a millisecond from run to run).
        for i in 0..<frames {
            let offset = (Double(i) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1) * 0.9
            sleep(until: start + (Double(i) + offset) / rate)
            try control.send(fingers.frame(at: clock + Double(i) / rate))
        }
        clock += Double(frames) / rate
        // Time for the last frames to be committed and shown.
        sleep(until: start + Double(frames) / rate + 0.15)
        let cpu1 = cpuSeconds(pid: pid) ?? 0, main1 = cpuSeconds(pid: pid, thread: pid) ?? 0
        var phase: Phase?
        if record {
            try control.send("latency stop")
            phase = Phase(rate: rate, latency: try LatencyReport(control.send("latency report", timeout: 60)),
                          cpuSeconds: cpu1 - cpu0, mainThreadSeconds: main1 - main0,
                          appShare: breakdown ? appShare(inLog: String(decoding: child.standardError.utf8.dropFirst(logStart), as: UTF8.self)) : nil)
        }
        if let lift = fingers.liftAll() { try control.send(lift) }
        try settle(session, pid: pid)
        return phase
    }

    /// The app's share of each frame and its CPU time, from `--latency` lines ("read→commit 0.57 ms,
    /// 0.55 ms of it on the CPU").
    func appShare(inLog log: String) -> (wall: Latencies, cpu: Latencies) {
        var wall = makeLatencies(), cpu = makeLatencies()
        for line in log.split(separator: "\n") {
            guard let read = line.range(of: "read→commit ") else { continue }
            let rest = line[read.upperBound...]
            let fields = rest.split(separator: " ")
            guard fields.count >= 3, let w = Double(fields[0]),
                  let c = Double(fields[2]) else { continue }
            _ = wall.record(UInt64(max(1, w * 1000)))
            _ = cpu.record(UInt64(max(1, c * 1000)))
        }
        return (wall, cpu)
    }

    /// Sends `commands`, never letting more than 64 KiB of events wait for the client (libwayland
    /// disconnects a client whose socket fills up).
    func inject(_ commands: [String], session: WestonSession, pid: Int32) throws {
        for command in commands {
            try session.control.send(command)
            var waited = 0
            while let backlog = Int(try session.control.send("backlog \(pid)")), backlog > 65_536 {
                usleep(500)
                waited += 1
                if waited > 60_000 { throw HarnessError("the client stopped reading its events") }
            }
        }
    }

    /// Waits until the client has read every event and has not committed for 250 ms.
    func settle(_ session: WestonSession, pid: Int32, timeout: Double = 120) throws {
        let deadline = monotonicNow() + timeout
        var lastCommits = -1
        var quietSince = monotonicNow()
        while monotonicNow() < deadline {
            let backlog = Int(try session.control.send("backlog \(pid)")) ?? 0
            let commits = try session.commitCount()
            if backlog > 0 || commits != lastCommits { quietSince = monotonicNow() }
            lastCommits = commits
            if monotonicNow() - quietSince > 0.25 { return }
            usleep(10_000)
        }
        throw HarnessError("the client did not settle within \(timeout) s")
    }

    // MARK: Output

    func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    func printRow(_ r: ClientResult) {
        let a = r.at60.latency, b = r.at120.latency
        say("\(r.name)" + (r.preloadSeconds > 0 ? String(format: " (preloaded in %.1f s)", r.preloadSeconds) : ""))
        say("  60 Hz:  input→commit p50/p99/max \(formatMs(a.toCommit.p50))/\(formatMs(a.toCommit.p99))/\(formatMs(a.toCommit.maxMilliseconds)) ms"
            + "  input→repaint \(formatMs(a.toRepaint.p50))/\(formatMs(a.toRepaint.p99))/\(formatMs(a.toRepaint.maxMilliseconds)) ms"
            + "  frames \(a.frames) commits \(a.commits) repaints \(a.repaints) missed \(a.withoutCommit)/\(a.withoutRepaint)"
            + String(format: "  CPU %.3f ms/frame (main thread %.3f)", r.at60.cpuPerFrameMs, r.at60.mainThreadPerFrameMs))
        say("  120 Hz: input→commit p50/p99/max \(formatMs(b.toCommit.p50))/\(formatMs(b.toCommit.p99))/\(formatMs(b.toCommit.maxMilliseconds)) ms"
            + "  input→repaint \(formatMs(b.toRepaint.p50))/\(formatMs(b.toRepaint.p99))/\(formatMs(b.toRepaint.maxMilliseconds)) ms"
            + "  frames \(b.frames) commits \(b.commits) repaints \(b.repaints) missed \(b.withoutCommit)/\(b.withoutRepaint)"
            + String(format: "  CPU %.3f ms/frame (main thread %.3f)", r.at120.cpuPerFrameMs, r.at120.mainThreadPerFrameMs))
        for phase in [r.at60, r.at120] {
            guard let share = phase.appShare else { continue }
            say("  \(Int(phase.rate)) Hz, in the app (read→commit): p50/p99/max \(formatMs(share.wall.p50))/\(formatMs(share.wall.p99))/\(formatMs(share.wall.maxMilliseconds)) ms"
                + ", CPU time of it \(formatMs(share.cpu.p50))/\(formatMs(share.cpu.p99))/\(formatMs(share.cpu.maxMilliseconds)) ms, \(share.wall.totalCount) frames")
        }
        say("  memory: VmRSS \(formatMiB(r.rssKiB)) MiB" + (r.resident.map { " (" + $0.summary + ")" } ?? "")
            + ", \(formatMiB(r.idleKiB)) MiB after 2.5 s idle, VmHWM \(formatMiB(r.peakKiB)) MiB")
    }

    func report(_ results: [ClientResult], reference: ClientResult?) {
        say("\n## Summary (ms; input→commit with fingers at 60 Hz, input→repaint with fingers at 120 Hz; CPU per frame of the whole process at 120 Hz)")
        say("client                         commit p50  p99    max     repaint p50  p99    max     CPU/frame  VmRSS MiB")
        for r in (reference.map { [$0] } ?? []) + results {
            let c = r.at60.latency.toCommit, p = r.at120.latency.toRepaint
            say(pad(r.name, 31) + pad(formatMs(c.p50), 12) + pad(formatMs(c.p99), 7) + pad(formatMs(c.maxMilliseconds), 8)
                + pad(formatMs(p.p50), 13) + pad(formatMs(p.p99), 7) + pad(formatMs(p.maxMilliseconds), 8)
                + pad(String(format: "%.3f", r.at120.cpuPerFrameMs), 11) + formatMiB(r.rssKiB))
        }
        if let reference {
            say("\nratios to weston-simple-touch (touchtracker / simple-touch)")
            let rc = reference.at60.latency.toCommit, rp = reference.at120.latency.toRepaint
            for r in results {
                let c = r.at60.latency.toCommit, p = r.at120.latency.toRepaint
                say(pad(r.name, 31) + "commit p50 " + ratio(c.p50, rc.p50) + "  p99 " + ratio(c.p99, rc.p99)
                    + "  repaint p50 " + ratio(p.p50, rp.p50) + "  p99 " + ratio(p.p99, rp.p99)
                    + "  CPU/frame " + ratio(r.at120.cpuPerFrameMs, reference.at120.cpuPerFrameMs)
                    + "  VmRSS " + ratio(Double(r.rssKiB), Double(reference.rssKiB)))
            }
        }

        say("\n## Targets")
        func line(_ pass: Bool?, _ text: String) {
            say((pass == nil ? "SKIP " : pass! ? "PASS " : "FAIL ") + text)
        }
        let bySize = Dictionary(results.map { ($0.lines, $0) }, uniquingKeysWith: { a, _ in a })
        if let r = bySize[10_000] {
            let p99 = r.at60.latency.toCommit.p99
            line(p99 <= 2 && r.at60.latency.withoutCommit == 0,
                 "p99 input-to-commit at 10,000 lines: \(formatMs(p99)) ms (at most 2 ms)")
        } else {
            line(nil, "p99 input-to-commit at 10,000 lines (not measured)")
        }
        if let big = bySize[100_000], let empty = bySize[0] {
            let a = big.at60.latency.toCommit.p99, b = empty.at60.latency.toCommit.p99
            line(a <= 1.5 * b, "p99 input-to-commit at 100,000 lines \(formatMs(a)) ms vs 0 lines \(formatMs(b)) ms: \(ratio(a, b)) (at most 1.5x)")
        } else {
            line(nil, "p99 input-to-commit at 100,000 vs 0 lines (not measured)")
        }
        for r in results {
            if let reference {
                let a = r.at120.latency.toRepaint.p50, b = reference.at120.latency.toRepaint.p50
                line(a <= 1.1 * b, "input-to-repaint median at \(r.lines) lines \(formatMs(a)) ms vs weston-simple-touch \(formatMs(b)) ms: \(ratio(a, b)) (at most 1.1x)")
            } else {
                line(nil, "input-to-repaint median at \(r.lines) lines vs weston-simple-touch (not measured)")
            }
        }
        let bufferKiB = Self.width * 4 * Self.height / 1024
        let limitKiB = 3 * bufferKiB + 20 * 1024
        for r in results {
            line(r.rssKiB <= limitKiB, "resident memory at \(r.lines) lines \(formatMiB(r.rssKiB)) MiB (at most 3 buffers of \(formatMiB(bufferKiB)) MiB + 20 MiB = \(formatMiB(limitKiB)) MiB)")
        }
    }

    /// A drawing file (docs/file-format.md, version 1) of black lines as the canvas draws them.
    func drawingFile(_ lines: [(x1: Double, y1: Double, x2: Double, y2: Double)]) -> String {
        var text = "{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[\n"
        for (i, l) in lines.enumerated() {
            text += "{\"id\":\(i + 1),\"kind\":\"line\",\"color\":[0.0,0.0,0.0,1.0],\"width\":\(DrawView.lineWidth),"
                + "\"points\":[[\(l.x1),\(l.y1)],[\(l.x2),\(l.y2)]]}" + (i + 1 < lines.count ? ",\n" : "\n")
        }
        return text + "]}\n"
    }

    func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2fx", a / b) : "n/a" }

    // MARK: The app

    /// The touchtracker built beside this benchmark, (re)built first when missing or older than the
    /// sources, so that `swift run -c release touchtracker-bench` measures the current app.
    func locateApp() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let directory = me.deletingLastPathComponent()
        let path = directory.appendingPathComponent("touchtracker").path
        if FileManager.default.isExecutableFile(atPath: path), !isStale(path) { return path }
        let configuration = directory.lastPathComponent  // release or debug
        let scratch = directory.deletingLastPathComponent().deletingLastPathComponent().path
        say("touchtracker-bench: building touchtracker (\(configuration)) first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "-c", configuration, "--product", "touchtracker", "--scratch-path", scratch]
        process.currentDirectoryURL = URL(fileURLWithPath: HarnessPaths.packageRoot)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("could not build touchtracker; run: swift build -c \(configuration) --product touchtracker")
        }
        return path
    }

    /// Whether any source file is newer than the executable at `path`.
    func isStale(_ path: String) -> Bool {
        guard let built = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        else { return true }
        let root = HarnessPaths.packageRoot
        guard let files = FileManager.default.enumerator(atPath: root + "/Sources") else { return false }
        for case let file as String in files where file.hasSuffix(".swift") && !file.hasPrefix("touchtracker-bench") {
            if let date = (try? FileManager.default.attributesOfItem(atPath: root + "/Sources/" + file))?[.modificationDate] as? Date,
               date > built { return true }
        }
        return false
    }
}
