// When a touch's future may be guessed, and how far: the rules every estimator is held to.
// - Nothing from a single sample: one position says nothing of where the finger goes.
// - Nothing for a finger at rest or slowing to a stop: below a walking pace of the tip, a guess
//   only makes the tip tremble. A finger braking is followed to where it would stop, not past.
// - Nothing when the newest step points against the estimated motion: the finger has turned, and
//   the estimate has not caught up yet; a wrong-way guess is worse than none.
// - Never further ahead than `maximumInterval` past the newest sample: the further, the wilder.
// The guess starts at the newest real sample, so the drawn extension joins the real line.

/// Guesses where a touch will be, from its samples, by a ``MotionModel``.
public struct MotionPredictor<Model: MotionModel>: Sendable {
    /// The longest guess, in seconds past the newest sample.
    public var maximumInterval: Double
    /// Below this speed (pt/s) nothing is guessed.
    public var stopSpeed: Double

    private var model: Model
    private var newest: (location: Point, time: Double)?
    private var step = Point.zero
    /// The sample two before the newest: how far the finger really went lately.
    private var recent: [(location: Point, time: Double)] = []
    /// The usual time between samples, for spacing the predicted positions.
    private(set) var sampleInterval: Double?
    private(set) var count = 0

    public init(maximumInterval: Double = 0.032, stopSpeed: Double = 40) {
        self.init(model: Model(), maximumInterval: maximumInterval, stopSpeed: stopSpeed)
    }

    /// A predictor over `model` as configured (the benchmark compares settings).
    public init(model: Model, maximumInterval: Double = 0.032, stopSpeed: Double = 40) {
        self.model = model
        self.maximumInterval = maximumInterval
        self.stopSpeed = stopSpeed
    }

    /// A new sample of the touch, oldest first.
    public mutating func add(_ location: Point, at time: Double) {
        if let newest {
            step = Point(x: location.x - newest.location.x, y: location.y - newest.location.y)
            let dt = time - newest.time
            if dt > 0 { sampleInterval = sampleInterval.map { $0 * 0.75 + dt * 0.25 } ?? dt }
        }
        model.add(location, at: time)
        let sample = (location: location, time: max(time, newest?.time ?? time))
        newest = sample
        recent.append(sample)
        if recent.count > 3 { recent.removeFirst() }
        count += 1
    }

    /// The estimator's view of the motion at the newest sample.
    public var estimate: MotionEstimate? { model.estimate }

    /// Where the touch is expected at `time` (seconds, the samples' clock), or nil when the rules
    /// above say not to guess.
    public func predictedLocation(at time: Double) -> Point? {
        guard count >= 2, let newest, let motion = model.estimate else { return nil }
        let v = motion.velocity, a = motion.acceleration
        let speed = motion.speed
        guard speed >= stopSpeed else { return nil }
        // The filter's speed decays over a few samples; the samples themselves show a stop first.
        if let oldest = recent.first, newest.time > oldest.time,
           oldest.location.distance(to: newest.location) / (newest.time - oldest.time) < stopSpeed { return nil }
        // The newest step points back: the finger turned.
        if step.x * v.x + step.y * v.y < 0 { return nil }
        var h = min(time - newest.time, maximumInterval)
        guard h > 0 else { return nil }
        // Braking: go no further than where the speed along the path reaches zero.
        let along = (a.x * v.x + a.y * v.y) / speed
        if along < 0 { h = min(h, speed / -along) }
        var dx = v.x * h + a.x * h * h / 2, dy = v.y * h + a.y * h * h / 2
        // Acceleration may bend or shorten the guess, never lengthen it past what the speed alone
        // reaches: a finger speeding up is followed a frame later, but the estimate's acceleration
        // lags behind a finger braking into a turn and would carry the guess past it.
        let length = (dx * dx + dy * dy).squareRoot(), limit = speed * h * 1.0
        if length > limit {
            dx *= limit / length
            dy *= limit / length
        }
        return Point(x: newest.location.x + dx, y: newest.location.y + dy)
    }

    /// Predicted positions from the newest sample to `time`, one per usual sample interval and the
    /// last at `time` (capped at ``maximumInterval``), at most `limit`; empty when nothing is
    /// guessed.
    public func predictedPath(until time: Double, limit: Int = 8) -> [(location: Point, time: Double)] {
        guard let newest else { return [] }
        let end = min(time, newest.time + maximumInterval)
        guard end > newest.time, predictedLocation(at: end) != nil else { return [] }
        let spacing = max(sampleInterval ?? (end - newest.time), 0.004)
        var times: [Double] = []
        var t = newest.time + spacing
        while t < end - spacing / 4, times.count < limit - 1 {
            times.append(t)
            t += spacing
        }
        times.append(end)
        return times.compactMap { t in predictedLocation(at: t).map { ($0, t) } }
    }
}
