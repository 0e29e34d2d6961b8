// The cadence sweep: ten fingers moving together at 30 to 240 Hz on the benchmark's own clock
// (a digitizer's clock is not the display's), each frame's time moved at random by a fraction of
// the period (fixed seed), and every event of a frame injected as its own plugin command and
// answered before the next is sent: the compositor flushes each to the client on its own, so the
// client reads one frame's events over several socket reads, as from a real device. The app on
// the empty canvas and on the dense drawing, and weston-simple-touch, each at every cadence.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import TouchTrackerKit

struct CadenceResult {
    var hz: Double
    var latency: LatencyReport
}

struct CadenceRun {
    var name: String
    var drawing: CanvasDrawing?
    var results: [CadenceResult] = []
    /// Set when the client died or lost its connection during the sweep.
    var failure: String?

    func at(_ hz: Double) -> CadenceResult? { results.first { $0.hz == hz } }
}

/// `touch batch` events as separate commands: `touch down ID X Y`, `touch motion ...`,
/// `touch up ID`, `touch frame`.
func separateCommands(_ batch: String) -> [String] {
    let words = batch.split(separator: " ").dropFirst(2).map(String.init)
    var commands: [String] = []
    var i = 0
    while i < words.count {
        switch words[i] {
        case "d": commands.append("touch down \(words[i + 1]) \(words[i + 2]) \(words[i + 3])"); i += 4
        case "m": commands.append("touch motion \(words[i + 1]) \(words[i + 2]) \(words[i + 3])"); i += 4
        case "u": commands.append("touch up \(words[i + 1])"); i += 2
        default: commands.append("touch frame"); i += 1
        }
    }
    return commands
}

extension TouchTrackerBench {
    func measureCadences(_ client: Client, cadences: [Double], seconds: Double, minimumFrames: Int, jitter: Double,
                         on screen: BenchScreen? = nil, view: CanvasViewport? = nil) throws -> CadenceRun {
        var run = CadenceRun(name: client.name, drawing: client.isApp ? client.drawing : nil)
        let running = try start(client, on: screen, view: view)
        defer { finish(running) }
        let control = running.session.control
        // Ten fingers that stay down through each cadence: every recorded frame moves all ten.
        var fingers = Fingers(area: running.area, seed: 42, strokeSeconds: 1e9)
        var rng = SeededRandom(seed: 2024)
        var clock = 0.0
        func play(hz: Double, seconds: Double) throws {
            let frames = Int(seconds * hz)
            let begin = tt_monotonic_now() + 0.01
            for i in 0..<frames {
                let offset = Double.random(in: -0.5..<0.5, using: &rng) * jitter
                sleep(until: begin + (Double(i) + 0.5 + offset) / hz)
                for command in separateCommands(fingers.frame(at: clock + Double(i) / hz)) {
                    try control.send(command)
                }
            }
            clock += Double(frames) / hz
            sleep(until: begin + Double(frames) / hz + 0.15)
        }
        func lift() throws {
            if let lift = fingers.liftAll() { try control.send(lift) }
            try settle(running.session, pid: running.pid)
        }
        do {
            try play(hz: 60, seconds: 0.5)  // warm-up, not recorded
            try lift()
            for hz in cadences {
                try play(hz: hz, seconds: 0.1)  // the fingers land, not recorded
                try control.send("latency start \(running.pid)")
                try play(hz: hz, seconds: max(seconds, Double(minimumFrames) / hz))
                try control.send("latency stop")
                let latency = try LatencyReport(control.send("latency report", timeout: 60))
                try lift()
                guard running.child.isRunning else { throw HarnessError("exited") }
                run.results.append(CadenceResult(hz: hz, latency: latency))
                say("  \(pad(run.name, 48)) \(pad(String(format: "%.0f Hz", hz), 7)) input→commit p50/p99 \(formatMs(latency.toCommit.p50))/\(formatMs(latency.toCommit.p99)) ms"
                    + "  input→repaint p50/p99 \(formatMs(latency.toRepaint.p50))/\(formatMs(latency.toRepaint.p99)) ms  frames \(latency.frames), \(latency.toCommit.count(above: 2_000)) committed after 2 ms, \(latency.withoutCommit) never")
            }
        } catch {
            let log = running.child.standardError
            run.failure = running.child.isRunning ? "\(error)" : "exited: \(log.suffix(300))"
            say("  \(run.name): stopped: \(run.failure!)")
        }
        return run
    }

    func reportCadences(_ runs: [CadenceRun], reference: CadenceRun?, cadences: [Double], targets: inout Targets) {
        say("\n## Cadence sweep summary (ms; ratios to weston-simple-touch at the same cadence)")
        say("client                                          Hz    commit p50  p99     repaint p50  p99     repaint ratio p50  p99")
        for run in (reference.map { [$0] } ?? []) + runs {
            for hz in cadences {
                guard let r = run.at(hz) else {
                    say(pad(run.name, 48) + pad(String(format: "%.0f", hz), 6) + "not measured" + (run.failure.map { " (\($0.prefix(80)))" } ?? ""))
                    continue
                }
                let c = r.latency.toCommit, p = r.latency.toRepaint
                var line = pad(run.name, 48) + pad(String(format: "%.0f", hz), 6) + pad(formatMs(c.p50), 12) + pad(formatMs(c.p99), 8)
                    + pad(formatMs(p.p50), 13) + pad(formatMs(p.p99), 8)
                if run.drawing != nil, let ref = reference?.at(hz) {
                    line += pad(ratio(p.p50, ref.latency.toRepaint.p50), 19) + ratio(p.p99, ref.latency.toRepaint.p99)
                }
                say(line)
            }
        }
        for run in runs {
            let name = run.drawing?.name ?? run.name
            let measured = run.results
            guard run.failure == nil, measured.count == cadences.count else {
                targets.add(false, "cadence sweep on the \(name): the app did not get through every cadence (\(run.failure ?? "missing"))")
                continue
            }
            let worstCommit = measured.max { $0.latency.toCommit.p99 < $1.latency.toCommit.p99 }!
            let missed = measured.reduce(0) { $0 + $1.latency.withoutCommit }
            targets.add(worstCommit.latency.toCommit.p99 <= 2 && missed == 0,
                        "p99 input-to-commit, cadence sweep on the \(name): worst \(formatMs(worstCommit.latency.toCommit.p99)) ms at \(Int(worstCommit.hz)) Hz, \(missed) frames never committed (at most 2 ms at every cadence)")
            guard let reference, reference.results.count == cadences.count else {
                targets.add(nil, "input-to-repaint vs weston-simple-touch, cadence sweep on the \(name) (not measured)")
                continue
            }
            for (label, value) in [("median", { (h: Latencies) in h.p50 }), ("p99", { (h: Latencies) in h.p99 })] {
                let ratios = measured.compactMap { r in reference.at(r.hz).map { (r.hz, value(r.latency.toRepaint) / max(value($0.latency.toRepaint), 0.001)) } }
                let worst = ratios.max { $0.1 < $1.1 }!
                targets.add(worst.1 <= 1.1, "input-to-repaint \(label) vs weston-simple-touch, cadence sweep on the \(name): worst \(String(format: "%.3fx", worst.1)) at \(Int(worst.0)) Hz (at most 1.1x at every cadence)")
            }
        }
    }
}
