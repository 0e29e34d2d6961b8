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
    /// the newest when they are closer together than that). The travel where the window starts
    /// lies between the samples either side of it: taking the sample before it counted a whole
    /// frame's move, mostly from outside the window, so fingers that came to rest a hair less than
    /// the window before lifting read as a flick, and those resting a hair more did not.
    var velocity: Point {
        guard let last = samples.last else { return .zero }
        let start = last.time - Self.window
        if let i = samples.lastIndex(where: { $0.time <= start }) {
            let a = samples[i], b = samples[i + 1]
            let f = b.time > a.time ? (start - a.time) / (b.time - a.time) : 0
            let x = a.travel.x + (b.travel.x - a.travel.x) * f, y = a.travel.y + (b.travel.y - a.travel.y) * f
            return Point(x: (last.travel.x - x) / Self.window, y: (last.travel.y - y) / Self.window)
        }
        guard samples.count > 1, last.time > samples[0].time else { return .zero }
        let first = samples[0], dt = last.time - first.time
        return Point(x: (last.travel.x - first.travel.x) / dt, y: (last.travel.y - first.travel.y) / dt)
    }

    /// ``velocity``, or zero when nothing moved in the ``window`` before `time` (it came to rest).
    func velocity(at time: Double) -> Point {
        guard let last = samples.last, last.time >= time - Self.window else { return .zero }
        return velocity
    }
}
