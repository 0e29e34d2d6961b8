/// The recent travel of something moving (a pan's fingers, a touchpad's scroll), for its speed
/// when it is let go.
struct TravelSamples {
    /// How far back the speed looks, in seconds.
    static let window: Double = 0.1
    private var samples: [(time: Double, travel: Point)] = []

    mutating func add(_ travel: Point, at time: Double) {
        samples.append((time, travel))
        samples.removeAll { $0.time < time - 2 * Self.window }
    }

    mutating func removeAll() { samples = [] }

    /// Points a second over the last ``window`` before the newest sample (or between the first and
    /// the newest when they are closer together than that).
    var velocity: Point {
        guard let last = samples.last else { return .zero }
        let recent = samples.last { $0.time <= last.time - Self.window } ?? (samples.count > 1 ? samples[0] : nil)
        guard let reference = recent, last.time > reference.time else { return .zero }
        let dt = last.time - reference.time
        return Point(x: (last.travel.x - reference.travel.x) / dt, y: (last.travel.y - reference.travel.y) / dt)
    }

    /// ``velocity``, or zero when nothing moved in the ``window`` before `time` (it came to rest).
    func velocity(at time: Double) -> Point {
        guard let last = samples.last, last.time >= time - Self.window else { return .zero }
        return velocity
    }
}
