// A Kalman filter per axis over position, velocity and acceleration, with the acceleration
// drifting as white noise in its change (jerk): the model androidx's motion predictor and
// Chromium's default predictor use. Each sample is a noisy position; the gain weighs it against
// the motion so far, so a finger's jitter and the compositor's millisecond timestamps are smoothed
// while a real turn is followed within a few samples.

/// Position, velocity and acceleration of one touch, filtered sample by sample.
public struct KalmanMotionModel: MotionModel {
    /// How much the acceleration may change, as the spectral density of white jerk ((pt/s³)²·s).
    public var jerkNoise: Double
    /// The variance of a sampled position (pt²): the panel's noise and the time stamps' rounding
    /// (a millisecond at 1,000 pt/s is a point).
    public var positionNoise: Double

    private var x = AxisFilter()
    private var y = AxisFilter()
    private var last: (location: Point, time: Double)?
    private var count = 0

    public init() {
        self.init(jerkNoise: 1e12, positionNoise: 2)
    }

    public init(jerkNoise: Double, positionNoise: Double) {
        self.jerkNoise = jerkNoise
        self.positionNoise = positionNoise
    }

    public mutating func add(_ location: Point, at time: Double) {
        guard let last else {
            x.start(at: location.x, variance: positionNoise)
            y.start(at: location.y, variance: positionNoise)
            self.last = (location, time)
            count = 1
            return
        }
        // Samples stamped in the same millisecond still carry a position.
        let dt = max(time - last.time, 0)
        x.update(location.x, after: dt, jerkNoise: jerkNoise, positionNoise: positionNoise)
        y.update(location.y, after: dt, jerkNoise: jerkNoise, positionNoise: positionNoise)
        self.last = (location, max(time, last.time))
        count += 1
    }

    public var estimate: MotionEstimate? {
        guard count >= 2, let last else { return nil }
        return MotionEstimate(position: Point(x: x.state.0, y: y.state.0),
                              velocity: Point(x: x.state.1, y: y.state.1),
                              acceleration: Point(x: x.state.2, y: y.state.2), time: last.time)
    }
}

/// One axis: state (position, velocity, acceleration) and its covariance, symmetric 3x3. Inline
/// arrays, not arrays: every finger's every sample runs this, and an array's buffer was a heap
/// allocation (its type looked up at run time) for each matrix.
private struct AxisFilter {
    var state = (0.0, 0.0, 0.0)
    /// Row-major covariance.
    var p = InlineArray<9, Double>(repeating: 0)

    /// The first sample: the position is known, velocity and acceleration not at all.
    mutating func start(at position: Double, variance: Double) {
        state = (position, 0, 0)
        p = [variance, 0, 0, 0, 1e8, 0, 0, 0, 1e12]
    }

    mutating func update(_ measured: Double, after dt: Double, jerkNoise q: Double, positionNoise r: Double) {
        if dt > 0 { predict(dt, q) }
        // Measurement of the position only: gain K = P Hᵀ / (H P Hᵀ + R).
        let s = p[0] + r
        let k = (p[0] / s, p[3] / s, p[6] / s)
        let innovation = measured - state.0
        state = (state.0 + k.0 * innovation, state.1 + k.1 * innovation, state.2 + k.2 * innovation)
        // P = (I - K H) P
        let row0 = (p[0], p[1], p[2])
        let gains: InlineArray<3, Double> = [k.0, k.1, k.2]
        for i in 0..<3 {
            p[i * 3 + 0] -= gains[i] * row0.0
            p[i * 3 + 1] -= gains[i] * row0.1
            p[i * 3 + 2] -= gains[i] * row0.2
        }
    }

    /// State and covariance `dt` seconds on: x ← F x, P ← F P Fᵀ + Q (white jerk).
    private mutating func predict(_ dt: Double, _ q: Double) {
        let dt2 = dt * dt / 2
        state = (state.0 + state.1 * dt + state.2 * dt2, state.1 + state.2 * dt, state.2)
        let f: InlineArray<9, Double> = [1, dt, dt2, 0, 1, dt, 0, 0, 1]
        var fp = InlineArray<9, Double>(repeating: 0)
        for i in 0..<3 { for j in 0..<3 { fp[i * 3 + j] = f[i * 3] * p[j] + f[i * 3 + 1] * p[3 + j] + f[i * 3 + 2] * p[6 + j] } }
        var next = InlineArray<9, Double>(repeating: 0)
        for i in 0..<3 { for j in 0..<3 { next[i * 3 + j] = fp[i * 3] * f[j * 3] + fp[i * 3 + 1] * f[j * 3 + 1] + fp[i * 3 + 2] * f[j * 3 + 2] } }
        // Q = q · g gᵀ: a jerk of variance q held over the step.
        let g: InlineArray<3, Double> = [dt * dt * dt / 6, dt2, dt]
        for i in 0..<3 { for j in 0..<3 { next[i * 3 + j] += q * g[i] * g[j] } }
        p = next
    }
}
