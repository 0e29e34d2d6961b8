// When a touch's future may be guessed, and how far: the rules every estimator is held to.
// - Nothing from a single sample: one position says nothing of where the finger goes.
// - Nothing for a finger at rest or slowing to a stop: below a walking pace of the tip, a guess
//   only makes the tip tremble. A finger braking is followed towards where it would stop, never
//   past, and the harder it brakes the shorter the guess: the estimate's deceleration lags a hand's.
// - No turn guessed before the samples show it: along the acceleration, a motion slowing down is
//   held where it would reverse.
// - Nothing when the newest step points against the estimated motion: the finger has turned, and
//   the estimate has not caught up yet; a wrong-way guess is worse than none.
// - Never further ahead than `maximumInterval` past the newest sample: the further, the wilder;
//   and never further ahead than one and a half times as long as the touch has been seen.
// - A turn in progress stops the motion across it too: while the samples still go against the
//   acceleration, the estimate has turned before the finger, and the motion across the turn
//   (a zig-zag's slide) would carry the guess off the path as it comes back.
// The guess starts at the newest real sample, so the drawn extension joins the real line.

import Glibc

/// Guesses where a touch will be, from its samples, by a ``MotionModel``.
public struct MotionPredictor<Model: MotionModel>: Sendable {
    /// The longest guess, in seconds past the newest sample.
    public var maximumInterval: Double
    /// Below this speed (pt/s) nothing is guessed.
    public var stopSpeed: Double
    /// Samples before anything is guessed: the estimate's first few are mostly its prior.
    public var minimumSamples: Int
    /// Shortens the guess by how much slower the newest samples went than the estimate says they
    /// did (a finger braking before the filter sees it), raised to this power; 0: not at all.
    public var brakingTrust: Double
    /// While the newest samples went slower than the estimate says, moves the estimated velocity
    /// this far (0 to 1) towards theirs: the filter's velocity lags a braking finger.
    public var lagCorrection: Double
    /// Guesses no turn back: along the acceleration, a motion slowing down stops where it would
    /// reverse (the reversal is followed once the samples show it).
    public var holdsTurns: Bool
    /// Shortens the horizon of a braking finger: h / (1 + k·c), c the share of its speed the
    /// estimated deceleration takes away over h. The harder the braking, the less the estimate
    /// holds (its deceleration lags a hand's), and the sooner the finger stops or turns.
    public var brakingShrink: Double
    /// Follows a deceleration that grows (a hand braking into a stop or turn brakes harder each
    /// sample): the change of the estimated acceleration extrapolated too, when it shortens the
    /// guess along the motion.
    public var followsJerk: Bool
    /// How much of the smoothed jerk each new sample keeps (the rest is the newest change): at a
    /// 60 Hz panel a braking stroke shows in two or three samples, so the smoothing must be quick.
    public var jerkSmoothing: Double
    /// How strongly the followed jerk shortens the guess: the filter's acceleration lags a hand's
    /// by about a sample, so its change understates the braking to come.
    public var jerkGain: Double
    /// The longest guess in spans of the samples seen so far (0: no such cap). The first
    /// estimates of a touch are mostly the filter's prior: a guess reaching further ahead than
    /// the samples reach back goes where nothing has been seen.
    public var historyReach: Double
    /// When the samples of the newest two intervals go against the acceleration by more than
    /// this share of their speed while the estimate already goes with it (the filter turned, the
    /// finger has not yet), nothing is guessed across the acceleration either; 0: the motion
    /// across goes on.
    public var turnShare: Double
    /// What "the newest samples" are for the stop, braking and turn checks: back to the newest
    /// one at least this long (s) before the newest, of the last three, else all three. Three
    /// samples of a 60 Hz panel span 33 ms, and a turn shows in them a sample late; two of a
    /// 120 Hz panel span 8 ms, too few to outweigh the millisecond stamps.
    public var seenSpan: Double
    /// The change of the estimated acceleration per second, smoothed.
    private var jerk = Point.zero
    /// The first sample's time.
    private var firstTime: Double?

    private var model: Model
    private var newest: (location: Point, time: Double)?
    private var step = Point.zero
    /// The newest three samples: how far the finger really went lately.
    private var recent: [(location: Point, time: Double)] = []
    /// The usual time between samples, for spacing the predicted positions.
    private(set) var sampleInterval: Double?
    private(set) var count = 0

    public init(maximumInterval: Double = 0.032, stopSpeed: Double = 40) {
        self.init(model: Model(), maximumInterval: maximumInterval, stopSpeed: stopSpeed)
    }

    /// A predictor over `model` as configured (the benchmark compares settings).
    public init(model: Model, maximumInterval: Double = 0.032, stopSpeed: Double = 40,
                minimumSamples: Int = 2, brakingTrust: Double = 2, lagCorrection: Double = 0,
                holdsTurns: Bool = true, brakingShrink: Double = 2, followsJerk: Bool = true,
                jerkSmoothing: Double = 0.25, jerkGain: Double = 2, historyReach: Double = 1.5,
                turnShare: Double = 0.3, seenSpan: Double = 0.012) {
        self.model = model
        self.maximumInterval = maximumInterval
        self.stopSpeed = stopSpeed
        self.minimumSamples = minimumSamples
        self.brakingTrust = brakingTrust
        self.lagCorrection = lagCorrection
        self.holdsTurns = holdsTurns
        self.brakingShrink = brakingShrink
        self.followsJerk = followsJerk
        self.jerkSmoothing = jerkSmoothing
        self.jerkGain = jerkGain
        self.historyReach = historyReach
        self.turnShare = turnShare
        self.seenSpan = seenSpan
    }

    /// A new sample of the touch, oldest first.
    public mutating func add(_ location: Point, at time: Double) {
        if let newest {
            step = Point(x: location.x - newest.location.x, y: location.y - newest.location.y)
            let dt = time - newest.time
            if dt > 0 { sampleInterval = sampleInterval.map { $0 * 0.75 + dt * 0.25 } ?? dt }
        }
        let before = followsJerk ? model.estimate : nil
        model.add(location, at: time)
        if let before, let after = model.estimate, after.time > before.time {
            let dt = after.time - before.time
            let j = Point(x: (after.acceleration.x - before.acceleration.x) / dt, y: (after.acceleration.y - before.acceleration.y) / dt)
            let k = jerkSmoothing
            jerk = Point(x: jerk.x * k + j.x * (1 - k), y: jerk.y * k + j.y * (1 - k))
        }
        let sample = (location: location, time: max(time, newest?.time ?? time))
        newest = sample
        if firstTime == nil { firstTime = sample.time }
        recent.append(sample)
        if recent.count > 3 { recent.removeFirst() }
        count += 1
    }

    /// How far past the newest sample a guess may reach, in seconds.
    private var reach: Double {
        guard historyReach > 0, let newest, let firstTime else { return maximumInterval }
        return min(maximumInterval, historyReach * (newest.time - firstTime))
    }

    /// The estimator's view of the motion at the newest sample.
    public var estimate: MotionEstimate? { model.estimate }

    /// Where the touch is expected at `time` (seconds, the samples' clock), or nil when the rules
    /// above say not to guess.
    public func predictedLocation(at time: Double) -> Point? {
        guard count >= max(minimumSamples, 2), let newest, let motion = model.estimate else { return nil }
        var v = motion.velocity
        let a = motion.acceleration
        var speed = motion.speed
        guard speed >= stopSpeed else { return nil }
        // The filter's speed decays over a few samples; the samples themselves show a stop first.
        var trust = 1.0
        var seen: Point?
        let oldestSeen = recent.dropLast().last { newest.time - $0.time >= seenSpan } ?? recent.first
        if let oldest = oldestSeen, newest.time > oldest.time {
            let span = newest.time - oldest.time
            let sampled = oldest.location.distance(to: newest.location) / span
            if sampled < stopSpeed { return nil }
            // The velocity the estimate gives the middle of those samples, against theirs.
            let mid = Point(x: v.x - a.x * span / 2, y: v.y - a.y * span / 2)
            let estimated = (mid.x * mid.x + mid.y * mid.y).squareRoot()
            seen = Point(x: (newest.location.x - oldest.location.x) / span, y: (newest.location.y - oldest.location.y) / span)
            if sampled < estimated, let seen {
                if brakingTrust > 0 { trust = pow(sampled / estimated, brakingTrust) }
                if lagCorrection > 0 {
                    v = Point(x: v.x + lagCorrection * (seen.x - mid.x), y: v.y + lagCorrection * (seen.y - mid.y))
                    speed = (v.x * v.x + v.y * v.y).squareRoot()
                    if speed < stopSpeed { return nil }
                }
            }
        }
        // The newest step points back: the finger turned.
        if step.x * v.x + step.y * v.y < 0 { return nil }
        var h = min(time - newest.time, reach)
        guard h > 0 else { return nil }
        // Braking: go no further than where the speed along the path reaches zero.
        let along = (a.x * v.x + a.y * v.y) / speed
        if along < 0 {
            h /= 1 + brakingShrink * -along * h / speed
            h = min(h, speed / -along)
        }
        var dx = v.x * h + a.x * h * h / 2, dy = v.y * h + a.y * h * h / 2
        if followsJerk {
            // Along the motion only, and only shortening it.
            let u = Point(x: v.x / speed, y: v.y / speed)
            let ju = jerk.x * u.x + jerk.y * u.y
            if ju < 0 {
                // Up to where the speed along the motion, s + A t + G t²/2, would reach zero:
                // beyond, the guess would come back, and a guess aimed later would land shorter.
                let g = jerkGain * ju
                let stop = (-along - (along * along - 2 * g * speed).squareRoot()) / g
                let t = min(h, stop)
                let extra = max(g * t * t * t / 6, -(dx * u.x + dy * u.y))
                dx += extra * u.x
                dy += extra * u.y
            }
        }
        let magnitude = (a.x * a.x + a.y * a.y).squareRoot()
        if holdsTurns, magnitude > 0 {
            // Along the acceleration the motion is v·â t + |a| t²/2: when v·â < 0 it comes back
            // after -v·â/|a|. Hold it at that turning point; across, the motion goes on.
            let u = Point(x: a.x / magnitude, y: a.y / magnitude)
            let va = v.x * u.x + v.y * u.y
            let turn = -va / magnitude
            let alongNow = dx * u.x + dy * u.y
            var alongHeld = alongNow
            if va < 0, h > turn { alongHeld = va * turn + magnitude * turn * turn / 2 }
            // The estimate may have turned before the samples did: while they still go against
            // the acceleration, the guess goes no way back along it either.
            if let seen, seen.x * u.x + seen.y * u.y < 0 { alongHeld = min(alongHeld, 0) }
            dx += (alongHeld - alongNow) * u.x
            dy += (alongHeld - alongNow) * u.y
            // A turn in progress: the estimate goes with the acceleration, the samples clearly
            // against it. Keep only the part along the acceleration (up to the turn): across it
            // the finger is about to come back, not to slide on.
            if turnShare > 0, va > 0, let seen {
                let seenSpeed = (seen.x * seen.x + seen.y * seen.y).squareRoot()
                if seenSpeed > 0, seen.x * u.x + seen.y * u.y < -turnShare * seenSpeed {
                    let kept = dx * u.x + dy * u.y
                    dx = kept * u.x
                    dy = kept * u.y
                }
            }
        }
        // Acceleration may bend or shorten the guess, never lengthen it past what the speed alone
        // reaches: a finger speeding up is followed a frame later, but the estimate's acceleration
        // lags behind a finger braking into a turn and would carry the guess past it.
        let length = (dx * dx + dy * dy).squareRoot(), limit = speed * h * trust
        if length > limit {
            dx *= limit / length
            dy *= limit / length
        }
        return Point(x: newest.location.x + dx, y: newest.location.y + dy)
    }

    /// Predicted positions from the newest sample to `time`, one per usual sample interval and the
    /// last at `time` (capped at ``maximumInterval`` and by ``historyReach``), at most `limit`;
    /// empty when nothing is guessed.
    public func predictedPath(until time: Double, limit: Int = 8) -> [(location: Point, time: Double)] {
        guard let newest else { return [] }
        let end = min(time, newest.time + reach)
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
