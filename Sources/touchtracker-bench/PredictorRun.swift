// The predictors phase: every estimator, under MotionPredictor's rules, run over the scripted
// paths as a touchscreen would report them (60, 120 and 240 Hz, jittered, millisecond stamps,
// noisy), each guess compared with where the finger truly is when the frame is shown. No
// compositor: this is how the app's estimator was chosen (docs/prediction.md).
import CShims
import Foundation
import TouchKit

/// One estimator under test.
struct PredictorCandidate {
    let name: String
    let make: () -> any PathPredicting
}

/// A MotionPredictor of any model, behind one face.
protocol PathPredicting {
    mutating func add(_ location: Point, at time: Double)
    func predictedLocation(at time: Double) -> Point?
}

extension MotionPredictor: PathPredicting {}

/// No prediction: the tip is the newest sample.
struct NoPrediction: PathPredicting {
    mutating func add(_ location: Point, at time: Double) {}
    func predictedLocation(at time: Double) -> Point? { nil }
}

/// The guess's figures on one path at one rate.
struct PredictionErrors {
    /// |tip - finger| at presentation, pt, one per frame.
    var lag: [Double] = []
    /// Distance of the tip from the path the finger has travelled by presentation, pt.
    var overshoot: [Double] = []
    var wrongWay = 0
    var frames = 0
    /// Seconds spent adding samples and guessing.
    var cost = 0.0
    /// Per frame on straight paths: the tip's offset across the path and along it.
    var across: [Double] = []
    var along: [Double] = []

    /// RMS of the tip's offset across the line: the wobble of a straight line's end.
    var jitterRMS: Double {
        guard !across.isEmpty else { return 0 }
        return (across.map { $0 * $0 }.reduce(0, +) / Double(across.count)).squareRoot()
    }

    /// The spread (standard deviation) of the tip's lag along the line.
    var lagSpread: Double {
        guard !along.isEmpty else { return 0 }
        let mean = along.reduce(0, +) / Double(along.count)
        return (along.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(along.count)).squareRoot()
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p / 100).rounded()))]
}

/// Runs `predictor` over `path` sampled by `sampling`; each sample is a frame shown `lead` seconds
/// after its time stamp.
func measurePrediction(_ predictor: any PathPredicting, path: ScriptedPath, sampling: PathSampling, lead: Double) -> PredictionErrors {
    var predictor = predictor
    var errors = PredictionErrors()
    for sample in sampling.samples(of: path) {
        let started = tt_monotonic_now()
        predictor.add(sample.location, at: sample.stamp)
        let guess = predictor.predictedLocation(at: sample.stamp + lead)
        errors.cost += tt_monotonic_now() - started
        let shown = min(sample.stamp + lead, path.duration)
        let tip = guess ?? sample.location
        let finger = path.position(shown)
        errors.frames += 1
        errors.lag.append(tip.distance(to: finger))
        if path.turns {
            // Past where the finger goes: the path a little beyond the frame counts too, so a tip
            // ahead of the finger mid-stroke is lag, not overshoot; beyond a stop or a turn it is.
            errors.overshoot.append(path.distance(from: tip, between: sample.time - 0.3, and: shown + 0.15))
            let e = Point(x: tip.x - sample.location.x, y: tip.y - sample.location.y)
            let truth = path.position(sample.time), moved = Point(x: finger.x - truth.x, y: finger.y - truth.y)
            if (e.x * e.x + e.y * e.y).squareRoot() > 0.5, e.x * moved.x + e.y * moved.y < 0 { errors.wrongWay += 1 }
        } else if path.name.hasPrefix("line"), path.speed(at: shown) > 0.9 * path.speed(at: path.duration / 2) {
            let d = path.direction(at: shown)
            let off = Point(x: tip.x - finger.x, y: tip.y - finger.y)
            errors.along.append(off.x * d.x + off.y * d.y)
            errors.across.append(off.x * -d.y + off.y * d.x)
        }
    }
    return errors
}

extension TouchTrackerBench {
    static var predictorCandidates: [PredictorCandidate] { [
        PredictorCandidate(name: "none") { NoPrediction() },
        PredictorCandidate(name: "Kalman q 1e12 r 2 (app)") { MotionPredictor<KalmanMotionModel>() },
        PredictorCandidate(name: "app, no turn or brake rule") { MotionPredictor(model: KalmanMotionModel(), brakingTrust: 0, holdsTurns: false, brakingShrink: 0, followsJerk: false) },
        PredictorCandidate(name: "app, turns guessed") { MotionPredictor(model: KalmanMotionModel(), holdsTurns: false) },
        PredictorCandidate(name: "app, no braking shrink") { MotionPredictor(model: KalmanMotionModel(), brakingShrink: 0) },
        PredictorCandidate(name: "app, no braking trust") { MotionPredictor(model: KalmanMotionModel(), brakingTrust: 0) },
        PredictorCandidate(name: "app, braking shrink 4") { MotionPredictor(model: KalmanMotionModel(), brakingShrink: 4) },
        PredictorCandidate(name: "app, lag correction 1") { MotionPredictor(model: KalmanMotionModel(), lagCorrection: 1) },
        PredictorCandidate(name: "app, 3 samples first") { MotionPredictor(model: KalmanMotionModel(), minimumSamples: 3) },
        PredictorCandidate(name: "app, jerk not followed") { MotionPredictor(model: KalmanMotionModel(), followsJerk: false) },
        PredictorCandidate(name: "app, no sparse-input rules") { MotionPredictor(model: KalmanMotionModel(), jerkSmoothing: 0.5, jerkGain: 1, historyReach: 0, turnShare: 0, seenSpan: 1) },
        PredictorCandidate(name: "app, jerk smoothed 0.5, x1") { MotionPredictor(model: KalmanMotionModel(), jerkSmoothing: 0.5, jerkGain: 1) },
        PredictorCandidate(name: "app, no history reach") { MotionPredictor(model: KalmanMotionModel(), historyReach: 0) },
        PredictorCandidate(name: "app, turns slide across") { MotionPredictor(model: KalmanMotionModel(), turnShare: 0) },
        PredictorCandidate(name: "app, three samples seen") { MotionPredictor(model: KalmanMotionModel(), seenSpan: 1) },
        PredictorCandidate(name: "app, at most 24 ms") { MotionPredictor(model: KalmanMotionModel(), maximumInterval: 0.024) },
        PredictorCandidate(name: "Kalman, q 5e12 r 3") { MotionPredictor(model: KalmanMotionModel(jerkNoise: 5e12, positionNoise: 3)) },
        PredictorCandidate(name: "Kalman, q 1e10 r 0.5") { MotionPredictor(model: KalmanMotionModel(jerkNoise: 1e10, positionNoise: 0.5)) },
        PredictorCandidate(name: "Kalman, q 1e11 r 2") { MotionPredictor(model: KalmanMotionModel(jerkNoise: 1e11, positionNoise: 2)) },
        PredictorCandidate(name: "Kalman, q 1e13 r 5") { MotionPredictor(model: KalmanMotionModel(jerkNoise: 1e13, positionNoise: 5)) },
        PredictorCandidate(name: "least squares 50 ms") { MotionPredictor<LeastSquaresMotionModel>() },
        PredictorCandidate(name: "least squares 30 ms") { MotionPredictor(model: LeastSquaresMotionModel(window: 0.03)) },
    ] }

    func predictorTable() {
        // 20 ms: a 120 Hz output's usual wait; 32 ms: a 60 Hz output's, the app's cap.
        let leads = [0.020, 0.032]
        say("\n## Predictors, in process: scripted paths sampled at 60/120/240 Hz (±25% jitter, ms stamps, 0.15 pt noise), each sample's frame shown 20 or 32 ms after it")
        say("lag: |tip - finger| at presentation, p50/p95 pt (lines, circle, flick); overshoot: tip off the path travelled, p99/max pt (zig-zag, stop-and-go); wrong way: % of zig-zag frames; jitter: tip RMS on lines")
        for lead in leads { for rate in [60.0, 120, 240] {
            say("\n\(Int(rate)) Hz, shown \(Int(lead * 1000)) ms after each sample")
            say("predictor                   lag p50   p95      overshoot p99  max     wrong way   jitter RMS   lag spread   µs/sample")
            for candidate in Self.predictorCandidates {
                var lag: [Double] = [], overshoot: [Double] = [], wrong = 0, zigzagFrames = 0, jitter: [Double] = [], spread: [Double] = []
                var cost = 0.0, samples = 0
                for path in PredictionPaths.all {
                    let sampling = PathSampling(rate: rate)
                    let e = measurePrediction(candidate.make(), path: path, sampling: sampling, lead: lead)
                    cost += e.cost
                    samples += e.frames
                    if path.turns { overshoot += e.overshoot } else { lag += e.lag }
                    if path.name.hasPrefix("zig") { wrong += e.wrongWay; zigzagFrames += e.frames }
                    if !e.along.isEmpty { jitter.append(e.jitterRMS); spread.append(e.lagSpread) }
                }
                say(pad(candidate.name, 28) + pad(String(format: "%.2f", percentile(lag, 50)), 10) + pad(String(format: "%.2f", percentile(lag, 95)), 9)
                    + pad(String(format: "%.2f", percentile(overshoot, 99)), 15) + pad(String(format: "%.2f", overshoot.max() ?? 0), 8)
                    + pad(String(format: "%.1f %%", 100 * Double(wrong) / Double(max(zigzagFrames, 1))), 12)
                    + pad(String(format: "%.2f", jitter.max() ?? 0), 13) + pad(String(format: "%.2f", spread.max() ?? 0), 13) + String(format: "%.2f", cost * 1e6 / Double(max(samples, 1))))
            }
        } }
        let lead = leads[1]
        say("\nPer path at 120 Hz, shown 32 ms after each sample (lag p50/p95, or overshoot p99/max on turning paths, pt)")
        say(pad("predictor", 28) + PredictionPaths.all.map { pad($0.name, 18) }.joined())
        for candidate in Self.predictorCandidates {
            var row = pad(candidate.name, 28)
            for path in PredictionPaths.all {
                let e = measurePrediction(candidate.make(), path: path, sampling: PathSampling(rate: 120), lead: lead)
                let values = path.turns ? e.overshoot : e.lag
                row += pad(String(format: "%.1f/%.1f", percentile(values, path.turns ? 99 : 50), path.turns ? (values.max() ?? 0) : percentile(values, 95)), 18)
            }
            say(row)
        }
    }
}
