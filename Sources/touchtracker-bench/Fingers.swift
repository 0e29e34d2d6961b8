// The input the benchmark injects, as lines of the plugin's `touch batch` command: ten fingers
// circling over the canvas (each lifts after a while and lands elsewhere, so finished lines keep
// being added), and batches of random finished lines to preload a canvas.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness

/// A rectangle in global compositor coordinates.
struct Area {
    var x: Double, y: Double, width: Double, height: Double

    func randomPoint(inset: Double, using rng: inout SeededRandom) -> (Double, Double) {
        let i = min(inset, width / 2 - 1, height / 2 - 1)
        return (Double.random(in: x + i...x + width - i, using: &rng), Double.random(in: y + i...y + height - i, using: &rng))
    }

    func clamp(_ px: Double, _ py: Double) -> (Double, Double) {
        (min(max(px, x + 1), x + width - 1), min(max(py, y + 1), y + height - 1))
    }
}

/// Coordinates as the plugin parses them: two decimals are plenty.
private func format(_ v: Double) -> String {
    let hundredths = Int((v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let a = abs(hundredths)
    let fraction = a % 100
    return "\(sign)\(a / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// Ten fingers (or `count`), each circling a point it landed near, lifting after `strokeSeconds`
/// (staggered, so some are always down) and landing again elsewhere on the next frame.
struct Fingers {
    private struct Finger {
        var id: Int
        var isDown = false
        var centerX = 0.0, centerY = 0.0
        var startAngle = 0.0
        var landedAt = 0.0
        var lifetime: Double
    }

    let area: Area
    let radius: Double
    /// Radians per second around the circle.
    let angularSpeed = 2 * Double.pi * 0.9
    let strokeSeconds: Double
    private var fingers: [Finger]
    private var rng: SeededRandom

    init(count: Int = 10, area: Area, seed: UInt64, strokeSeconds: Double = 1.0) {
        self.area = area
        self.strokeSeconds = strokeSeconds
        radius = min(60, area.width / 8, area.height / 8)
        rng = SeededRandom(seed: seed)
        // First strokes of different lengths, so the fingers lift at different times.
        fingers = (0..<count).map { Finger(id: $0, lifetime: strokeSeconds * Double($0 + 1) / Double(count)) }
    }

    /// The `touch batch` command for the frame at `time` seconds since the start: one event per
    /// finger, then the frame.
    mutating func frame(at time: Double) -> String {
        var command = "touch batch"
        for i in fingers.indices {
            var f = fingers[i]
            if !f.isDown {
                (f.centerX, f.centerY) = area.randomPoint(inset: radius + 4, using: &rng)
                f.startAngle = Double.random(in: 0..<(2 * Double.pi), using: &rng)
                f.landedAt = time
                f.isDown = true
                let (x, y) = position(f, at: time)
                command += " d \(f.id) \(format(x)) \(format(y))"
            } else if time - f.landedAt >= f.lifetime {
                f.isDown = false
                f.lifetime = strokeSeconds
                command += " u \(f.id)"
            } else {
                let (x, y) = position(f, at: time)
                command += " m \(f.id) \(format(x)) \(format(y))"
            }
            fingers[i] = f
        }
        return command + " f"
    }

    /// Lifts every finger that is down (nil when none is).
    mutating func liftAll() -> String? {
        var command = "touch batch"
        for i in fingers.indices where fingers[i].isDown {
            command += " u \(fingers[i].id)"
            fingers[i].isDown = false
            fingers[i].lifetime = strokeSeconds * Double(i + 1) / Double(fingers.count)
        }
        return command == "touch batch" ? nil : command + " f"
    }

    private func position(_ f: Finger, at time: Double) -> (Double, Double) {
        let angle = f.startAngle + angularSpeed * (time - f.landedAt)
        return area.clamp(f.centerX + radius * cos(angle), f.centerY + radius * sin(angle))
    }
}

/// Random straight lines, 20 to 150 points long, anywhere in `area`, with their ends on the 1/256 pt
/// grid of touch coordinates (wl_fixed), as in any drawing made with the app.
func randomLines(count: Int, in area: Area, seed: UInt64) -> [(x1: Double, y1: Double, x2: Double, y2: Double)] {
    var rng = SeededRandom(seed: seed)
    func fixed(_ v: Double) -> Double { (v * 256).rounded() / 256 }
    return (0..<count).map { _ in
        let (x1, y1) = area.randomPoint(inset: 8, using: &rng)
        let angle = Double.random(in: 0..<(2 * Double.pi), using: &rng)
        let length = Double.random(in: 20...150, using: &rng)
        let (x2, y2) = area.clamp(x1 + length * cos(angle), y1 + length * sin(angle))
        return (fixed(x1), fixed(y1), fixed(x2), fixed(y2))
    }
}

/// `touch batch` commands that draw `lines` as finished lines: groups of up to 16 fingers go down
/// at the lines' starts, move to their ends and lift. Each command stays well under the plugin's
/// 4095-byte line limit.
func preloadCommands(_ lines: [(x1: Double, y1: Double, x2: Double, y2: Double)]) -> [String] {
    var commands: [String] = []
    var command = "touch batch"
    var groupsInCommand = 0
    var start = 0
    while start < lines.count {
        let group = lines[start..<min(start + 16, lines.count)]
        var downs = "", moves = "", ups = ""
        for (i, line) in group.enumerated() {
            downs += " d \(i) \(format(line.x1)) \(format(line.y1))"
            moves += " m \(i) \(format(line.x2)) \(format(line.y2))"
            ups += " u \(i)"
        }
        command += downs + " f" + moves + " f" + ups + " f"
        groupsInCommand += 1
        start += group.count
        if groupsInCommand == 3 {
            commands.append(command)
            command = "touch batch"
            groupsInCommand = 0
        }
    }
    if groupsInCommand > 0 { commands.append(command) }
    return commands
}
