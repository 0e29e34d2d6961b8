// The app's own account of its guesses, for compositors without our plugin (KWin, GNOME Shell):
// its `--latency` log gives, per frame, the newest sample it saw, the tip it drew (its guess) and
// when the compositor said the frame was shown (wp_presentation). Set against the scripted path,
// that is the lag at presentation as the app sees it; under Weston the same reading stands beside
// the pixels' to check it.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import KWinHarness
import TouchKit

/// One frame of the app's `--latency` log that carries a guess and a presentation time.
struct LoggedGuess {
    /// The newest sample and the tip drawn (nil: none guessed), window points.
    var seen: Point
    var tip: Point?
    /// From the newest sample's time stamp to the frame on screen, seconds.
    var presented: Double
    /// Whether that is the frame callback's time, the compositor having no wp_presentation.
    var byCallback = false

    /// The frames of `log` with one finger's guess and a presentation time.
    static func read(_ log: String) -> [LoggedGuess] {
        func point(after key: String, in line: Substring) -> Point? {
            guard let r = line.range(of: key) else { return nil }
            let numbers = line[r.upperBound...].prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return numbers.count == 2 ? Point(x: numbers[0], y: numbers[1]) : nil
        }
        return log.split(separator: "\n").compactMap { line in
            // Without wp_presentation (KWin's virtual session) the frame callback says when.
            guard let seen = point(after: "seen (", in: line),
                  let r = line.range(of: "input→presented ") ?? line.range(of: "input→frame callback "),
                  let ms = Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." }) else { return nil }
            return LoggedGuess(seen: seen, tip: point(after: "tip (", in: line), presented: ms / 1000,
                               byCallback: line.contains("input→frame callback "))
        }
    }
}

/// The lag at presentation from the app's log for one played path: with its guesses, and as it
/// would have been without them (the newest sample), pt, one per moving frame.
func loggedLags(_ guesses: [LoggedGuess], path: ScriptedPath) -> (on: [Double], off: [Double]) {
    guard let rest = guesses.last?.seen else { return ([], []) }
    // The log speaks in window points: the finger at rest at the end places the path there.
    let end = path.position(path.duration)
    let sampled = SampledPath(path, placedAt: Point(x: rest.x - end.x, y: rest.y - end.y))
    var on: [Double] = [], off: [Double] = []
    var previous = 0.0
    for guess in guesses {
        let seen = sampled.nearest(guess.seen, from: previous - 0.05, to: path.duration + 0.1).time
        previous = seen
        let shown = seen + guess.presented
        guard seen > 0.08, shown <= path.duration, path.speed(at: shown) > 50 else { continue }
        let tip = guess.tip.map { sampled.nearest($0, from: seen - 0.02, to: seen + 0.1).time } ?? seen
        on.append(sampled.arcLength(at: shown) - sampled.arcLength(at: tip))
        off.append(sampled.arcLength(at: shown) - sampled.arcLength(at: seen))
    }
    return (on, off)
}

extension TouchTrackerBench {
    /// KWin and GNOME Shell: one finger on a line and a circle at 120 Hz, the app's account.
    func predictionOnDesktops(appPath: String) {
        say("\nthe app's own account (--latency: the tip it drew, and when the compositor showed the frame, or without wp_presentation when its frame callback came) under the desktops without our plugin, one finger at 120 Hz; |lag| p50/p95 pt, with its guesses and as the newest sample alone would have been")
        let desktops: [(String, () throws -> BenchDesktop)] = [
            ("KWin", { try KWinSession(KWinSession.Options(width: 1280, height: 960)) }),
            ("GNOME", { try GnomeSession(GnomeSession.Options(width: 1280, height: 960)) }),
        ]
        for (name, make) in desktops {
            do {
                let session = try make()
                defer { session.stop() }
                let child = try session.launch(appPath, ["--latency"], name: "touchtracker", environment: [:])
                defer { child.stop() }
                let window = try session.appWindow(process: child, appID: "org.touchtracker.TouchTracker")
                usleep(1_500_000)
                let origin = Point(x: window.x + 40, y: window.y + 60)
                var rng = SeededRandom(seed: 36)
                for path in [PredictionPaths.line(speed: 1000, length: 400), PredictionPaths.circle(radius: 120, center: Point(x: 280, y: 200))] {
                    let from = child.standardError.utf8.count
                    try playOnDesktop(path, at: origin, rate: 120, session: session, rng: &rng)
                    usleep(300_000)
                    let log = String(decoding: child.standardError.utf8.dropFirst(from), as: UTF8.self)
                    let guesses = LoggedGuess.read(log)
                    let lags = loggedLags(guesses, path: path)
                    guard !lags.on.isEmpty else {
                        let last = log.split(separator: "\n").last { $0.contains("frame ") }.map(String.init) ?? "no frame logged"
                        say(pad(name, 8) + pad(path.name, 20) + "no frame with a guess and a time shown; the last: " + last.suffix(300))
                        continue
                    }
                    say(pad(name, 8) + pad(path.name, 20) + String(format: "with guesses %.2f/%.2f, without %.2f/%.2f over %d frames",
                        percentile(lags.on.map(abs), 50), percentile(lags.on.map(abs), 95),
                        percentile(lags.off.map(abs), 50), percentile(lags.off.map(abs), 95), lags.on.count)
                        + (guesses.allSatisfy(\.byCallback) ? " (shown: when the frame callback came; no wp_presentation)" : ""))
                }
            } catch {
                say("  \(name): not measured (\(error))")
            }
        }
    }

    private func playOnDesktop(_ path: ScriptedPath, at origin: Point, rate: Double, session: BenchDesktop,
                               rng: inout SeededRandom) throws {
        func at(_ t: Double) -> (Double, Double) {
            let p = path.position(t)
            return (p.x + origin.x, p.y + origin.y)
        }
        let t0 = tt_monotonic_now() + 0.05
        sleep(until: t0)
        let start = at(0)
        try session.touchDown(0, x: start.0, y: start.1)
        var k = 1
        while Double(k) / rate <= path.duration + 0.05 {
            sleep(until: t0 + max(0.001, Double(k) / rate + Double.random(in: -0.25...0.25, using: &rng) / rate))
            let p = at(tt_monotonic_now() - t0)
            try session.touchMotion(0, x: p.0, y: p.1)
            k += 1
        }
        sleep(until: t0 + path.duration + 0.4)
        try session.touchUp(0)
    }
}
