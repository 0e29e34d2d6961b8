// The ramp: a random multi-finger stream (up to ten fingers landing, moving fast in random
// directions and lifting at random; fixed seed) at a rising rate of touch events, until the
// client falls behind: bytes queue up on its socket (the plugin's `backlog`), or input waits more
// than 2 ms for a commit (more than 1 % of the step's frames, and more than 3 of them: a short
// step at a low rate has too few frames for its p99 to be more than its third-worst frame, which
// one scheduling hiccup of a busy machine decides), or it is gone. The highest rate that held is then
// held again for the full time (30 s unless --ramp-hold says otherwise); if that fails, the rate
// below it is tried. Rates count touch point events (down, motion, up), not frames. Frames due
// together are written to the plugin in one go (so the injector keeps up at any rate); a step the
// injector itself could not keep up with says so.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness

/// What a ramp injects: frames of touch point events, as `touch batch` commands.
protocol RampStream {
    /// Touch point events (down, motion, up) in the frames made so far.
    var events: Int { get }
    /// Touch point events per frame, on average: the frame rate that gives a rate of events.
    static var eventsPerFrame: Double { get }
    mutating func frame(at time: Double, dt: Double) -> String
    mutating func resetCount()
    mutating func liftAll() -> String?
    /// Whether the app shows nothing for frame `n` (counted from the last ``resetCount()``) until
    /// a later frame: a finger landing, which the double tap holds until it moves (A3).
    func landsAlone(_ n: Int) -> Bool
}

extension RampStream {
    func landsAlone(_ n: Int) -> Bool { false }
}

/// Up to ten fingers moving at random, as `touch batch` commands, one per frame.
struct RandomStream: RampStream {
    /// About six fingers are down on average.
    static let eventsPerFrame = 6.0

    private struct Finger {
        var down = false
        var x = 0.0, y = 0.0, vx = 0.0, vy = 0.0
        var liftAt = 0.0
    }

    let area: Area
    private var fingers = [Finger](repeating: Finger(), count: 10)
    private var rng: SeededRandom
    private(set) var events = 0

    init(area: Area, seed: UInt64) {
        self.area = area
        rng = SeededRandom(seed: seed)
    }

    /// The frame at `time` seconds of device time, `dt` after the last. Finger 0 lands in the
    /// first frame and never lifts, so every later frame moves at least one finger: each frame
    /// has something to show (a frame of ups alone would get no commit from
    /// weston-simple-touch, and a finger landing alone waits for the app's double-tap
    /// recognizer to fail before it draws).
    mutating func frame(at time: Double, dt: Double) -> String {
        var command = "touch batch"
        var shown = false
        var free: Int?
        for i in fingers.indices {
            var f = fingers[i]
            if !f.down {
                free = free ?? i
                guard i == 0 || Double.random(in: 0..<1, using: &rng) < min(1, dt * 8) else { continue }
                command += land(&f, i, time)
                shown = true
            } else if time >= f.liftAt, i != 0 {
                f.down = false
                command += " u \(i)"
            } else {
                f.x += f.vx * dt
                f.y += f.vy * dt
                if f.x < area.x + 2 || f.x > area.x + area.width - 2 { f.vx = -f.vx }
                if f.y < area.y + 2 || f.y > area.y + area.height - 2 { f.vy = -f.vy }
                (f.x, f.y) = area.clamp(f.x, f.y)
                command += " m \(i) \(fixed2(f.x)) \(fixed2(f.y))"
                shown = true
            }
            events += 1
            fingers[i] = f
        }
        if !shown, let i = free {
            var f = fingers[i]
            command += land(&f, i, time)
            fingers[i] = f
            events += 1
        }
        return command + " f"
    }

    private mutating func land(_ f: inout Finger, _ i: Int, _ time: Double) -> String {
        (f.x, f.y) = area.randomPoint(inset: 4, using: &rng)
        let angle = Double.random(in: 0..<(2 * Double.pi), using: &rng)
        let speed = Double.random(in: 200...2500, using: &rng)
        (f.vx, f.vy) = (speed * cos(angle), speed * sin(angle))
        f.liftAt = time + Double.random(in: 0.1...1.5, using: &rng)
        f.down = true
        return " d \(i) \(fixed2(f.x)) \(fixed2(f.y))"
    }

    mutating func resetCount() { events = 0 }

    mutating func liftAll() -> String? {
        var command = "touch batch"
        for i in fingers.indices where fingers[i].down {
            command += " u \(i)"
            fingers[i].down = false
        }
        return command == "touch batch" ? nil : command + " f"
    }
}

func fixed2(_ v: Double) -> String { String(format: "%.2f", v) }

struct RampStep {
    var rate: Double
    var seconds: Double
    /// Touch point events sent per second, as achieved.
    var achieved: Double
    var commitP99: Double
    var frames = 0
    /// Frames whose commit came more than 2 ms after their input.
    var late = 0
    /// The app's frames of a finger landing alone, left out of `frames`, `late` and the p99.
    var landings = 0
    var maxBacklog: Int
    /// Weston's repaints while recording, and how many of them repainted the whole output (a
    /// finger landing on a window makes Weston's shells damage it whole), which hold every
    /// client's commit for as long as they take.
    var repaints = (all: 0, whole: 0)
    var failure: String?
    /// With --breakdown: the app's own share of each frame (reading the input to the commit) and
    /// that share's CPU time, so a late frame tells whether the app was slow or waited.
    var appShare: (wall: Latencies, cpu: Latencies)?
    /// With --breakdown: where the late frames' time went.
    var lateFrames: LateFrames?
    var held: Bool { failure == nil }
}

struct RampRun {
    var name: String
    var steps: [RampStep] = []
    /// The highest rate held for the full hold time, and that time.
    var heldRate: Double?
    var holdSeconds: Double
}

extension TouchTrackerBench {
    static let rampRates: [Double] = [250, 500, 1_000, 2_000, 3_000, 4_000, 5_000, 6_500, 8_000, 10_000, 12_500, 15_000,
                                      20_000, 25_000, 30_000, 40_000, 50_000]
    /// A client whose socket holds more than this many unread bytes is falling behind (one
    /// ten-finger frame is under 500 bytes).
    static let backlogLimit = 32_768

    func measureRamp<Stream: RampStream>(_ client: Client, rates: [Double], stepSeconds: Double, holdSeconds: Double,
                                         stream: @escaping (Area) -> Stream) throws -> RampRun {
        var run = RampRun(name: client.name, holdSeconds: holdSeconds)
        var passed: [Double] = []
        // Each step in a fresh client: a step that failed leaves it behind or gone.
        for rate in rates {
            var step = try rampStep(client, rate: rate, seconds: stepSeconds, stream: stream)
            // The p99 of a short step can be one scheduling hiccup of a busy machine: a step that
            // failed on latency alone gets a second try.
            if let failure = step.failure, failure.hasPrefix("input") {
                report(step, name: run.name + " (first try)")
                step = try rampStep(client, rate: rate, seconds: stepSeconds, stream: stream)
            }
            run.steps.append(step)
            report(step, name: run.name)
            guard step.held else { break }
            passed.append(rate)
        }
        for rate in passed.reversed().prefix(3) {
            let step = try rampStep(client, rate: rate, seconds: holdSeconds, stream: stream)
            run.steps.append(step)
            report(step, name: run.name)
            if step.held {
                run.heldRate = rate
                break
            }
        }
        return run
    }

    private func report(_ step: RampStep, name: String) {
        say("  \(pad(name, 40)) \(pad(String(format: "%.0f/s for %.1f s", step.rate, step.seconds), 20)) sent \(pad(String(format: "%.0f/s", step.achieved), 9))"
            + " p99 input→commit \(pad(formatMs(step.commitP99) + " ms", 10)) after 2 ms \(pad("\(step.late)/\(step.frames)" + (step.landings > 0 ? " +\(step.landings) landing" : ""), 11)) backlog max \(pad("\(step.maxBacklog) B", 9)) "
            + "whole-output repaints \(pad("\(step.repaints.whole)/\(step.repaints.all)", 8)) " + (step.failure.map { "FELL BEHIND: \($0)" } ?? "held"))
        if let (wall, cpu) = step.appShare {
            say("    the app's share, read→commit: p50 \(formatMs(wall.p50)) p99 \(formatMs(wall.p99)) max \(formatMs(Double(wall.max) / 1000)) ms, over 2 ms \(wall.count(above: 2_000))/\(wall.totalCount);"
                + " on the CPU: p50 \(formatMs(cpu.p50)) p99 \(formatMs(cpu.p99)) max \(formatMs(Double(cpu.max) / 1000)) ms")
        }
        if let late = step.lateFrames, late.count > 0 { say("    \(late.summary)") }
    }

    func rampStep<Stream: RampStream>(_ client: Client, rate: Double, seconds: Double,
                                      stream makeStream: (Area) -> Stream) throws -> RampStep {
        let running = try start(client, extraArguments: breakdown && client.isApp ? ["--latency"] : [])
        defer { finish(running) }
        let control = running.session.control
        var stream = makeStream(running.area)
        let frameRate = rate / Stream.eventsPerFrame
        let dt = 1 / frameRate
        var step = RampStep(rate: rate, seconds: seconds, achieved: 0, commitP99: 0, maxBacklog: 0)
        // Warm-up, not recorded: the first fingers land and move, so the app is drawing (a finger
        // that only lands waits a quarter of a second for the double-tap to fail, longer than
        // `settle` waits for quiet), and its one-time costs are paid.
        var deviceTime = 0.0
        for _ in 0..<30 {
            try control.send(stream.frame(at: deviceTime, dt: dt))
            deviceTime += dt
            usleep(2_000)
        }
        try settle(running.session, pid: running.pid)
        stream.resetCount()
        try control.send("latency start \(running.pid)")
        let begin = tt_monotonic_now()
        var nextBacklog = begin + 0.1
        do {
            while tt_monotonic_now() - begin < seconds {
                // Every frame due by now, in one write.
                let now = tt_monotonic_now()
                var due: [String] = []
                while begin + Double(stream.events) / rate <= now, due.count < 200 {
                    due.append(stream.frame(at: deviceTime, dt: dt))
                    deviceTime += dt
                }
                if !due.isEmpty { try control.sendAll(due) }
                if now >= nextBacklog {
                    nextBacklog = now + 0.1
                    guard let backlog = Int(try control.send("backlog \(running.pid)")) else { break }
                    step.maxBacklog = max(step.maxBacklog, backlog)
                    if backlog > Self.backlogLimit {
                        step.failure = "\(backlog) bytes waiting on its socket after \(String(format: "%.1f", now - begin)) s"
                        break
                    }
                }
                let wait = begin + Double(stream.events) / rate
                if wait > tt_monotonic_now() { sleep(until: min(wait, nextBacklog)) }
            }
            step.achieved = Double(stream.events) / (tt_monotonic_now() - begin)
            usleep(200_000)
            try control.send("latency stop")
            // Lifted after the recording: the lift of a finger that only landed draws nothing
            // (no commit), which the step would count as a frame that never got one.
            if let lift = stream.liftAll() { try control.send(lift) }
            let reply = try control.send("latency report", timeout: 60)
            // Kept with the run's files: each frame's input, commit and repaint times, to set
            // against the app's own log (--latency) of when it read and committed.
            if keepFiles { try? reply.write(toFile: running.session.runtimeDirectory + "/latency-records.txt", atomically: false, encoding: .utf8) }
            let latency = try LatencyReport(reply)
            step.repaints = (latency.repaints, latency.wholeRepaints)
            // A finger landing alone shows nothing in the app until it moves (the double tap holds
            // it, A3), so its commit is the next frame's: how soon that frame came, not how fast
            // the app answers (weston-simple-touch draws a dot at once: all its frames count).
            let counts = { (n: Int) in !client.isApp || !stream.landsAlone(n) }
            let judged = latency.records.indices.filter(counts).map { latency.records[$0] }
            step.commitP99 = latency.commitLatencies(of: counts).p99
            step.frames = judged.count
            step.landings = latency.records.count - judged.count
            step.late = judged.count { $0.commit < $0.input || $0.commit == 0 || $0.commit - $0.input > 2_000_000 }
            if breakdown, client.isApp {
                let log = running.child.standardError
                // Frames read since the step began: the warm-up's first frame waits for the double
                // tap to fail (about a third of a second, the book's rule), and its line may be
                // logged late.
                step.appShare = appShare(inLog: log, readSince: begin)
                step.lateFrames = LateFrames(records: latency.records, appLog: log)
            }
            if step.failure == nil, step.late > max(3, step.frames / 100) {
                step.failure = "input waited over 2 ms for a commit in \(step.late) of \(step.frames) frames"
            }
            if step.failure == nil, step.achieved < rate * 0.95 {
                step.failure = String(format: "the injector reached only %.0f events/s", step.achieved)
            }
        } catch {
            step.achieved = Double(stream.events) / (tt_monotonic_now() - begin)
            step.failure = running.child.isRunning ? "\(error)" : "disconnected"
        }
        if step.failure == nil, !running.child.isRunning || running.child.standardError.contains("lost the Wayland compositor") {
            step.failure = "disconnected"
        }
        // The app reads everything the compositor sends and handles touches for a budget per
        // turn: falling behind shows as events waiting in the app, not bytes on its socket.
        if step.failure == nil, client.isApp, running.child.standardError.contains("touch input waits") {
            step.failure = "touch events waited in the app (it said so)"
        }
        return step
    }

    func reportRamp(_ runs: [RampRun], targets: inout Targets, denseName: String) {
        say("\n## Ramp summary (touch point events per second: down, motion, up)")
        for run in runs {
            let highest = run.steps.prefix { $0.held }.last?.rate
            let firstFail = run.steps.first { !$0.held }
            say(pad(run.name, 48) + "held \(run.heldRate.map { String(format: "%.0f/s for %.0f s", $0, run.holdSeconds) } ?? "no rate for \(Int(run.holdSeconds)) s")"
                + "; highest step held \(highest.map { String(format: "%.0f/s", $0) } ?? "none")"
                + (firstFail.map { String(format: "; fell behind at %.0f/s (", $0.rate) + ($0.failure ?? "") + ")" } ?? ""))
        }
        if let dense = runs.first(where: { $0.name.contains(denseName) }) {
            let held = dense.heldRate ?? 0
            targets.add(held >= 10_000, "touch events held for \(Int(dense.holdSeconds)) s on the dense drawing (random multi-finger stream): \(String(format: "%.0f", held))/s (at least 10,000/s for 30 s)"
                        + (dense.holdSeconds < 30 ? " [held only \(Int(dense.holdSeconds)) s in this run]" : ""))
        } else {
            targets.add(nil, "touch events held for 30 s on the dense drawing (not measured)")
        }
    }
}
