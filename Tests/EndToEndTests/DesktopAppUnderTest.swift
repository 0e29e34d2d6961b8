// What the GNOME and KWin tests do the same way with the app in a shared desktop session:
// touches at canvas points, waiting for the app's --trace, two fingers drawing together, keys,
// the clipboard read back by a second client.
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
    /// A key (evdev code) goes down or up.
    func key(_ code: Int, down: Bool) throws
    /// Starts another client in the app's session.
    func launchClient(_ executable: String, _ arguments: [String]) throws -> ChildProcess
    /// The session's private runtime folder.
    var runtimeDirectory: String { get }
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

    /// Presses `key` (evdev code) with `modifiers` held.
    func press(_ key: Int, with modifiers: [Int] = []) throws {
        for modifier in modifiers { try self.key(modifier, down: true) }
        try self.key(key, down: true)
        try self.key(key, down: false)
        for modifier in modifiers.reversed() { try self.key(modifier, down: false) }
    }

    /// Waits until the app's log has `text`; `what` names what failed otherwise.
    func waitForLog(_ text: String, _ what: String, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !app.standardError.contains(text) {
            guard Date() < deadline else { throw HarnessError("\(what): \(app.standardError.suffix(2000))") }
            usleep(20_000)
        }
    }

    /// What the clipboard holds as `type`, read by a second client of ours (tt-clipboard-probe),
    /// which maps a window for the keyboard focus compositors give the clipboard to.
    func readClipboard(_ type: String) throws -> Data {
        let out = runtimeDirectory + "/probe-\(UUID().uuidString)"
        let probe = try launchClient(try HarnessPaths.executable("tt-clipboard-probe"), ["read", type, out])
        guard let status = probe.waitForExit(timeout: 15) else {
            probe.stop()
            throw HarnessError("the probe did not finish: \(probe.standardError)")
        }
        guard status == 0, let bytes = FileManager.default.contents(atPath: out) else {
            throw HarnessError("the probe could not read \(type) (status \(status)): \(probe.standardOutput)\(probe.standardError)")
        }
        return bytes
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
