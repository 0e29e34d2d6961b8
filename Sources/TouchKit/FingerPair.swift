/// The two fingers a pinch or a rotation follows: the first two that land while the gesture is
/// still possible. A finger that lifts before the gesture begins leaves room for another.
struct FingerPair {
    private(set) var touches: [Touch] = []

    /// Both fingers are down.
    var isComplete: Bool { touches.count == 2 && touches.allSatisfy { !$0.isFinished } }

    /// Takes fingers from `new` (earliest first) while there is room and `accepting`; returns
    /// whether the pair just became complete and the fingers that did not fit.
    mutating func take(_ new: Set<Touch>, accepting: Bool) -> (completed: Bool, rest: [Touch]) {
        let wasComplete = isComplete
        var rest: [Touch] = []
        for touch in new.sorted(by: { $0.timestamp < $1.timestamp }) {
            if accepting, touches.count < 2 { touches.append(touch) } else { rest.append(touch) }
        }
        return (!wasComplete && isComplete, rest)
    }

    /// Forgets lifted fingers (before the gesture began).
    mutating func dropLifted() {
        touches.removeAll(where: \.isFinished)
    }

    mutating func removeAll() {
        touches = []
    }

    /// From the first finger to the second, in window points.
    var vector: Point {
        guard touches.count == 2 else { return .zero }
        let a = touches[0].location(in: nil), b = touches[1].location(in: nil)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }

    /// The distance between the fingers.
    var span: Double { Point.zero.distance(to: vector) }
}

/// How fast a value changes between samples, per second (a pinch's scale, a rotation's angle).
struct RateSampler {
    private var last: (time: Double, value: Double)?
    private(set) var rate = 0.0

    /// Starts measuring from `value` at `time`.
    mutating func start(_ value: Double, at time: Double) {
        last = (time, value)
    }

    mutating func sample(_ value: Double, at time: Double) {
        if let last, time > last.time { rate = (value - last.value) / (time - last.time) }
        last = (time, value)
    }

    mutating func reset() {
        last = nil
        rate = 0
    }
}

extension GestureRecognizer {
    /// The moves of a two-finger gesture (pinch, rotation): it begins once the fingers went
    /// `pastThreshold`, then changes with every move; `sample` records the new value first.
    func followTwoFingers(pastThreshold: Bool, sample: () -> Void) {
        switch effectiveState {
        case .possible:
            if pastThreshold {
                sample()
                state = .began
            }
        case .began, .changed:
            sample()
            state = .changed
        default:
            break
        }
    }

    /// A finger of the pair lifted: a gesture that began ends; one that did not waits for another
    /// finger, and fails when none is left. Returns the state to move to, for the caller to set.
    func twoFingersLifted(_ pair: inout FingerPair) -> State? {
        switch effectiveState {
        case .possible:
            pair.dropLifted()
            return !hasActiveTouches ? .failed : nil
        case .began, .changed:
            return .ended
        default:
            return nil
        }
    }

    /// Where a two-finger gesture is: the centroid of its fingers.
    func twoFingerLocation(_ pair: FingerPair, in view: View?) -> Point? {
        pair.touches.count == 2 ? centroid(of: pair.touches, in: view) : nil
    }
}

/// The angle from `a` to `b` in radians, in (-π, π], positive clockwise on screen (y grows down),
/// as UIKit's rotation is. TouchKit stays free of libm, hence its own arctangent.
func angle(from a: Point, to b: Point) -> Double {
    let cross = a.x * b.y - a.y * b.x
    let dot = a.x * b.x + a.y * b.y
    return arctangent(y: cross, x: dot)
}

/// atan2: the angle of the vector (x, y), in (-π, π]; 0 for the zero vector.
func arctangent(y: Double, x: Double) -> Double {
    if x == 0, y == 0 { return 0 }
    let ax = abs(x), ay = abs(y)
    // atan of a ratio in [0, 1], then unfolded into the right octant and quadrant.
    var a = arctangentUnit(min(ax, ay) / max(ax, ay))
    if ay > ax { a = Double.pi / 2 - a }
    if x < 0 { a = Double.pi - a }
    return y < 0 ? -a : a
}

/// atan(t) for t in [0, 1]: shifted by π/6 down to |t| ≤ tan(π/12), then the Taylor series.
private func arctangentUnit(_ t: Double) -> Double {
    let root3 = 1.7320508075688772
    let tanPiOver12 = 0.2679491924311227
    var offset = 0.0
    var z = t
    if z > tanPiOver12 {
        offset = Double.pi / 6
        z = (root3 * z - 1) / (root3 + z)
    }
    // |z| ≤ 0.268: 20 terms reach far below Double precision.
    let z2 = z * z
    var term = z
    var sum = 0.0
    for k in 0..<20 {
        sum += term / Double(2 * k + 1)
        term *= -z2
    }
    return offset + sum
}
