/// Recognizes two fingers moving apart or together (G15): continuous, beginning once the distance
/// between them changed by a few points.
///
/// ``scale`` is the distance between the fingers relative to where they started; set it (often
/// back to 1) to measure from now on. To pinch and rotate at once, let the two recognizers
/// recognize simultaneously through a delegate.
open class PinchGestureRecognizer: GestureRecognizer {
    /// How much the distance between the fingers must change (in points) before the pinch begins.
    static let hysteresis: Double = 8

    private var pair = FingerPair()
    private var initialSpan = 0.0
    /// `scale == base * span / reference`.
    private var base = 1.0
    private var reference = 0.0
    private var sampler = RateSampler()

    /// The fingers' distance relative to their distance when they landed (or when `scale` was
    /// last set, times that value). 1 before the fingers moved.
    public var scale: Double {
        get {
            guard reference > 0 else { return base }
            return base * pair.span / reference
        }
        set {
            base = newValue
            reference = pair.span
        }
    }

    /// How fast ``scale`` changes, per second.
    public var velocity: Double { sampler.rate }

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        let (completed, rest) = pair.take(touches, accepting: effectiveState == .possible)
        for touch in rest { ignore(touch, for: event) }
        if completed {
            initialSpan = pair.span
            base = 1
            reference = initialSpan
            sampler.start(1, at: event.timestamp)
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        guard pair.isComplete else { return }
        followTwoFingers(pastThreshold: abs(pair.span - initialSpan) > Self.hysteresis && initialSpan > 0) {
            sampler.sample(scale, at: event.timestamp)
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
        initialSpan = 0
        base = 1
        reference = 0
        sampler.reset()
    }

    /// The centroid of the two fingers.
    open override func location(in view: View?) -> Point {
        twoFingerLocation(pair, in: view) ?? super.location(in: view)
    }
}
