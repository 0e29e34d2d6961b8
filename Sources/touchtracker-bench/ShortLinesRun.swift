// The short-lines ramp: one finger drawing short lines one after another, each its own down,
// motion and up in frames of their own, at a rising rate of lines. Most frames begin or end a
// touch, which costs a client far more per event than fingers moving: the stream a ramp of
// flying fingers does not show. Rates are lines a second; each line is three touch point events.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CompositorHarness

/// Short lines over a grid of the area, one frame per event: down, motion 24 pt on, up.
struct ShortLinesStream: RampStream {
    static let eventsPerLine = 3.0
    static let eventsPerFrame = 1.0

    let area: Area
    private var rng: SeededRandom
    private(set) var events = 0
    /// The line in progress and its start.
    private var start: (x: Double, y: Double)?
    private var moved = false

    init(area: Area, seed: UInt64) {
        self.area = area
        rng = SeededRandom(seed: seed)
    }

    mutating func frame(at time: Double, dt: Double) -> String {
        events += 1
        guard let start else {
            landings.insert(events - 1)
            let p = area.randomPoint(inset: 30, using: &rng)
            self.start = p
            moved = false
            return "touch batch d 0 \(fixed2(p.0)) \(fixed2(p.1)) f"
        }
        guard moved else {
            moved = true
            return "touch batch m 0 \(fixed2(start.x + 20)) \(fixed2(start.y + 14)) f"
        }
        self.start = nil
        return "touch batch u 0 f"
    }

    mutating func resetCount() {
        events = 0
        landings = []
    }

    /// The frames since the last reset that land a finger.
    private var landings: Set<Int> = []

    func landsAlone(_ n: Int) -> Bool { landings.contains(n) }

    mutating func liftAll() -> String? {
        guard start != nil else { return nil }
        start = nil
        return "touch batch u 0 f"
    }
}

extension TouchTrackerBench {
    /// Lines a second the short-lines ramp rises through.
    static let shortLineRates: [Double] = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]

    func reportShortLines(_ runs: [RampRun], targets: inout Targets, appName: String) {
        say("\n## Short-lines ramp summary (lines per second)")
        for run in runs {
            let highest = run.steps.prefix { $0.held }.last?.rate
            let firstFail = run.steps.first { !$0.held }
            func lines(_ events: Double) -> String { String(format: "%.0f/s", events / ShortLinesStream.eventsPerLine) }
            say(pad(run.name, 48) + "held \(run.heldRate.map { lines($0) + " for \(Int(run.holdSeconds)) s" } ?? "no rate for \(Int(run.holdSeconds)) s")"
                + "; highest step held \(highest.map(lines) ?? "none")"
                + (firstFail.map { "; fell behind at \(lines($0.rate)) (\($0.failure ?? ""))" } ?? ""))
        }
        guard let app = runs.first(where: { $0.name == appName }) else { return }
        let held = (app.heldRate ?? 0) / ShortLinesStream.eventsPerLine
        targets.add(held >= 2_000, "short lines held for \(Int(app.holdSeconds)) s at \(screen): \(String(format: "%.0f", held))/s (at least 2,000/s for 30 s)"
                    + (app.holdSeconds < 30 ? " [held only \(Int(app.holdSeconds)) s in this run]" : ""))
        let disconnected = app.steps.contains { $0.failure == "disconnected" }
        targets.add(!disconnected, "no rate of short lines disconnects the app" + (disconnected ? ": one did" : ""))
    }
}
