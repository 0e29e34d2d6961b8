// What a touch predictor estimates from a finger's samples: where it is, how fast it goes and how
// that speed changes, at its newest sample. Two estimators fill that in (KalmanMotionModel,
// LeastSquaresMotionModel); MotionPredictor decides from it whether and how far to extrapolate.
// Pure arithmetic: no touches, no clocks, so the benchmark can run every estimator over scripted
// paths and docs/prediction.md can say why the app uses the one it uses.

/// A finger's motion at its newest sample: position (pt), velocity (pt/s), acceleration (pt/s²).
public struct MotionEstimate: Sendable, Equatable {
    public var position: Point
    public var velocity: Point
    public var acceleration: Point
    /// The newest sample's time, in seconds.
    public var time: Double

    public init(position: Point, velocity: Point, acceleration: Point, time: Double) {
        self.position = position
        self.velocity = velocity
        self.acceleration = acceleration
        self.time = time
    }

    /// The speed, in points per second.
    public var speed: Double { (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() }
}

/// Turns a finger's samples, oldest first, into a ``MotionEstimate``.
public protocol MotionModel: Sendable {
    init()
    /// A new sample: `location` in points at `time` in seconds (never earlier than the last one).
    mutating func add(_ location: Point, at time: Double)
    /// The motion at the newest sample; nil until there is enough to say.
    var estimate: MotionEstimate? { get }
}
