// The soak (--soak [MINUTES], 10 by default; not part of the default run): the app on the dense
// drawing under a long random mix of what hands do (fixed seed): up to ten fingers drawing,
// taps, double taps, long-press drags (0.6 s hold, then a move), three-finger swipes up, and
// cancels; each clear is undone (Ctrl+Z), so the drawing stays dense. VmRSS is sampled every
// 5 s. At the end every finger lifts, Escape closes any menu or palette, and a screenshot must
// show no red on the canvas: red is only ever a line in progress, so red left over is a stuck
// touch.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness

struct SoakResult {
    var minutes: Double
    var actions: [String: Int] = [:]
    var events = 0
    var disconnected: String?
    var rssSamples: [(seconds: Double, kib: Int)] = []
    var redPixels = -1

    /// VmRSS growth after the first minute: the lowest sample of the last 30 s against the
    /// lowest of the first minute's second half. The lowest, because a third window buffer comes
    /// and goes with bursts of input (docs/frame.md, Buffers): growth that stays is what
    /// counts.
    var growthKiB: Int? {
        guard let last = rssSamples.last, last.seconds > 90 else { return nil }
        let base = rssSamples.filter { $0.seconds > 30 && $0.seconds <= 60 }.map(\.kib).min()
        let end = rssSamples.filter { $0.seconds > last.seconds - 30 }.map(\.kib).min()
        guard let base, let end else { return nil }
        return end - base
    }
}

extension TouchTrackerBench {
    func soak(_ client: Client, minutes: Double, targets: inout Targets) throws {
        say("\n## Soak: \(client.name), \(String(format: "%.1f", minutes)) min of mixed gestures")
        let running = try start(client)
        defer { finish(running) }
        let control = running.session.control
        let area = running.area
        var rng = SeededRandom(seed: 555)
        var result = SoakResult(minutes: minutes)
        let begin = tt_monotonic_now()
        var nextSample = begin
        func point() -> (Double, Double) { area.randomPoint(inset: 30, using: &rng) }
        func send(_ command: String) throws {
            try control.send(command)
            result.events += command.split(separator: " ").filter { ["d", "m", "u", "down", "motion", "up"].contains($0) }.count
        }
        /// Frames at 120 Hz for `seconds`, each from `frame(t)` (t from 0 to 1).
        func frames(_ seconds: Double, _ frame: (Double) -> String) throws {
            let n = max(1, Int(seconds * 120))
            let start = tt_monotonic_now()
            for i in 1...n {
                sleep(until: start + Double(i) / 120)
                try send(frame(Double(i) / Double(n)))
            }
        }
        func sample() {
            let now = tt_monotonic_now()
            guard now >= nextSample else { return }
            nextSample = now + 5
            if let kib = statusKiB(pid: running.pid, "VmRSS") { result.rssSamples.append((now - begin, kib)) }
        }
        do {
            while tt_monotonic_now() - begin < minutes * 60 {
                sample()
                guard running.child.isRunning else { throw HarnessError("exited") }
                let kind = Int.random(in: 0..<100, using: &rng)
                switch kind {
                case 0..<45:  // fingers drawing
                    let count = Int.random(in: 1...10, using: &rng)
                    let starts = (0..<count).map { _ in point() }
                    let ends = (0..<count).map { _ in point() }
                    try send("touch batch" + starts.enumerated().map { " d \($0) \(fixed2($1.0)) \(fixed2($1.1))" }.joined() + " f")
                    try frames(Double.random(in: 0.2...1.2, using: &rng)) { t in
                        "touch batch" + (0..<count).map { i in
                            " m \(i) \(fixed2(starts[i].0 + (ends[i].0 - starts[i].0) * t)) \(fixed2(starts[i].1 + (ends[i].1 - starts[i].1) * t))"
                        }.joined() + " f"
                    }
                    try send("touch batch" + (0..<count).map { " u \($0)" }.joined() + " f")
                    result.actions["draw", default: 0] += 1
                case 45..<60:  // a tap: selects a line (and shows the menu) or deselects
                    let p = point()
                    try send("touch batch d 0 \(fixed2(p.0)) \(fixed2(p.1)) f")
                    usleep(50_000)
                    try send("touch batch u 0 f")
                    result.actions["tap", default: 0] += 1
                case 60..<66:  // a double tap: clears
                    let p = point()
                    for _ in 0..<2 {
                        try send("touch batch d 0 \(fixed2(p.0)) \(fixed2(p.1)) f")
                        usleep(50_000)
                        try send("touch batch u 0 f")
                        usleep(100_000)
                    }
                    // Ctrl+Z brings the dense drawing back (and rebuilds the whole line cache).
                    usleep(400_000)
                    for (code, state) in [(29, "down"), (44, "down"), (44, "up"), (29, "up")] {
                        try control.send("key \(code) \(state)")
                    }
                    result.actions["double tap, then undo", default: 0] += 1
                case 66..<78:  // a long press, then a drag
                    let p = point(), q = point()
                    try send("touch batch d 0 \(fixed2(p.0)) \(fixed2(p.1)) f")
                    usleep(700_000)
                    try frames(0.5) { t in "touch batch m 0 \(fixed2(p.0 + (q.0 - p.0) * t)) \(fixed2(p.1 + (q.1 - p.1) * t)) f" }
                    try send("touch batch u 0 f")
                    result.actions["long-press drag", default: 0] += 1
                case 78..<88:  // three fingers swiping up
                    let p = point()
                    let y0 = max(p.1, area.y + 200)
                    try send("touch batch" + (0..<3).map { " d \($0) \(fixed2(p.0 + Double($0) * 50)) \(fixed2(y0))" }.joined() + " f")
                    try frames(0.15) { t in "touch batch" + (0..<3).map { " m \($0) \(fixed2(p.0 + Double($0) * 50)) \(fixed2(y0 - 150 * t))" }.joined() + " f" }
                    try send("touch batch" + (0..<3).map { " u \($0)" }.joined() + " f")
                    if Bool.random(using: &rng) {
                        try control.send("key 1 down")
                        try control.send("key 1 up")
                    }
                    result.actions["three-finger swipe up", default: 0] += 1
                default:  // fingers drawing, then the compositor cancels them
                    let count = Int.random(in: 1...4, using: &rng)
                    let starts = (0..<count).map { _ in point() }
                    try send("touch batch" + starts.enumerated().map { " d \($0) \(fixed2($1.0)) \(fixed2($1.1))" }.joined() + " f")
                    try frames(0.3) { t in "touch batch" + starts.enumerated().map { " m \($0) \(fixed2($1.0 + 80 * t)) \(fixed2($1.1 + 40 * t))" }.joined() + " f" }
                    try control.send("touch cancel")
                    result.actions["cancel", default: 0] += 1
                }
                usleep(UInt32.random(in: 0...250_000, using: &rng))
            }
            sample()
            // Every finger is up; close any menu or palette, then look for red on the canvas.
            try control.send("key 1 down")
            try control.send("key 1 up")
            try settle(running.session, pid: running.pid)
            usleep(500_000)
            let shot = try running.session.screenshot(to: running.session.runtimeDirectory + "/soak-end.png")
            result.redPixels = shot.count(.red, inX: Int(area.x)..<Int(area.x + area.width), y: Int(area.y)..<Int(area.y + area.height), tolerance: 60)
        } catch {
            result.disconnected = running.child.isRunning ? "\(error)" : "the app exited: \(running.child.standardError.suffix(300))"
        }
        if result.disconnected == nil, running.child.standardError.contains("lost the Wayland compositor") {
            result.disconnected = "lost the Wayland compositor"
        }
        say("actions: " + result.actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ", \(result.events) touch events")
        say("VmRSS (MiB) every 5 s: " + result.rssSamples.map { formatMiB($0.kib) }.joined(separator: " "))
        targets.add(result.disconnected == nil, "soak \(String(format: "%.1f", minutes)) min: no disconnect" + (result.disconnected.map { " (\($0))" } ?? ""))
        targets.add(result.disconnected == nil ? result.redPixels == 0 : false,
                    "soak: no stuck touch (red pixels on the canvas once every finger lifted: \(result.redPixels))")
        if let growth = result.growthKiB {
            targets.add(growth < 5 * 1024, "soak: VmRSS growth after the first minute \(formatMiB(growth)) MiB (under 5 MiB)")
        } else {
            targets.add(nil, "soak: VmRSS growth after the first minute (needs a soak over 1.5 min)")
        }
    }
}
