// The predicted touches of an event (Event.predictedTouches(for:)): a MotionPredictor per touch,
// fed every sample as the input adapter delivers it, and asked, as each event goes out, where the
// touch will be when the frame answering that event is shown. The host says when that is
// (`presentationLead`, learned from the compositor's presentation feedback); without it a guess
// reaches one 60 Hz refresh past the newest sample.

/// Predicted touches for one input adapter (``TouchInput/prediction``).
public final class TouchPrediction {
    /// Off, events carry no predicted touches.
    public var isEnabled = true
    /// For a touch's newest sample time (T6), how long after it the frame being built is
    /// expected to be shown, in seconds; nil when not known (``defaultLead`` applies).
    public var presentationLead: ((_ sampleTime: Double) -> Double?)?
    /// The lead when the host knows none.
    public static let defaultLead = 1.0 / 60
    /// The furthest a guess reaches past the newest sample, as Android's and Chromium's
    /// predictors cap theirs.
    public static let maximumInterval = 0.032

    private var predictors: [ObjectIdentifier: MotionPredictor<KalmanMotionModel>] = [:]

    public init() {}

    /// `touch` went down or moved: its new samples, oldest first.
    func add(_ samples: [(Point, Double)], of touch: Touch) {
        guard isEnabled else { return }
        let key = ObjectIdentifier(touch)
        var predictor = predictors[key] ?? MotionPredictor(maximumInterval: Self.maximumInterval)
        for (location, time) in samples { predictor.add(location, at: time) }
        predictors[key] = predictor
    }

    /// `touch` lifted or was cancelled: nothing more is guessed for it.
    func end(_ touch: Touch) {
        predictors[ObjectIdentifier(touch)] = nil
    }

    /// Snapshot touches for where `touch` is expected from its newest sample until the frame is
    /// shown; empty when nothing is guessed.
    func predictedTouches(for touch: Touch) -> [Touch] {
        guard isEnabled, let predictor = predictors[ObjectIdentifier(touch)] else { return [] }
        let newest = touch.timestamp
        let lead = presentationLead?(newest) ?? Self.defaultLead
        var previous = touch.windowLocation
        return predictor.predictedPath(until: newest + max(lead, 0)).map { location, time in
            defer { previous = location }
            return touch.snapshot(location: location, previousLocation: previous, timestamp: time, phase: .moved)
        }
    }
}
