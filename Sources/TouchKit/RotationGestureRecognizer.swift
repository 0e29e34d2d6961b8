/// Recognizes two fingers turning around each other (G15): continuous, beginning once they
/// turned by a few degrees.
///
/// ``rotation`` is in radians, positive clockwise on screen, counted from where the fingers
/// landed (several turns add up); set it (often back to 0) to measure from now on. To pinch and
/// rotate at once, let the two recognizers recognize simultaneously through a delegate.
open class RotationGestureRecognizer: GestureRecognizer {
    /// How far (in radians) the fingers must turn before the rotation begins (about 5.7°).
    static let hysteresis: Double = 0.1

    private var pair = FingerPair()
    /// The angle the finger vector turned since the pair formed, summed step by step.
    private var turned = 0.0
    private var lastVector = Point.zero
    /// `rotation == base + turned - reference`.
    private var base = 0.0
    private var reference = 0.0
    private var sampler = RateSampler()

    /// The angle the fingers turned, in radians, since they landed (or since `rotation` was last
    /// set, plus that value).
    public var rotation: Double {
        get { base + turned - reference }
        set {
            base = newValue
            reference = turned
        }
    }

    /// How fast ``rotation`` changes, in radians per second.
    public var velocity: Double { sampler.rate }

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        let (completed, rest) = pair.take(touches, accepting: effectiveState == .possible)
        for touch in rest { ignore(touch, for: event) }
        if completed {
            turned = 0
            base = 0
            reference = 0
            lastVector = pair.vector
            sampler.start(0, at: event.timestamp)
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        guard pair.isComplete else { return }
        let vector = pair.vector
        if vector != .zero, lastVector != .zero {
            turned += angle(from: lastVector, to: vector)
        }
        if vector != .zero { lastVector = vector }
        followTwoFingers(pastThreshold: abs(turned) > Self.hysteresis) {
            sampler.sample(rotation, at: event.timestamp)
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        // The state is set once `pair` is no longer being changed: its actions may read the
        // location, which reads `pair`.
        if let next = twoFingersLifted(&pair) { state = next }
    }

    // A system cancel needs no override: the base class cancels a gesture that began and fails
    // one that did not (T9).

    open override func reset() {
        super.reset()
        pair.removeAll()
        turned = 0
        lastVector = .zero
        base = 0
        reference = 0
        sampler.reset()
    }

    /// The centroid of the two fingers.
    open override func location(in view: View?) -> Point {
        twoFingerLocation(pair, in: view) ?? super.location(in: view)
    }
}
