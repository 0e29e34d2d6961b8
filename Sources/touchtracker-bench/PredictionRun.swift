// The prediction phase: what the eye sees under headless Weston. One finger follows each scripted
// path (PredictionPaths.swift) on the benchmark's clock, sampled at 60 and 120 Hz (240 without
// --quick) with jitter; the plugin keeps, for every repaint, which pixels show the stroke's
// colour and when the output showed that repaint. For every shown frame that is new, the lag at
// presentation is the distance along the path from where the finger was when the frame was shown
// to the stroke's end (PredictionCapture.swift). The app with prediction on and off, and
// weston-simple-touch (its newest dot), are measured in one run, each in its own Weston.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import TouchKit
import CompositorHarness

/// One client's figures on one path at one rate.
struct OnScreenResult {
    var client: String
    var path: ScriptedPath
    var rate: Double
    /// Signed lag per moving frame, pt (positive: the stroke trails the finger).
    var lag: [Double] = []
    /// The time shift each lag equals at the finger's speed, ms.
    var effective: [Double] = []
    /// Per frame near stops and turns: how far the stroke's end lies off the path travelled, pt.
    var overshoot: [Double] = []
    /// The longest run of shown frames with more than 2 pt of overshoot.
    var overshootRun = 0
    /// Frames whose drawn end moved back along the path (zig-zag), and frames counted.
    var backwards = 0
    var frames = 0
    /// On straight lines at their cruising speed: the end's offset across the line, pt.
    var across: [Double] = []
    /// The app's own account of the same frames (its `--latency` log), signed lag, pt.
    var logged: [Double] = []
}

extension TouchTrackerBench {
    /// The clients of the phase: the app with prediction on, off, and weston-simple-touch.
    enum PredictionClient: CaseIterable {
        case on, off, reference
        var name: String {
            switch self {
            case .on: "touchtracker, prediction on"
            case .off: "touchtracker, prediction off"
            case .reference: "weston-simple-touch"
            }
        }
    }

    func predictionPhase(appPath: String, targets: inout Targets) throws {
        let rates: [Double] = quick ? [60, 120] : [60, 120, 240]
        let screen = BenchScreen(width: 1024, height: 768, scale: 1)
        say("\n## Prediction under Weston (\(screen), 60 Hz output): one to ten fingers on scripted paths at \(rates.map { "\(Int($0))" }.joined(separator: "/")) Hz (±25% jitter), lag at presentation read from the compositor's pixels")
        var results: [OnScreenResult] = []
        var commitP99: [String: Double] = [:]
        for client in PredictionClient.allCases where client != .reference || !noReference {
            let (measured, p99) = try measureOnScreen(client, appPath: appPath, rates: rates, screen: screen)
            results += measured
            commitP99[client.name] = p99
        }
        reportOnScreen(results, rates: rates, commitP99: commitP99, targets: &targets)
        predictionOnDesktops(appPath: appPath)
    }

    private func measureOnScreen(_ client: PredictionClient, appPath: String, rates: [Double],
                                 screen: BenchScreen) throws -> ([OnScreenResult], Double) {
        let base: Client = client == .reference ? .reference : .app(path: appPath, drawing: .empty)
        // Both app runs log their frames (--latency): the same work, and the app's own account of
        // its guesses to set beside the pixels.
        let arguments = client == .reference ? [] : ["--latency"] + (client == .off ? ["--no-prediction"] : [])
        var running = try start(base, extraArguments: arguments, on: screen)
        defer { finish(running) }
        let control = running.session.control
        // The paths' box, centred in the client's drawing area.
        let box = PredictionPaths.box
        let origin = Point(x: (running.area.x + max(0, (running.area.width - box.width) / 2)).rounded(),
                           y: (running.area.y + max(0, (running.area.height - box.height) / 2)).rounded())
        var rng = SeededRandom(seed: 36)
        var results: [OnScreenResult] = []
        // Which injected frames move the finger: a landing (held by the double tap) and a lift
        // (finishing the line) are not what prediction costs.
        var moves: [Bool] = []
        if client != .reference { _ = try control.send("latency start \(running.pid)") }
        for rate in rates {
            for fingers in PredictionPaths.onScreen(quick: quick) {
                if client == .reference, !results.isEmpty {
                    // weston-simple-touch keeps every dot: a fresh one per path.
                    running.child.signal(SIGTERM)
                    _ = running.child.waitForExit(timeout: 5)
                    running.child = try running.session.launch("/usr/bin/weston-simple-touch", [], name: "simple-touch")
                    running.window = try running.session.waitForWindow(appID: "simple-touch", process: running.child)
                    try settle(running.session, pid: running.pid)
                }
                let file = running.session.runtimeDirectory + "/capture.bin"
                let logFrom = running.child.standardError.utf8.count
                let (t0, capture, motions) = try playPath(fingers, at: origin, rate: rate, session: running.session, rng: &rng,
                                                          capture: file, coverage: client != .reference)
                // The first moves wait for the double tap to fail (A3): their commit is the
                // recognizer's, the same with prediction on and off, not the frame's work.
                let held = Int(0.15 * rate)
                moves += [false] + (0..<motions).map { $0 >= held } + [false]
                if client != .reference {
                    // A clean canvas for the next path: a stroke crossing an old line would blend
                    // its edge with black, which is not the stroke's coverage.
                    try clearCanvas(running.session, at: Point(x: origin.x + box.width - 10, y: origin.y + box.height - 10))
                    moves += [false, false, false, false]
                }
                let sampled = fingers.map { SampledPath($0, placedAt: origin) }
                // weston-simple-touch draws a diamond of radius 2 pixels per sample, red for its
                // first finger only; the app a 10 pt line (DrawView.lineWidth) from where each
                // finger landed, all red.
                for (k, path) in sampled.enumerated() where client != .reference || k == 0 {
                    let shape: StrokeShape = client == .reference ? .dots(radius: 2) : .line(from: path.points[path.index(0)], radius: 5)
                    var result = analyse(capture, path: path, start: t0, shape: shape, among: client == .reference ? [] : sampled)
                    (result.client, result.rate) = (client.name, rate)
                    if client == .on, fingers.count == 1 {
                        let log = String(decoding: running.child.standardError.utf8.dropFirst(logFrom), as: UTF8.self)
                        result.logged = loggedLags(LoggedGuess.read(log), path: path.path).on
                    }
                    results.append(result)
                }
                try settle(running.session, pid: running.pid)
            }
        }
        let read = "  \(pad(client.name, 32)) \(results.reduce(0) { $0 + $1.frames }) frames read"
        guard client != .reference else {
            say(read)
            return (results, 0)
        }
        _ = try control.send("latency stop")
        let latency = try LatencyReport(control.send("latency report", timeout: 60))
        let toCommit = latency.commitLatencies { $0 < moves.count && moves[$0] }
        say(read + "; input→commit of the moves p50/p99 \(formatMs(toCommit.p50))/\(formatMs(toCommit.p99)) ms over \(toCommit.totalCount) frames")
        if client == .on { reportGuessedLeads(running.child.standardError) }
        return (results, toCommit.p99)
    }

    /// The app's own account (`--latency`): how far ahead of its newest sample each frame's guess
    /// reached, against when the compositor then said the frame was shown (input→presented).
    private func reportGuessedLeads(_ log: String) {
        var error: [Double] = []
        for line in log.split(separator: "\n") where line.contains(" for +") && line.contains("input→presented ") {
            func value(after key: String) -> Double? {
                guard let r = line.range(of: key, options: .backwards) else { return nil }
                return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
            }
            guard let lead = value(after: " for +"), let presented = value(after: "input→presented ") else { continue }
            error.append(lead - presented)
        }
        guard !error.isEmpty else { return say("    (no frame of the --latency log had a guess and a presentation time)") }
        say(String(format: "    its --latency log: the guess's lead minus input→presented, p5/p50/p95 %.1f/%.1f/%.1f ms over %d presented frames with a guess",
                   percentile(error, 5), percentile(error, 50), percentile(error, 95), error.count))
    }

    /// A double tap at `point`: the app clears its drawing (A3).
    private func clearCanvas(_ session: WestonSession, at point: Point) throws {
        let at = String(format: "%.0f %.0f", point.x, point.y)
        for _ in 0..<2 {
            _ = try session.control.send("touch batch d 0 \(at) f")
            usleep(40_000)
            _ = try session.control.send("touch batch u 0 f")
            usleep(60_000)
        }
        usleep(300_000)
    }

    /// Plays `path` with the stroke's colour captured (its coverage over the white paper, or for
    /// weston-simple-touch, whose dots have no soft edge, its pure pixels); returns the monotonic
    /// time the finger landed, the capture and how many motion frames were sent.
    private func playPath(_ fingers: [ScriptedPath], at origin: Point, rate: Double, session: WestonSession,
                          rng: inout SeededRandom, capture file: String, coverage: Bool) throws -> (Double, CoverageCapture, Int) {
        let control = session.control
        func place(_ kind: String, at t: Double) -> String {
            fingers.enumerated().map { k, path in
                let p = path.position(t)
                return String(format: "%@ %d %.2f %.2f", kind, k, p.x + origin.x, p.y + origin.y)
            }.joined(separator: " ")
        }
        let duration = fingers.map(\.duration).max() ?? 0
        let box = PredictionPaths.box, margin = 40.0
        let (x, y, w, h) = (Int(origin.x - margin), Int(origin.y - margin), Int(box.width + 2 * margin), Int(box.height + 2 * margin))
        if coverage {
            try session.startCoverageCapture(x: x, y: y, width: w, height: h, rgb: 0xff0000, background: 0xffffff)
        } else {
            try session.startCapture(x: x, y: y, width: w, height: h, rgb: 0xff0000)
        }
        let t0 = tt_monotonic_now() + 0.05
        sleep(until: t0)
        _ = try control.send("touch batch \(place("d", at: 0)) f")
        var k = 1
        while Double(k) / rate <= duration + 0.05 {
            let t = max(0.001, Double(k) / rate + Double.random(in: -0.25...0.25, using: &rng) / rate)
            sleep(until: t0 + t)
            // Where the finger is when the sample leaves, which Weston stamps: a late wake-up on a
            // busy machine delays a sample, as a touchscreen's jitter does, but never puts a
            // position at the wrong time.
            _ = try control.send("touch batch \(place("m", at: tt_monotonic_now() - t0)) f")
            k += 1
        }
        // The finger rests a while before it lifts: the frames then show where the stroke ends at
        // rest, which calibrates each client's end cap.
        sleep(until: t0 + duration + 0.4)
        let capture = try session.stopCoverageCapture(writingTo: file)
        _ = try control.send("touch batch " + fingers.indices.map { "u \($0)" }.joined(separator: " ") + " f")
        return (t0, capture, k - 1)
    }

    /// One finger's figures; with several fingers (`among`), from the pixels nearest its path.
    private func analyse(_ capture: CoverageCapture, path: SampledPath, start t0: Double, shape: StrokeShape,
                         among fingers: [SampledPath]) -> OnScreenResult {
        var result = OnScreenResult(client: "", path: path.path, rate: 0)
        var tips: [ShownTip] = []
        var previous: [UInt8]?
        for frame in capture.frames {
            defer { previous = frame.coverage }
            guard let presented = frame.presented, frame.coverage != previous else { continue }
            let pixels = nearest(capture.pixels(frame.coverage), to: path, among: fingers)
            guard !pixels.isEmpty,
                  let tip = readTip(pixels, on: path, shown: presented - t0, shape: shape) else { continue }
            tips.append(tip)
        }
        let duration = path.path.duration
        // At rest the end should lie where the finger is: what remains is how the pixels round
        // (a fraction of a point), subtracted from the moving frames.
        let rest = tips.filter { $0.shown > duration + 0.15 }
        let restLag = percentile(rest.map { path.arcLength(at: $0.shown) - path.arcLength(at: $0.tipTime) }, 50)
        let restSpread = percentile(rest.map { abs($0.offPath) }, 50)
        let cruise = path.path.speed(at: duration / 2)
        var run = 0
        var lastTip: Double?
        for tip in tips where tip.shown > 0.05 && tip.shown <= duration + 0.3 {
            let speed = path.path.speed(at: tip.shown)
            if tip.shown <= duration, tip.shown > 0.08, speed > 50 {
                let lag = path.arcLength(at: tip.shown) - path.arcLength(at: tip.tipTime) - restLag
                result.lag.append(lag)
                result.effective.append(lag / speed * 1000)
                if path.path.isLine, abs(speed - cruise) < 0.1 * cruise { result.across.append(tip.offPath) }
            }
            if path.path.turns {
                let over = max(0, abs(tip.offPath) - restSpread)
                if ProcessInfo.processInfo.environment["TT_PREDICTION_DEBUG"] != nil, over > 2 {
                    say(String(format: "    debug: %@ shown %.3f s, tip at %.3f s, off the path by %.2f pt", path.path.name, tip.shown, tip.tipTime, tip.offPath))
                }
                result.overshoot.append(over)
                run = over > 2 ? run + 1 : 0
                result.overshootRun = max(result.overshootRun, run)
                if let lastTip, tip.tipTime < lastTip - 0.004, tip.shown <= duration { result.backwards += 1 }
                lastTip = tip.tipTime
            }
            result.frames += 1
        }
        return result
    }

    private func reportOnScreen(_ results: [OnScreenResult], rates: [Double], commitP99: [String: Double], targets: inout Targets) {
        func stats(_ r: [OnScreenResult]) -> (p50: Double, p95: Double, signed: Double, effective: Double, frames: Int) {
            let lags = r.flatMap(\.lag)
            return (percentile(lags.map(abs), 50), percentile(lags.map(abs), 95), percentile(lags, 50),
                    percentile(r.flatMap(\.effective), 50), lags.count)
        }
        say("\nlag at presentation, |lag| p50/p95 pt, signed p50 (+ behind, - ahead), effective latency p50 ms; ratios of |lag| to weston-simple-touch's")
        say("Hz   path                 client                          frames  p50     p95     signed  eff. ms  ratio p50  p95")
        let reference = PredictionClient.reference.name
        for rate in rates {
            for name in PredictionPaths.reported {
                let ref = stats(results.filter { $0.rate == rate && $0.path.name == name && $0.client == reference })
                for client in PredictionClient.allCases {
                    let s = stats(results.filter { $0.rate == rate && $0.path.name == name && $0.client == client.name })
                    guard s.frames > 0 else { continue }
                    let ratios = client == .reference || ref.frames == 0 ? "" : pad(ratio(s.p50, ref.p50), 11) + ratio(s.p95, ref.p95)
                    say(pad("\(Int(rate))", 5) + pad(name, 21) + pad(client.name, 32) + pad("\(s.frames)", 8)
                        + pad(String(format: "%.2f", s.p50), 8) + pad(String(format: "%.2f", s.p95), 8)
                        + pad(String(format: "%+.2f", s.signed), 8) + pad(String(format: "%.1f", s.effective), 9) + ratios)
                }
            }
        }
        say("\nthe guess's errors (zig-zag and stop-and-go): the stroke's end off the path travelled, p99/max pt, and the longest run of frames over 2 pt; zig-zag frames whose drawn end moved back along the path; tip jitter: the end's RMS wobble across straight lines at cruising speed, pt")
        for rate in rates {
            for client in [PredictionClient.on, .off, .reference] {
                let mine = results.filter { $0.rate == rate && $0.client == client.name }
                let turning = mine.filter(\.path.turns)
                let zigzag = mine.filter { $0.path.name.hasPrefix("zig") }
                let over = turning.flatMap(\.overshoot)
                let backwards = zigzag.reduce(0) { $0 + $1.backwards }, frames = zigzag.reduce(0) { $0 + $1.frames }
                // Jitter: the end's wobble across the line (RMS about its mean) at cruising speed.
                let jitter = mine.filter { $0.path.isLine && $0.across.count > 2 }.map { r -> Double in
                    let mean = r.across.reduce(0, +) / Double(r.across.count)
                    return (r.across.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(r.across.count)).squareRoot()
                }
                guard !mine.isEmpty else { continue }
                say(pad("\(Int(rate))", 5) + pad(client.name, 32)
                    + String(format: "overshoot %.2f/%.2f pt, run %d; backwards %d of %d frames (%.1f %%); jitter %.2f pt",
                             percentile(over, 99), over.max() ?? 0, turning.map(\.overshootRun).max() ?? 0,
                             backwards, frames, 100 * Double(backwards) / Double(max(frames, 1)), jitter.max() ?? 0))
                guard client == .on else { continue }
                targets.add(percentile(over, 99) <= 2 && (turning.map(\.overshootRun).max() ?? 0) <= 1,
                            "prediction at \(Int(rate)) Hz: overshoot at stops and turns p99 \(String(format: "%.2f", percentile(over, 99))) pt, longest run \(turning.map(\.overshootRun).max() ?? 0) frame(s) (at most 2 pt, gone the next frame)")
                targets.add(Double(backwards) <= 0.02 * Double(frames),
                            "prediction at \(Int(rate)) Hz: \(backwards) of \(frames) zig-zag frames moved back (at most 2 %)")
                targets.add((jitter.max() ?? 0) <= 0.5, "prediction at \(Int(rate)) Hz: tip jitter on lines \(String(format: "%.2f", jitter.max() ?? 0)) pt (at most 0.5 pt)")
            }
        }
        for rate in rates where rate <= 120 {
            let kinds = results.filter { $0.rate == rate && ($0.path.name.hasPrefix("line") || $0.path.name.hasPrefix("circle")) }
            let on = stats(kinds.filter { $0.client == PredictionClient.on.name })
            let ref = stats(kinds.filter { $0.client == reference })
            guard ref.frames > 0, on.frames > 0 else { continue }
            targets.add(on.p50 <= 0.3 * ref.p50 && on.p95 <= 0.6 * ref.p95,
                        "lag at presentation at \(Int(rate)) Hz on lines and circles: p50 \(ratio(on.p50, ref.p50)), p95 \(ratio(on.p95, ref.p95)) of weston-simple-touch's (at most 0.3x and 0.6x)")
        }
        for rate in rates {
            let kinds = results.filter { $0.rate == rate && $0.client == PredictionClient.on.name && ($0.path.isLine || $0.path.name.hasPrefix("circle")) && !$0.logged.isEmpty }
            let pixels = kinds.flatMap(\.lag).map(abs), logged = kinds.flatMap(\.logged).map(abs)
            guard !logged.isEmpty else { continue }
            say(String(format: "\n%d Hz, lines and circles with prediction: |lag| p50/p95 from the pixels %.2f/%.2f pt, from the app's --latency log %.2f/%.2f pt",
                       Int(rate), percentile(pixels, 50), percentile(pixels, 95), percentile(logged, 50), percentile(logged, 95)))
        }
        if let on = commitP99[PredictionClient.on.name], let off = commitP99[PredictionClient.off.name] {
            // Two sessions one after the other: their difference is mostly the machine's. The
            // cost's target is the gestures phase's, the same frames in turn (PredictionCost.swift).
            say(String(format: "\ninput→commit p99 of the moves: prediction on %.2f ms, off %.2f ms (%+.2f ms; separate sessions, see the gestures phase for the cost)", on, off, on - off))
        }
    }
}
