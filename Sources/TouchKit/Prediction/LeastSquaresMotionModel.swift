// A quadratic fitted by least squares to a touch's samples of the last few tens of milliseconds,
// the other classic way to extrapolate a stroke: the window is short enough to follow a turn, and
// long enough to average a few samples' noise.

/// Position, velocity and acceleration of one touch from a parabola through its recent samples.
public struct LeastSquaresMotionModel: MotionModel {
    /// How far back samples count, in seconds.
    public var window: Double
    private var samples: [(location: Point, time: Double)] = []

    public init() {
        self.init(window: 0.05)
    }

    public init(window: Double) {
        self.window = window
    }

    public mutating func add(_ location: Point, at time: Double) {
        samples.append((location, time))
        let oldest = time - window
        // Keep at least three samples, however old: a slow panel still gets a fit.
        while samples.count > 3, samples[0].time < oldest { samples.removeFirst() }
    }

    public var estimate: MotionEstimate? {
        guard samples.count >= 2, let newest = samples.last else { return nil }
        let t0 = newest.time
        let span = t0 - samples[0].time
        guard span > 0 else { return nil }
        // A parabola needs three distinct times; two give a line.
        let quadratic = samples.count >= 3 && Set(samples.map(\.time)).count >= 3
        guard let fx = fit(\.x, quadratic: quadratic, at: t0), let fy = fit(\.y, quadratic: quadratic, at: t0) else { return nil }
        return MotionEstimate(position: Point(x: fx.0, y: fy.0), velocity: Point(x: fx.1, y: fy.1),
                              acceleration: Point(x: fx.2, y: fy.2), time: t0)
    }

    /// Value, first and second derivative at `t0` of the least-squares polynomial in t - t0.
    private func fit(_ axis: KeyPath<Point, Double>, quadratic: Bool, at t0: Double) -> (Double, Double, Double)? {
        let n = quadratic ? 3 : 2
        var a = [Double](repeating: 0, count: n * n), b = [Double](repeating: 0, count: n)
        for sample in samples {
            let t = sample.time - t0, v = sample.location[keyPath: axis]
            let powers = [1, t, t * t]
            for i in 0..<n {
                b[i] += powers[i] * v
                for j in 0..<n { a[i * n + j] += powers[i] * powers[j] }
            }
        }
        guard let c = solve(a, b, n) else { return nil }
        return (c[0], c[1], n == 3 ? 2 * c[2] : 0)
    }

    /// Gaussian elimination with partial pivoting; nil for a singular system.
    private func solve(_ matrix: [Double], _ rhs: [Double], _ n: Int) -> [Double]? {
        var a = matrix, b = rhs
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0 * n + col]) < abs(a[$1 * n + col]) }),
                  abs(a[pivot * n + col]) > 1e-18 else { return nil }
            if pivot != col {
                for k in 0..<n { a.swapAt(col * n + k, pivot * n + k) }
                b.swapAt(col, pivot)
            }
            for row in (col + 1)..<n {
                let f = a[row * n + col] / a[col * n + col]
                for k in col..<n { a[row * n + k] -= f * a[col * n + k] }
                b[row] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<n { sum -= a[row * n + k] * x[k] }
            x[row] = sum / a[row * n + row]
        }
        return x
    }
}
