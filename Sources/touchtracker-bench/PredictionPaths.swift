// The scripted finger paths the prediction phases drive: where a finger is at every moment, so
// that a guess (offline) or the composed picture (under Weston) can be compared with the truth.
// Speeds follow a minimum-jerk profile where a finger starts or stops, as real hands move.
import Foundation
import CompositorHarness
import TouchKit

/// A finger's path: its position at each time from 0 to `duration` seconds, in points, within
/// the box ``PredictionPaths/box`` (both clients' windows hold it); at rest after `duration`.
struct ScriptedPath: Sendable {
    let name: String
    let duration: Double
    /// Marks paths whose turns and stops are what is measured (overshoot, wrong way).
    let turns: Bool
    private let at: @Sendable (Double) -> Point

    init(name: String, duration: Double, turns: Bool, position: @escaping @Sendable (Double) -> Point) {
        self.name = name
        self.duration = duration
        self.turns = turns
        self.at = position
    }

    /// A straight line, one finger's or several's: its end's wobble across it is the jitter.
    var isLine: Bool { name.hasPrefix("line") || name.contains("fingers") }

    /// Where the finger is at `t` (held at the ends before 0 and after `duration`).
    func position(_ t: Double) -> Point { at(min(max(t, 0), duration)) }

    /// The unit direction of motion at `t` (zero at rest).
    func direction(at t: Double) -> Point {
        let a = position(t - 0.0005), b = position(t + 0.0005)
        let d = a.distance(to: b)
        return d < 1e-6 ? .zero : Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d)
    }

    /// The speed at `t`, pt/s.
    func speed(at t: Double) -> Double { position(t - 0.0005).distance(to: position(t + 0.0005)) / 0.001 }

    /// The distance along the path from its start to `t`.
    func arcLength(to t: Double, step: Double = 0.0005) -> Double {
        var length = 0.0, last = position(0), s = step
        while s <= t { let p = position(s); length += last.distance(to: p); last = p; s += step }
        return length + last.distance(to: position(t))
    }

    /// The smallest distance from `point` to the path between `from` and `to` (1 ms steps).
    func distance(from point: Point, between from: Double, and to: Double) -> Double {
        var best = Double.infinity, t = max(0, from)
        while t <= min(to, duration) { best = min(best, point.distance(to: position(t))); t += 0.001 }
        return best
    }
}

/// 0 to 1 over 0 to 1 with zero speed and acceleration at both ends.
private func minimumJerk(_ s: Double) -> Double {
    let u = min(max(s, 0), 1)
    return u * u * u * (10 - 15 * u + 6 * u * u)
}

enum PredictionPaths {
    /// The box every path stays in, in points from its top left.
    static let box = Size(width: 560, height: 420)

    /// A straight line from `origin` at `speed`, easing in and out over 60 ms.
    static func line(speed: Double, length: Double = 500, origin: Point = Point(x: 30, y: 150)) -> ScriptedPath {
        let cruise = length / speed, ease = 0.06
        let duration = cruise + ease
        return ScriptedPath(name: "line \(Int(speed)) pt/s", duration: duration, turns: false) { t in
            // Distance: half the ease's length at each end, cruise between.
            let d: Double
            if t < ease { d = speed * ease * minimumJerkIntegral(t / ease) }
            else if t > duration - ease { d = length - speed * ease * minimumJerkIntegral((duration - t) / ease) }
            else { d = speed * ease / 2 + speed * (t - ease) }
            // A slight slope, so that lines are not aligned with the pixel grid.
            let along = min(d, length)
            return Point(x: origin.x + along * 0.970_142_5, y: origin.y + along * 0.242_535_6)
        }
    }

    /// A circle of `radius` once a second for `turnsCount` turns.
    static func circle(radius: Double = 150, center: Point = Point(x: 280, y: 210), turnsCount: Double = 0.9) -> ScriptedPath {
        ScriptedPath(name: "circle r\(Int(radius)) 1/s", duration: turnsCount, turns: false) { t in
            let a = 2 * Double.pi * t
            return Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        }
    }

    /// Strokes of 200 pt back and forth, each 0.2 s with a minimum-jerk profile, sliding down
    /// far enough that each stroke lies clear of the one before (10 pt wide lines).
    static func zigzag(strokes: Int = 8) -> ScriptedPath {
        let each = 0.2
        return ScriptedPath(name: "zig-zag 200 pt", duration: each * Double(strokes), turns: true) { t in
            let k = min(Int(t / each), strokes - 1)
            let s = minimumJerk((t - Double(k) * each) / each)
            let x = k % 2 == 0 ? 150 + 200 * s : 350 - 200 * s
            return Point(x: x, y: 40 + 150 * t)
        }
    }

    /// Moves of 120 pt in 0.3 s, each followed by 0.2 s at rest.
    static func stopAndGo(moves: Int = 4) -> ScriptedPath {
        let move = 0.3, rest = 0.2
        return ScriptedPath(name: "stop-and-go", duration: Double(moves) * (move + rest), turns: true) { t in
            let k = min(Int(t / (move + rest)), moves - 1)
            let s = minimumJerk((t - Double(k) * (move + rest)) / move)
            return Point(x: 30 + 120 * (Double(k) + s), y: 380)
        }
    }

    /// A flick: from rest to 3,000 pt/s in 120 ms, lifted while still fast.
    static func flick() -> ScriptedPath {
        ScriptedPath(name: "flick", duration: 0.12, turns: false) { t in
            let s = t / 0.12
            return Point(x: 100 + 180 * s * s, y: 330 - 60 * s * s)
        }
    }

    static var all: [ScriptedPath] {
        [line(speed: 250, length: 250), line(speed: 1000), line(speed: 3000), circle(), zigzag(), stopAndGo(), flick()]
    }

    /// `count` fingers on parallel lines at 1,000 pt/s, 32 pt apart, moving together.
    static func fingers(_ count: Int) -> [ScriptedPath] {
        (0..<count).map { k in
            let line = line(speed: 1000, length: 400, origin: Point(x: 40, y: 20 + 32 * Double(k)))
            return ScriptedPath(name: "\(count) fingers 1000 pt/s", duration: line.duration, turns: false) { line.position($0) }
        }
    }

    /// The paths played under a compositor, each a group of fingers played together: every path
    /// with one finger, the turning ones several times, so that their few frames at each turn add
    /// up to a figure that means something; then two, five and ten fingers.
    static func onScreen(quick: Bool) -> [[ScriptedPath]] {
        let repeats = quick ? 3 : 5
        let one = all.flatMap { path in Array(repeating: [path], count: path.turns ? repeats : 1) }
        return one + [fingers(2), fingers(5), fingers(10)]
    }

    /// The names of the paths the report has a row for, in order.
    static var reported: [String] { all.map(\.name) + [2, 5, 10].map { fingers($0)[0].name } }
}

/// The integral of the minimum-jerk speed profile's rise: distance covered over an ease of unit
/// speed and unit time, from 0 to `s`.
private func minimumJerkIntegral(_ s: Double) -> Double {
    let u = min(max(s, 0), 1)
    // ∫ (10u³ - 15u⁴ + 6u⁵) du
    return 2.5 * pow(u, 4) - 3 * pow(u, 5) + pow(u, 6)
}

/// The samples a touchscreen reports for a path: every 1/rate s, each moved at random within
/// ±`jitter` of the period, stamped in whole milliseconds as wl_touch does, with positional noise.
struct PathSampling {
    var rate: Double
    var jitter = 0.25
    var noise = 0.15
    var seed: UInt64 = 7

    /// (time the finger was there, the time stamp the app sees, position reported).
    func samples(of path: ScriptedPath) -> [(time: Double, stamp: Double, location: Point)] {
        var rng = SeededRandom(seed: seed)
        var result: [(Double, Double, Point)] = []
        var i = 0
        while true {
            let nominal = Double(i) / rate
            guard nominal <= path.duration else { break }
            let shift = i == 0 ? 0 : Double.random(in: -jitter...jitter, using: &rng) / rate
            let t = min(max(nominal + shift, 0), path.duration)
            let p = path.position(t)
            let n = Point(x: p.x + gaussian(&rng) * noise, y: p.y + gaussian(&rng) * noise)
            result.append((t, (t * 1000).rounded(.down) / 1000, n))
            i += 1
        }
        return result
    }

    private func gaussian(_ rng: inout SeededRandom) -> Double {
        let u = Double.random(in: 1e-12..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
