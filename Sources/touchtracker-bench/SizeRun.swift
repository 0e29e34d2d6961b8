// The size sweep under Weston: one client at a time in a private headless Weston, fingers at 60
// and 120 Hz paced by the benchmark (one `touch batch` per frame), with the plugin's latency
// records, the client's CPU time and its memory; and the helpers every phase under Weston shares
// (starting a client, settling, injecting without overflowing its socket).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import TouchTrackerKit
import CompositorHarness

extension TouchTrackerBench {
    // MARK: One client under Weston

    enum Client {
        case app(path: String, drawing: CanvasDrawing)
        case reference

        var isApp: Bool {
            if case .app = self { true } else { false }
        }

        var drawing: CanvasDrawing {
            if case .app(_, let drawing) = self { drawing } else { .empty }
        }

        var name: String {
            switch self {
            case .app(_, .short(let lines)): "touchtracker, \(lines) lines"
            case .app(_, let drawing): "touchtracker, \(drawing.name)"
            case .reference: "weston-simple-touch"
            }
        }
    }

    /// A client running in its own private headless Weston.
    struct Running {
        var session: WestonSession
        var child: ChildProcess
        var window: WindowInfo
        var pid: Int32 { window.pid }
        /// Where fingers go: the canvas, clear of a client-side title bar, should there be one,
        /// and of the app's toolbar and palette at the bottom (the toolbar's buttons would act).
        var area: Area
    }

    /// Starts `client` in a new headless Weston and waits until it has drawn and settled. The app
    /// always opens a drawing file of the run's own (never the user's): the real way a big drawing
    /// reaches it (docs/file-format.md).
    /// `preferences`: the app's preferences file, written before it starts (the zoom phase turns
    /// Fingers off there). `view`: where the drawing was left in view, so that it opens there (a
    /// line of the views file in the session's state folder).
    func start(_ client: Client, extraArguments: [String] = [], preloadFile: Bool = true, on screen: BenchScreen? = nil,
               preferences: String? = nil, view: CanvasViewport? = nil) throws -> Running {
        let screen = screen ?? self.screen
        // Weston's headless output takes its size in points: width x height pixels at this scale.
        let session = try WestonSession(WestonSession.Options(width: screen.points.width, height: screen.points.height, scale: screen.wholeScale ?? 1))
        do {
            let child: ChildProcess
            let appID: String
            switch client {
            case .app(let path, let drawing):
                let file = session.runtimeDirectory + "/drawing.json"
                if drawing.lines > 0, preloadFile {
                    let canvas = Area(x: 0, y: 0, width: Double(screen.points.width), height: Double(screen.points.height - 130))
                    try Self.writeDrawing(drawing.strokes(in: canvas), to: file)
                }
                if let preferences {
                    // Where the session's clients keep their preferences (XDG_CONFIG_HOME).
                    let folder = session.runtimeDirectory + "/config/touchtracker"
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try preferences.write(toFile: folder + "/preferences", atomically: true, encoding: .utf8)
                }
                if let view {
                    var views = DrawingViews()
                    views.set(view, for: file)
                    try views.save(to: session.runtimeDirectory + "/state/touchtracker/views")
                }
                child = try session.launch(path, ["--file", file] + extraArguments, name: "touchtracker")
                appID = "org.touchtracker.TouchTracker"
            case .reference:
                guard let path = ["/usr/bin/weston-simple-touch", "/usr/local/bin/weston-simple-touch"]
                    .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                    throw HarnessError("weston-simple-touch is not installed (apt-get install weston)")
                }
                child = try session.launch(path, [], name: "simple-touch")
                appID = "simple-touch"
            }
            let window = try session.waitForWindow(appID: appID, process: child)
            let bottom = client.isApp ? 130.0 : 0
            let area = Area(x: window.x, y: window.y + 40, width: window.width, height: window.height - 40 - bottom)
            try settle(session, pid: window.pid)
            return Running(session: session, child: child, window: window, area: area)
        } catch {
            session.stop()
            throw error
        }
    }

    /// Stops the compositor (and so the client); keeps its files with --keep-files.
    func finish(_ running: Running) {
        running.session.stop()
        if keepFiles { say("  (files: \(running.session.runtimeDirectory))") } else { running.session.removeFiles() }
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
        var drawing: CanvasDrawing
        /// "at 1000 lines", "on the dense drawing (10000 long lines)": for target lines.
        var at: String {
            if case .dense = drawing { "on the \(drawing.name)" } else { "at \(lines) lines" }
        }
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
        let running = try start(client, extraArguments: breakdown ? ["--latency"] : [], preloadFile: !injectPreload)
        defer { finish(running) }
        let session = running.session, child = running.child, pid = running.pid, area = running.area
        let lines = client.drawing.lines
        var preload = 0.0
        if lines > 0, injectPreload {
            let start = tt_monotonic_now()
            try inject(preloadCommands(randomLines(count: lines, in: area, seed: 7)), session: session, pid: pid)
            try settle(session, pid: pid)
            preload = tt_monotonic_now() - start
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
        let result = ClientResult(name: client.name, lines: lines, drawing: client.drawing, at60: at60, at120: at120,
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
        let began = tt_monotonic_now()
        if record { try control.send("latency start \(pid)") }
        let cpu0 = cpuSeconds(pid: pid) ?? 0, main0 = cpuSeconds(pid: pid, thread: pid) ?? 0
        let frames = Int(seconds * rate)
        let start = tt_monotonic_now() + 0.01
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
                          appShare: breakdown ? appShare(inLog: child.standardError, readSince: began) : nil)
        }
        if let lift = fingers.liftAll() { try control.send(lift) }
        try settle(session, pid: pid)
        return phase
    }

    /// The app's share of each frame and its CPU time, from `--latency` lines ("read→commit 0.57 ms,
    /// 0.55 ms of it on the CPU"), of the frames read at or after `readSince` (CLOCK_MONOTONIC
    /// seconds): a log holds the phases before this one too.
    func appShare(inLog log: String, readSince: Double) -> (wall: Latencies, cpu: Latencies) {
        var wall = makeLatencies(), cpu = makeLatencies()
        for line in log.split(separator: "\n") {
            guard let read = line.range(of: "read→commit ") else { continue }
            if let at = line.range(of: "read at "),
               let µs = Double(line[at.upperBound...].prefix { $0.isNumber }), µs < readSince * 1e6 { continue }
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
        let deadline = tt_monotonic_now() + timeout
        var lastCommits = -1
        var quietSince = tt_monotonic_now()
        while tt_monotonic_now() < deadline {
            let backlog = Int(try session.control.send("backlog \(pid)")) ?? 0
            let commits = try session.commitCount()
            if backlog > 0 || commits != lastCommits { quietSince = tt_monotonic_now() }
            lastCommits = commits
            if tt_monotonic_now() - quietSince > 0.25 { return }
            usleep(10_000)
        }
        throw HarnessError("the client did not settle within \(timeout) s")
    }

}
