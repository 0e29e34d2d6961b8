// What prediction (A13) adds to a frame, in process. Two rigs on the empty canvas, one predicting,
// are fed the same ten fingers a frame each in turn, so whatever else the machine does falls on
// both alike: two Weston sessions run one after the other differ by more than the 0.1 ms looked
// for (their input→commit p99s trade places from run to run), and these turns are that figure's
// work, the app's part of input→commit.
import CShims
import Glibc
import TouchKit

struct PredictionCost {
    /// CPU (every thread's) of each turn that delivered a frame of input, ms.
    var on: [Double] = []
    var off: [Double] = []
    /// Frames after which the predicting rig had guessed a tip: none would mean nothing was measured.
    var guessed = 0
}

func measurePredictionCost(width: Int, height: Int, scale: Double, frames: Int) -> PredictionCost {
    let fingerArea = Area(x: 0, y: 40, width: Double(width), height: Double(height - 170))
    let off = Rig(strokes: [], width: width, height: height, scale: scale)
    let on = Rig(strokes: [], width: width, height: height, scale: scale)
    on.predicts = true
    var fingers = Fingers(area: fingerArea, seed: 42)
    var cost = PredictionCost()
    for n in 0..<frames {
        let frame = parseTouchCommand(fingers.frame(at: Double(n) / 60))
        // Which rig goes first alternates: neither always follows the other's warm caches.
        for rig in n % 2 == 0 ? [off, on] : [on, off] {
            // A pause as between a display's frames, so caches cool as they do in the app.
            usleep(2_000)
            let cpu = cpuTime { rig.turn(frame) } * 1000
            if rig === on {
                cost.on.append(cpu)
                if on.input.prediction.latestGuess?.contains(" tip ") == true { cost.guessed += 1 }
            } else {
                cost.off.append(cpu)
            }
            rig.idle(1.0 / 60)
        }
    }
    return cost
}

extension TouchTrackerBench {
    func predictionCostTable(targets: inout Targets) {
        let frames = quick ? 300 : 2000
        let cost = measurePredictionCost(width: screen.points.width, height: screen.points.height, scale: scale, frames: frames)
        say("\n## What prediction adds to a frame, in process, \(screen): ten fingers at 60 Hz on two rigs in turn, one predicting (each frame shown \(Int(Rig.presentationLead * 1000)) ms after its newest sample), \(frames) frames each; CPU per frame, ms")
        say("rig               p50     p90     p99     max")
        for (name, times) in [("prediction off", cost.off), ("prediction on", cost.on)] {
            say(pad(name, 18) + [50.0, 90, 99].map { pad(String(format: "%.3f", percentile(times, $0)), 8) }.joined()
                + String(format: "%.3f", times.max() ?? 0))
        }
        let p50 = percentile(cost.on, 50) - percentile(cost.off, 50), p99 = percentile(cost.on, 99) - percentile(cost.off, 99)
        say("frames after which the predicting rig had guessed a tip: \(cost.guessed) of \(frames)")
        targets.add(p99 <= 0.1 && cost.guessed >= frames / 2,
                    String(format: "prediction's cost per frame in process (the app's part of input→commit): %+.3f ms at p99, %+.3f ms at the median (at most 0.1 ms at p99), guesses in %d of %d frames", p99, p50, cost.guessed, frames))
    }
}
