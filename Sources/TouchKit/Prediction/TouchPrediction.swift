// The predicted touches of an event (Event.predictedTouches(for:)): a MotionPredictor per touch,
// fed every sample as the input adapter delivers it, and asked, as each event goes out, where the
// touch will be when the frame answering that event is shown. The host says when that is
// (`presentationLead`, learned from the compositor's presentation feedback). Without a host that
// shows frames (a test, a replay into a file) nothing is guessed: there is no moment to aim at.

/// Predicted touches for one input adapter (``TouchInput/prediction``).
public final class TouchPrediction {
    /// Off, events carry no predicted touches.
    public var isEnabled = true
    /// For a touch's newest sample time (T6), how long after it the frame being built is
    /// expected to be shown, in seconds; nil (or no closure): not known, and nothing is guessed.
    public var presentationLead: ((_ sampleTime: Double) -> Double?)?
    /// The furthest a guess reaches past the newest sample, as Android's and Chromium's
    /// predictors cap theirs.
    public static let maximumInterval = 0.032

    private var predictors: [ObjectIdentifier: MotionPredictor<KalmanMotionModel>] = [:]
    /// Each touch's newest guess: its newest sample, the predicted tip (nil: none) and the time
    /// the guess is for, in the order the guesses were made.
    private var guesses: [ObjectIdentifier: (sample: Point, tip: Point?, time: Double)] = [:]
    private var guessOrder: [ObjectIdentifier] = []

    public init() {}

    /// `touch` went down or moved: its new samples, oldest first.
    func add(_ samples: [(Point, Double)], of touch: Touch) {
        guard isEnabled else { return }
        // In place: a predictor copied out and back shares its history with the one left in the
        // dictionary, and every sample copied that history (copy on write).
        Self.feed(&predictors[ObjectIdentifier(touch), default: MotionPredictor(maximumInterval: Self.maximumInterval)], samples)
    }

    private static func feed(_ predictor: inout MotionPredictor<KalmanMotionModel>, _ samples: [(Point, Double)]) {
        for (location, time) in samples { predictor.add(location, at: time) }
    }

    /// `touch` lifted or was cancelled: nothing more is guessed for it.
    func end(_ touch: Touch) {
        let key = ObjectIdentifier(touch)
        predictors[key] = nil
        guesses[key] = nil
        guessOrder.removeAll { $0 == key }
    }

    /// The newest guess of each touch down, for a log (`touchtracker --latency`): where the
    /// finger was last seen, the tip predicted and how far ahead of that sample; nil when no
    /// touch moved.
    public var latestGuess: String? {
        let parts = guessOrder.compactMap { key -> String? in
            guard let g = guesses[key] else { return nil }
            let seen = "(\(Self.format(g.sample.x)), \(Self.format(g.sample.y)))"
            guard let tip = g.tip else { return "seen \(seen), no guess" }
            return "seen \(seen), tip (\(Self.format(tip.x)), \(Self.format(tip.y))) for +\(Self.format(g.time * 1000)) ms"
        }
        return parts.isEmpty ? nil : "prediction: " + parts.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// Snapshot touches for where `touch` is expected from its newest sample until the frame is
    /// shown; empty when nothing is guessed.
    func predictedTouches(for touch: Touch) -> [Touch] {
        guard isEnabled, let predictor = predictors[ObjectIdentifier(touch)] else { return [] }
        let newest = touch.timestamp
        guard let lead = presentationLead?(newest) else { return [] }
        var previous = touch.windowLocation
        let path = predictor.predictedPath(until: newest + max(lead, 0))
        let key = ObjectIdentifier(touch)
        if guesses[key] == nil { guessOrder.append(key) }
        guesses[key] = (touch.windowLocation, path.last?.location, (path.last?.time ?? newest) - newest)
        return path.map { location, time in
            defer { previous = location }
            return touch.snapshot(location: location, previousLocation: previous, timestamp: time, phase: .moved)
        }
    }
}
