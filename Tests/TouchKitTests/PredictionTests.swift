import Glibc
import Testing
@testable import TouchKit

/// Predicted touches (T14): where a moving touch is expected when the frame answering its event is
/// shown, and the cases in which nothing is guessed.
@Suite struct PredictedTouchTests {
    /// A finger down at (10, 100) moving right at `speed` pt/s, one frame per sample at `rate` Hz,
    /// `samples` moves; returns the last moved delivery's event and touch.
    private func swipe(_ h: Harness, speed: Double = 1000, rate: Double = 120, samples: Int = 12,
                       lead: Double? = 0.020) throws -> (Event, Touch) {
        h.input.prediction.presentationLead = { _ in lead }
        h.tapDown(1, 10, 100, at: 1)
        for i in 1...samples {
            let t = 1 + Double(i) / rate
            h.move(1, 10 + speed * Double(i) / rate, 100, at: t)
        }
        let last = try #require(h.log.entries.last { $0.method == .moved })
        return (last.event, try #require(last.touches.first))
    }

    @Test("T14: a moving touch's predicted touches run ahead along its motion until the frame is shown")
    func aheadAlongTheMotion() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        let (event, touch) = try swipe(h)
        let predicted = event.predictedTouches(for: touch)
        let last = try #require(predicted.last)
        #expect(abs(last.timestamp - (touch.timestamp + 0.020)) < 1e-9)
        // 20 ms at 1,000 pt/s: 20 pt past the newest sample, on the line.
        #expect(abs(last.location(in: nil).x - (touch.location(in: nil).x + 20)) < 1)
        #expect(abs(last.location(in: nil).y - 100) < 0.01)
        // Oldest first, each its own object that moved on from the one before.
        #expect(zip(predicted, predicted.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp && $1.previousLocation(in: nil) == $0.location(in: nil) })
        #expect(predicted.first?.previousLocation(in: nil) == touch.location(in: nil))
        #expect(predicted.allSatisfy { $0 !== touch && $0.phase == .moved && $0.view === touch.view })
        // The touch itself stays where the finger was last seen.
        #expect(touch.location(in: nil).x == 110)
    }

    @Test("T14: the guess reaches no further than 32 ms past the newest sample")
    func capped() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        let (event, touch) = try swipe(h, lead: 0.2)
        let last = try #require(event.predictedTouches(for: touch).last)
        #expect(abs(last.timestamp - touch.timestamp - TouchPrediction.maximumInterval) < 1e-9)
        #expect(last.location(in: nil).x - touch.location(in: nil).x < 33)
    }

    @Test("T14: no prediction for a touch that just landed, ended, was cancelled or is not in the event")
    func noneWithoutMotion() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.prediction.presentationLead = { _ in 0.02 }
        h.tapDown(1, 10, 100, at: 1)
        let began = try #require(h.log.entries.last)
        #expect(began.event.predictedTouches(for: try #require(began.touches.first)).isEmpty)
        for i in 1...6 { h.move(1, 10 + 8 * Double(i), 100, at: 1 + Double(i) / 120) }
        h.lift(1, at: 1.06)
        let ended = try #require(h.log.entries.last)
        #expect(ended.method == .ended)
        #expect(ended.event.predictedTouches(for: try #require(ended.touches.first)).isEmpty)
        #expect(ended.event.predictedTouches(for: Touch.unrelated()).isEmpty)

        h.tapDown(2, 10, 100, at: 2)
        for i in 1...6 { h.move(2, 10 + 8 * Double(i), 100, at: 2 + Double(i) / 120) }
        h.input.cancel()
        let cancelled = try #require(h.log.entries.last)
        #expect(cancelled.method == .cancelled)
        #expect(cancelled.event.predictedTouches(for: try #require(cancelled.touches.first)).isEmpty)
    }

    @Test("T14: a finger that comes to rest gets no prediction")
    func stopped() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        let (_, touch) = try swipe(h)
        // The finger holds still, the panel still reporting it (a tiny tremor).
        for i in 1...8 { h.move(1, 110 + (i % 2 == 0 ? 0.05 : 0), 100, at: 1.1 + Double(i) / 120) }
        let last = try #require(h.log.entries.last { $0.method == .moved })
        #expect(last.event.predictedTouches(for: touch).isEmpty)
    }

    @Test("T14: a finger that turns back gets no prediction the wrong way")
    func reversed() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        let (_, touch) = try swipe(h)
        // From x = 110 going right at 1,000 pt/s, a small step back to the left: the estimate
        // still points right.
        h.move(1, 109, 100, at: 1.11)
        let last = try #require(h.log.entries.last { $0.method == .moved })
        let predicted = last.event.predictedTouches(for: touch)
        #expect(predicted.allSatisfy { $0.location(in: nil).x <= 109 }, "\(predicted)")
    }

    @Test("T14: a braking finger is followed towards where it would stop, never past it")
    func braking() {
        // x(t) = 1000 t - 10000 t²: stops at t = 0.05 s, at x = 25.
        var predictor = MotionPredictor<KalmanMotionModel>()
        for i in 0...36 {
            let t = Double(i) / 1000
            predictor.add(Point(x: 1000 * t - 10000 * t * t, y: 0), at: t)
        }
        // Ahead of the last sample (23.04), towards the stop, not past it, and not back: the
        // harder the braking, the shorter the guess (the estimate lags a braking hand).
        let guess = predictor.predictedLocation(at: 0.036 + 0.030)
        #expect((guess?.x ?? 0) <= 25.5 && (guess?.x ?? 0) > 23.3, "\(String(describing: guess))")
    }

    @Test("T14: a finger swinging into a turn is guessed to reach the turn, not to come back from it")
    func turnNotGuessed() {
        // A zig-zag stroke's end: x swings out to 200 with a hand's minimum-jerk profile over
        // 0.2 s, turning at t = 0.2, while y goes on at 150 pt/s; sampled at 120 Hz.
        func truth(_ t: Double) -> Point {
            let u = min(max(t / 0.2, 0), 1)
            return Point(x: 200 * u * u * u * (10 - 15 * u + 6 * u * u), y: 150 * t)
        }
        var predictor = MotionPredictor<KalmanMotionModel>()
        var t = 0.0
        while t < 0.2 {
            predictor.add(truth(t), at: t)
            // Each guess 20 ms ahead in the stroke's last 40 ms: not past the turn, and not back
            // from it before any sample showed the finger coming back.
            if t > 0.16, let guess = predictor.predictedLocation(at: t + 0.020) {
                #expect(guess.x <= 200.5 && guess.x >= truth(t).x - 0.5, "at \(t): guessed x \(guess.x), sample \(truth(t).x)")
            }
            t += 1.0 / 120
        }
    }

    @Test("T14: at 60 Hz input, a guess a 60 Hz frame ahead ends within 2 pt of a zig-zag's path, turns included")
    func sparseZigzag() {
        // Strokes of 200 pt back and forth, 0.2 s each with a hand's minimum-jerk profile, while
        // the hand slides down at 150 pt/s: a 60 Hz panel reports each turn in two samples.
        func truth(_ t: Double) -> Point {
            let t = min(max(t, 0), 1.6), k = min(Int(t / 0.2), 7)
            let u = (t - Double(k) * 0.2) / 0.2, s = u * u * u * (10 - 15 * u + 6 * u * u)
            return Point(x: k % 2 == 0 ? 200 * s : 200 - 200 * s, y: 150 * t)
        }
        // How far `p` lies from where the finger went, up to a little past the moment aimed at.
        func offPath(_ p: Point, until end: Double) -> Double {
            stride(from: 0, through: min(end, 1.6), by: 0.0005).map { p.distance(to: truth($0)) }.min() ?? .infinity
        }
        // Evenly spaced samples, then samples alternately 3 ms early and late.
        for jitter in [0.0, 0.003] {
            var predictor = MotionPredictor<KalmanMotionModel>()
            var worst = (off: 0.0, at: 0.0), guesses = 0
            for i in 0...96 {
                let t = Double(i) / 60 + (i == 0 ? 0 : (i % 2 == 0 ? jitter : -jitter))
                predictor.add(truth(t), at: t)
                // After the first half stroke (where the slide starts at full speed from rest).
                guard t >= 0.1, let guess = predictor.predictedLocation(at: t + 0.032) else { continue }
                guesses += 1
                let off = offPath(guess, until: t + 0.032 + 0.15)
                if off > worst.off { worst = (off, t) }
            }
            #expect(guesses > 60)
            #expect(worst.off <= 2, "jitter \(jitter): \(worst.off) pt off the path at t = \(worst.at)")
        }
    }

    @Test("T14: a touch's first guesses reach no further ahead than one and a half times as long as it was seen, and a later aim never lands shorter")
    func reachWithinHistory() throws {
        // A finger at 1,000 pt/s seen twice, 17 ms apart (a 60 Hz panel): a guess for 32 ms
        // ahead stops at 25.5 ms.
        var predictor = MotionPredictor<KalmanMotionModel>()
        predictor.add(Point(x: 0, y: 50), at: 1)
        predictor.add(Point(x: 17, y: 50), at: 1.017)
        let capped = try #require(predictor.predictedLocation(at: 1.049))
        #expect(capped.x > 17)
        #expect(capped == predictor.predictedLocation(at: 1.017 + 0.0255))
        #expect(capped != predictor.predictedLocation(at: 1.017 + 0.020))
        // The predicted touches end there too, stamped with the moment they reach.
        let path = predictor.predictedPath(until: 1.049)
        #expect(path.last?.location == capped)
        #expect(abs((path.last?.time ?? 0) - (1.017 + 0.0255)) < 1e-9)
        // Seen for 34 ms, the guess goes the full 32 ms, and each later moment lies further on.
        predictor.add(Point(x: 34, y: 50), at: 1.034)
        let xs = stride(from: 1.038, through: 1.066, by: 0.004).compactMap { predictor.predictedLocation(at: $0)?.x }
        #expect(xs.count == 8)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "\(xs)")
    }

    @Test("T14: nothing is guessed from a single sample")
    func singleSample() {
        var predictor = MotionPredictor<KalmanMotionModel>()
        predictor.add(Point(x: 10, y: 10), at: 1)
        #expect(predictor.predictedLocation(at: 1.016) == nil)
        #expect(predictor.predictedPath(until: 1.016).isEmpty)
    }

    @Test("T14: with prediction off, events carry none")
    func off() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.prediction.isEnabled = false
        let (event, touch) = try swipe(h)
        #expect(event.predictedTouches(for: touch).isEmpty)
    }

    @Test("T14: without a host that says when frames are shown, nothing is guessed")
    func noHost() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        let (event, touch) = try swipe(h, lead: nil)
        #expect(event.predictedTouches(for: touch).isEmpty)
        h.input.prediction.presentationLead = nil
        h.move(1, 230, 100, at: 1.11)
        let last = try #require(h.log.entries.last { $0.method == .moved })
        #expect(last.event.predictedTouches(for: touch).isEmpty)
    }
}

/// The estimators behind the prediction, on exact paths.
@Suite struct MotionModelTests {
    private func check<M: MotionModel>(_: M.Type) throws {
        var model = M()
        // x = 5 + 300 t + 2000 t², y = 40 - 100 t, sampled every 8 ms.
        for i in 0...12 {
            let t = Double(i) * 0.008
            model.add(Point(x: 5 + 300 * t + 2000 * t * t, y: 40 - 100 * t), at: t)
        }
        let e = try #require(model.estimate)
        let t = 0.096
        #expect(abs(e.position.x - (5 + 300 * t + 2000 * t * t)) < 0.5)
        #expect(abs(e.velocity.x - (300 + 4000 * t)) < 0.05 * (300 + 4000 * t))
        #expect(abs(e.velocity.y + 100) < 5)
        #expect(abs(e.acceleration.x - 4000) < 800)
    }

    @Test("T14: the Kalman filter recovers position, velocity and acceleration of a smooth path")
    func kalman() throws { try check(KalmanMotionModel.self) }

    @Test("T14: the least-squares fit recovers position, velocity and acceleration of a smooth path")
    func leastSquares() throws { try check(LeastSquaresMotionModel.self) }

    @Test("T14: one sample gives no estimate")
    func oneSample() {
        var k = KalmanMotionModel(), l = LeastSquaresMotionModel()
        k.add(Point(x: 1, y: 1), at: 0)
        l.add(Point(x: 1, y: 1), at: 0)
        #expect(k.estimate == nil && l.estimate == nil)
    }
}
