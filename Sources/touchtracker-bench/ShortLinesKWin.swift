// The short-lines ramp under KWin (Plasma's compositor), at the benchmark's screen: the same lines
// one after another as under Weston, injected through KDE's fake input as fast as KWin takes them
// (each due batch of events sent together, one round trip per batch). Under Weston every finger
// landing makes the shell damage the whole window, so a full-screen window there is bound by the
// compositor's repaints (performance.md); a second compositor tells what is Weston's. No plugin
// stamps KWin's events and its fake input's timestamps are not the monotonic clock, so a step is
// judged by the app's own log (`--latency`): its share of each frame (reading the input to the
// commit) at most 2 ms, how soon its last commit followed the last event, and, once it quits,
// whether its file holds every line. weston-simple-touch runs beside it, its figures from its
// protocol log.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import KWinHarness
import TouchTrackerKit

struct KWinShortLinesStep {
    var rate: Double
    var seconds: Double
    /// Lines sent per second, as achieved.
    var achieved = 0.0
    var frames = 0
    /// Frames whose share (read→commit) was over 2 ms.
    var late = 0
    var shareP99 = 0.0
    var cpuP99: Double?
    /// From sending the last batch of events to the client's last commit.
    var lastCommitAfter: Double?
    /// Lines the app's file held once it quit, and the lines drawn (warm-up and step).
    var kept: (held: Int, drawn: Int)?
    /// KWin's CPU time over the step, in seconds per second.
    var compositorLoad: Double?
    var failure: String?
    var held: Bool { failure == nil }
}

extension TouchTrackerBench {
    func shortLinesUnderKWin(appPath: String, targets: inout Targets) throws {
        let step = rampStep ?? (quick ? 1.5 : 3), hold = rampHold ?? (quick ? 5 : 30)
        let points = screen.points
        say("\n## Short-lines ramp under KWin 5.27 (\(points.width)x\(points.height) points at scale \(screen.scaleName)): "
            + "lines one after another through KDE's fake input, \(step) s a step; the highest rate that held, held \(hold) s")
        say("Judged by the client's own figures: its share of a frame (read→commit) over 2 ms in more than 1 % of frames, "
            + "a last commit over 100 ms after the last event, or (the app) a line missing from its file.")
        let session: KWinSession
        do {
            session = try KWinSession(KWinSession.Options(width: points.width, height: points.height, scale: screen.scale))
        } catch {
            say("not measured: \(error)")
            targets.add(nil, "short lines under KWin at \(screen) (not measured: the session did not start)")
            return
        }
        defer { session.stop() }
        var runs: [(name: String, held: Double?, steps: [KWinShortLinesStep])] = []
        if !noReference { runs.append(kwinShortLinesRun(session, appPath: nil, stepSeconds: step, holdSeconds: hold)) }
        runs.append(kwinShortLinesRun(session, appPath: appPath, stepSeconds: step, holdSeconds: hold))
        say("\n## Short-lines ramp under KWin, summary (lines per second)")
        for run in runs {
            let highest = run.steps.prefix { $0.held }.last?.rate
            let firstFail = run.steps.first { !$0.held }
            say(pad(run.name, 24) + "held \(run.held.map { String(format: "%.0f/s for %.0f s", $0, hold) } ?? "no rate for \(Int(hold)) s")"
                + "; highest step held \(highest.map { String(format: "%.0f/s", $0) } ?? "none")"
                + (firstFail.map { String(format: "; fell behind at %.0f/s (", $0.rate) + ($0.failure ?? "") + ")" } ?? ""))
        }
        guard let app = runs.last else { return }
        let held = app.held ?? 0
        targets.add(held >= 2_000, "short lines held for \(Int(hold)) s under KWin at \(screen): \(String(format: "%.0f", held))/s "
                    + "(at least 2,000/s for 30 s; the app's share p99 at most 2 ms)"
                    + (hold < 30 ? " [held only \(Int(hold)) s in this run]" : ""))
        let lost = app.steps.contains { $0.failure == "disconnected" || ($0.kept.map { $0.held != $0.drawn } ?? false) }
        targets.add(!lost, "no rate of short lines under KWin disconnects the app or loses a line" + (lost ? ": one did" : ""))
    }

    /// Rising rates until a step fails (a step failing on its share alone gets a second try), then
    /// the highest rates that held, held for `holdSeconds`.
    private func kwinShortLinesRun(_ session: KWinSession, appPath: String?, stepSeconds: Double,
                                   holdSeconds: Double) -> (name: String, held: Double?, steps: [KWinShortLinesStep]) {
        let name = appPath == nil ? "weston-simple-touch" : "touchtracker"
        say(name + ":")
        var steps: [KWinShortLinesStep] = [], passed: [Double] = []
        func run(_ rate: Double, _ seconds: Double) -> KWinShortLinesStep {
            let step = kwinShortLinesStep(session, appPath: appPath, rate: rate, seconds: seconds)
            reportKWinShortLines(step)
            try? session.reset()
            return step
        }
        for rate in Self.shortLineRates {
            var step = run(rate, stepSeconds)
            if let failure = step.failure, failure.hasPrefix("share") { step = run(rate, stepSeconds) }
            steps.append(step)
            guard step.held else { break }
            passed.append(rate)
        }
        for rate in passed.reversed().prefix(3) {
            let step = run(rate, holdSeconds)
            steps.append(step)
            if step.held { return (name, rate, steps) }
        }
        return (name, nil, steps)
    }

    private func reportKWinShortLines(_ step: KWinShortLinesStep) {
        say("  " + pad(String(format: "%.0f/s for %.1f s", step.rate, step.seconds), 20) + " sent " + pad(String(format: "%.0f/s", step.achieved), 8)
            + " share p99 " + pad(formatMs(step.shareP99) + " ms", 10) + " over 2 ms " + pad("\(step.late)/\(step.frames)", 11)
            + (step.cpuP99.map { " CPU p99 " + pad(formatMs($0) + " ms", 9) } ?? "")
            + " last commit " + pad(step.lastCommitAfter.map { formatMs(max(0, $0) * 1000) + " ms after" } ?? "none", 16)
            + (step.compositorLoad.map { String(format: " KWin's CPU %3.0f %%", $0 * 100) } ?? "")
            + (step.kept.map { " lines kept \($0.held)/\($0.drawn) " } ?? " ")
            + (step.failure.map { "FELL BEHIND: \($0)" } ?? "held"))
    }

    private func kwinShortLinesStep(_ session: KWinSession, appPath: String?, rate: Double, seconds: Double) -> KWinShortLinesStep {
        var step = KWinShortLinesStep(rate: rate, seconds: seconds)
        let file = session.runtimeDirectory + "/bench-short-lines.json"
        unlink(file)
        let child: ChildProcess
        let area: Area
        do {
            if let appPath {
                child = try session.launch(appPath, ["--file", file, "--latency"], name: "touchtracker", environment: [:])
                let w = try session.appWindow(process: child, appID: "org.touchtracker.TouchTracker")
                // The canvas: below the title bar, above the toolbar.
                area = Area(x: w.x, y: w.y + 40, width: w.width, height: w.height - 40 - 130)
            } else {
                child = try session.launch("/usr/bin/weston-simple-touch", [], name: "weston-simple-touch", environment: ["WAYLAND_DEBUG": "client"])
                let w = try session.appWindow(process: child, appID: "simple-touch")
                area = Area(x: w.x, y: w.y, width: w.width, height: w.height)
            }
        } catch {
            step.failure = "did not start: \(error)"
            return step
        }
        defer { child.stop() }
        var stream = ShortLinesStream(area: area, seed: 91)
        func send(_ commands: [String]) throws {
            var events: [FakeTouch] = []
            for command in commands {
                for event in parseTouchCommand(command) {
                    switch event {
                    case .down(let id, let p): events.append(.down(id: Int(id.number), x: p.x, y: p.y))
                    case .motion(let id, let p): events.append(.motion(id: Int(id.number), x: p.x, y: p.y))
                    case .up(let id): events.append(.up(id: Int(id.number)))
                    case .frame, .cancel: break
                    }
                }
            }
            try session.touchFrames(events)
        }
        let clock = PeerLatencies.clocksNow()
        let lineRate = rate * ShortLinesStream.eventsPerLine
        var lastSent = 0.0
        do {
            // Warm-up, not judged: ten lines, then quiet until the client is idle.
            for _ in 0..<30 {
                try send([stream.frame(at: 0, dt: 0)])
                usleep(3_000)
            }
            waitForIdle(child.pid)
            let logStart = child.standardError.utf8.count
            stream.resetCount()
            let begin = tt_monotonic_now()
            let compositorCPU = session.compositorPID.flatMap { cpuSeconds(pid: $0) }
            while tt_monotonic_now() - begin < seconds {
                let now = tt_monotonic_now()
                var due: [String] = []
                while begin + Double(stream.events) / lineRate <= now, due.count < 300 {
                    due.append(stream.frame(at: 0, dt: 0))
                }
                if !due.isEmpty {
                    lastSent = tt_monotonic_now()
                    try send(due)
                }
                let wait = begin + Double(stream.events) / lineRate
                if wait > tt_monotonic_now() { sleep(until: wait) }
            }
            // The line in progress finished, so the step draws whole lines only.
            var rest: [String] = []
            while stream.events % Int(ShortLinesStream.eventsPerLine) != 0 { rest.append(stream.frame(at: 0, dt: 0)) }
            if !rest.isEmpty {
                lastSent = tt_monotonic_now()
                try send(rest)
            }
            if let before = compositorCPU, let after = session.compositorPID.flatMap({ cpuSeconds(pid: $0) }) {
                step.compositorLoad = (after - before) / (tt_monotonic_now() - begin)
            }
            step.achieved = Double(stream.events) / ShortLinesStream.eventsPerLine / (lastSent - begin)
            usleep(500_000)
            guard child.isRunning else { throw HarnessError("disconnected") }
            let log = String(decoding: child.standardError.utf8.dropFirst(logStart), as: UTF8.self)
            if appPath != nil {
                let app = DesktopLatencies(log: log)
                step.frames = app.frames
                step.late = Int(app.share.count(above: 2_000))
                step.shareP99 = Double(app.share.valueAtPercentile(99)) / 1000
                step.cpuP99 = Double(app.cpu.valueAtPercentile(99)) / 1000
                step.lastCommitAfter = app.lastCommit.map { $0 - lastSent }
            } else {
                let peer = PeerLatencies(log: log, clock: clock)
                step.frames = peer.frames
                step.late = Int(peer.share.count(above: 2_000))
                step.shareP99 = Double(peer.share.valueAtPercentile(99)) / 1000
                step.lastCommitAfter = peer.lastCommit.map { $0 - lastSent }
            }
        } catch {
            step.failure = child.isRunning ? "\(error)" : "disconnected"
            return step
        }
        if appPath != nil {
            if child.standardError.contains("lost the Wayland compositor") {
                step.failure = "disconnected"
                return step
            }
            // Every line reaches the file: the app saves the whole drawing when it quits.
            let drawn = 10 + stream.events / Int(ShortLinesStream.eventsPerLine)
            child.signal(SIGTERM)
            _ = child.waitForExit(timeout: 30)
            let held = (try? DrawingFormat.decode(Array(FileManager.default.contents(atPath: file) ?? Data())).count) ?? 0
            step.kept = (held, drawn)
            if held != drawn { step.failure = "its file held \(held) of \(drawn) lines" }
        }
        if step.failure == nil, step.late > max(3, step.frames / 100) {
            step.failure = "share over 2 ms in \(step.late) of \(step.frames) frames"
        }
        if step.failure == nil, step.frames == 0 { step.failure = "no frame committed" }
        if step.failure == nil, (step.lastCommitAfter ?? .infinity) > 0.1 {
            step.failure = step.lastCommitAfter.map { "last commit \(formatMs($0 * 1000)) ms after the last event" } ?? "no commit after the last event"
        }
        if step.failure == nil, step.achieved < rate * 0.95 {
            step.failure = String(format: "KWin took only %.0f lines/s", step.achieved)
        }
        return step
    }
}
