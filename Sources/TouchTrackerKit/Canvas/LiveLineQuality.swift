// How smoothly the lines under moving fingers are drawn. Cairo rasterizes an antialiased line at
// about 850 instructions per pixel row it crosses plus about 18 per pixel it covers, so ten
// fingers dragging lines across a large canvas cost over a millisecond a frame, and a flood of
// input then waits for frames. Past a budget, a frame that answers motion draws its live lines
// without smoothing (a quarter to a third of the cost); once the fingers have rested briefly the
// lines are drawn smooth again. Ten fingers drawing as hands do stay well under the budget.
import TouchKit

struct LiveLineQuality {
    /// What a frame may spend on live lines drawn smooth, in pixel rows (see ``cost(of:scale:)``):
    /// about half a millisecond of Cairo's work. The benchmark's ten fingers cost 500 to 700; its
    /// ramp stream, fingers flying across a 1920x1080 canvas, 2,500 to 4,000.
    static let budget = 2_000.0

    /// Cairo's work for a live line, in pixel rows: the rows it crosses, and its pixels at 48 to a
    /// row.
    static func cost(of line: Stroke, scale: Double) -> Double {
        line.bounds.height * scale + line.pathLength * line.width * scale * scale / 48
    }
    /// How long after the last motion drafted lines are drawn smooth again.
    static let settleDelay = 0.05

    /// When a live line last moved (the app's clock).
    private(set) var lastMotion = -Double.infinity
    /// Whether a frame since the lines last settled was drafted (they then need a smooth redraw).
    private(set) var hasDrafted = false
    /// The pending smooth redraw.
    private var polish: TimerToken?

    mutating func lineMoved(at time: Double) { lastMotion = time }

    /// The smoothing for a frame at `time` whose live lines cost `cost`.
    mutating func antialiasing(cost: Double, at time: Double) -> Antialiasing {
        guard cost > Self.budget, time - lastMotion < Self.settleDelay else { return .fast }
        hasDrafted = true
        return .draft
    }

    /// Schedules `redraw` (which marks the live lines dirty) once the lines have rested for
    /// ``settleDelay``, if a frame was drafted; further motion pushes it back.
    mutating func schedulePolish(on clock: Clock, _ redraw: @escaping () -> Void) {
        guard hasDrafted, polish == nil else { return }
        polish = clock.schedule(at: lastMotion + Self.settleDelay) { redraw() }
    }

    /// Called by the polish timer: true when the lines rested long enough to be drawn smooth;
    /// false when they moved since (schedule again).
    mutating func polishFired(at time: Double) -> Bool {
        polish = nil
        guard time - lastMotion >= Self.settleDelay - 1e-9 else { return false }
        hasDrafted = false
        return true
    }

    mutating func reset() {
        polish?.cancel()
        polish = nil
        hasDrafted = false
    }
}
