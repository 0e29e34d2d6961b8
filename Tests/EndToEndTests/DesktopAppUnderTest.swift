// What the GNOME and KWin tests do the same way with the app in a shared desktop session:
// touches at canvas points, waiting for the app's --trace, two fingers drawing together.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation

protocol DesktopAppUnderTest {
    var app: ChildProcess { get }
    /// A point of the canvas, in global coordinates.
    func onCanvas(_ x: Double, _ y: Double) -> (x: Double, y: Double)
    func down(_ slot: Int, _ p: (x: Double, y: Double)) throws
    func move(_ slot: Int, _ p: (x: Double, y: Double)) throws
}

extension DesktopAppUnderTest {
    /// Waits until the app's `--trace` log has `count` lines containing `text`: the app has taken
    /// the input so far (a desktop's injected input may arrive late).
    func waitForTrace(_ text: String, count: Int, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while app.standardError.components(separatedBy: text).count - 1 < count {
            guard Date() < deadline else {
                throw HarnessError("the app's trace never had \(count) × '\(text)':\n\(app.standardError)")
            }
            usleep(10_000)
        }
    }

    /// Two fingers land on the canvas and move in `steps` steps to their ends, still down; where
    /// they started and ended, in global coordinates.
    func twoFingersDown(steps: Int) throws -> (starts: [(x: Double, y: Double)], ends: [(x: Double, y: Double)]) {
        let starts = [onCanvas(150, 100), onCanvas(400, 100)]
        let ends = [onCanvas(150, 500), onCanvas(750, 450)]
        try down(0, starts[0])
        try down(1, starts[1])
        // Two fingers are no tap, so the app's tap recognizers let both touches through at once.
        try waitForTrace("phase=began", count: 2)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            for slot in 0...1 {
                try move(slot, (starts[slot].x + (ends[slot].x - starts[slot].x) * t,
                                starts[slot].y + (ends[slot].y - starts[slot].y) * t))
            }
        }
        return (starts, ends)
    }
}
