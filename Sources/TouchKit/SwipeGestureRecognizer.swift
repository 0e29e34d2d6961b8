/// Recognizes a quick stroke in one of the allowed directions with a number of fingers (G14):
/// discrete, recognized while the fingers are still moving, as soon as they covered 50 pt
/// mostly along one allowed direction (at most half as far off the axis) within 0.5 s.
///
/// It fails when the fingers lift first, take too long, head off in a direction that is not
/// allowed, or more fingers than ``numberOfTouchesRequired`` land.
open class SwipeGestureRecognizer: GestureRecognizer {
    /// The directions a swipe may go; several may be combined.
    public struct Direction: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The allowed directions. Default: right.
    public var direction: Direction = .right
    /// How many fingers swipe together. Default: 1.
    public var numberOfTouchesRequired = 1

    /// How far (in points) the fingers must travel along the direction.
    static let minimumDistance: Double = 50
    /// How long the swipe may take from the first finger down, in seconds.
    static let maximumDuration: Double = 0.5
    /// How far off the axis the stroke may drift, as a fraction of the distance along it.
    static let maximumDeviation: Double = 0.5

    private var starts: [ObjectIdentifier: Point] = [:]
    private var startTime: Double?

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        for touch in touches { starts[ObjectIdentifier(touch)] = touch.location(in: nil) }
        if startTime == nil {
            startTime = touches.map(\.timestamp).min() ?? event.timestamp
            scheduleTimer(after: Self.maximumDuration) { [unowned self] in
                if effectiveState == .possible { state = .failed }
            }
        }
        if activeTouchCount > numberOfTouchesRequired { state = .failed }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        if let startTime, event.timestamp - startTime > Self.maximumDuration {
            state = .failed
            return
        }
        let active = activeTouches
        guard active.count == numberOfTouchesRequired else { return }
        var dx = 0.0, dy = 0.0
        for touch in active {
            guard let start = starts[ObjectIdentifier(touch)] else { continue }
            let p = touch.location(in: nil)
            dx += p.x - start.x
            dy += p.y - start.y
        }
        dx /= Double(active.count)
        dy /= Double(active.count)
        guard (dx * dx + dy * dy).squareRoot() >= Self.minimumDistance else { return }
        let horizontal = abs(dx) >= abs(dy)
        let primary = horizontal ? abs(dx) : abs(dy)
        let secondary = horizontal ? abs(dy) : abs(dx)
        let heading: Direction = horizontal ? (dx > 0 ? .right : .left) : (dy > 0 ? .down : .up)
        if direction.contains(heading), secondary <= primary * Self.maximumDeviation {
            state = .recognized
        } else {
            state = .failed
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        if effectiveState == .possible { state = .failed }
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        super.touchesCancelled(touches, with: event)
        if effectiveState == .possible { state = .failed }
    }

    open override func reset() {
        super.reset()
        starts = [:]
        startTime = nil
    }
}
