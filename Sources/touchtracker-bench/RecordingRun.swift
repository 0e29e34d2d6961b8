// A recording (`touchtracker --record`) or a touchscreen trace (evtest, libinput record) as a
// latency scenario: its touch events go into Weston turn by turn, at the pace they were recorded
// (a real panel's cadence, jitter and bursts), and the app and weston-simple-touch are measured on
// the same stream. Pointer and pen entries are left out (the plugin injects touches here).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import InputReplay
import TouchKit
import CompositorHarness

extension TouchTrackerBench {
    /// The `touch raw` commands of each turn of `entries` with their time from the first, in
    /// global coordinates of a window at `origin`.
    static func touchCommands(_ entries: [RecordingEntry], origin: (x: Double, y: Double),
                              size: (width: Double, height: Double)) -> [(offset: Double, command: String)] {
        func fixed(_ v: Double) -> String { String(format: "%.3f", v) }
        func point(_ p: Point) -> String {
            fixed(origin.x + min(max(p.x, 1), size.width - 1)) + " " + fixed(origin.y + min(max(p.y, 1), size.height - 1))
        }
        return Replayer.turns(entries).compactMap { turn in
            var command = "touch raw"
            for entry in turn.entries {
                guard case .input(let event) = entry else { continue }
                switch event {
                case let .down(id, p, _, _, _) where id.source == .touchscreen: command += " d \(id.number) \(point(p))"
                case let .motion(id, p, _, _) where id.source == .touchscreen: command += " m \(id.number) \(point(p))"
                case let .up(id, _) where id.source == .touchscreen: command += " u \(id.number)"
                case .frame: command += " f"
                case .cancel(.touchscreen): command += " c"
                default: break
                }
            }
            // Frames alone (of a pointer's or a pen's events) inject nothing.
            guard command.contains(" d ") || command.contains(" m ") || command.contains(" u ") || command.hasSuffix(" c") else { return nil }
            return (turn.offset, command)
        }
    }

    /// Plays the recording at `path` into `client` at its recorded pace; its latency.
    func measureRecording(_ client: Client, path: String) throws -> LatencyReport {
        let running = try start(client)
        defer { finish(running) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let entries = try readInputFile(text, width: running.window.width, height: running.window.height)
        let commands = Self.touchCommands(entries, origin: (running.window.x, running.window.y),
                                          size: (running.window.width, running.window.height))
        guard let last = commands.last else { throw HarnessError("\(path) holds no touchscreen input") }
        let control = running.session.control
        try control.send("latency start \(running.pid)")
        let begin = tt_monotonic_now() + 0.05
        for (offset, command) in commands {
            sleep(until: begin + offset)
            try control.send(command)
        }
        sleep(until: begin + last.offset + 0.3)
        try control.send("latency stop")
        let report = try LatencyReport(control.send("latency report", timeout: 60))
        guard running.child.isRunning else { throw HarnessError("\(client.name) exited during the recording") }
        return report
    }

    func recordingScenario(_ path: String, appPath: String, targets: inout Targets) throws {
        say("\n## A recording as the input: \(path)")
        let app = try measureRecording(.app(path: appPath, drawing: .short(0)), path: path)
        let reference = noReference ? nil : try measureRecording(.reference, path: path)
        for (name, r) in [("touchtracker", app)] + (reference.map { [("weston-simple-touch", $0)] } ?? []) {
            say("  \(pad(name, 22)) input→commit p50/p99 \(formatMs(r.toCommit.p50))/\(formatMs(r.toCommit.p99)) ms"
                + "  input→repaint p50/p99 \(formatMs(r.toRepaint.p50))/\(formatMs(r.toRepaint.p99)) ms  frames \(r.frames) missed \(r.withoutCommit)/\(r.withoutRepaint)")
        }
        targets.add(app.toCommit.p99 <= 2 && app.withoutCommit == 0,
                    "p99 input-to-commit on the recording: \(formatMs(app.toCommit.p99)) ms (at most 2 ms)")
        if let reference {
            targets.add(app.toRepaint.p50 <= 1.1 * reference.toRepaint.p50,
                        "input-to-repaint median on the recording vs weston-simple-touch: \(ratio(app.toRepaint.p50, reference.toRepaint.p50)) (at most 1.1x)")
        }
    }
}
