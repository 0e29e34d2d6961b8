extension GestureRecognizer {
    /// Where a recognizer is in recognizing its gesture (G1).
    ///
    /// A discrete gesture (a tap, a swipe) goes from ``possible`` to ``recognized`` or ``failed``.
    /// A continuous gesture (a pan, a long press) goes from ``possible`` to ``began``, then
    /// ``changed`` any number of times, and ends in ``ended`` or ``cancelled``; or it goes from
    /// ``possible`` to ``failed``. After ``ended``, ``cancelled`` or ``failed`` the recognizer is
    /// reset to ``possible`` at the end of that event (G3).
    public enum State: Int, Hashable, Sendable, CustomStringConvertible {
        /// Still looking at touches; the default.
        case possible
        /// A continuous gesture started.
        case began
        /// A continuous gesture changed.
        case changed
        /// A continuous gesture finished, or a discrete gesture was recognized.
        case ended
        /// A continuous gesture was cancelled (a system cancel, or the recognizer was disabled).
        case cancelled
        /// The touches are not this gesture.
        case failed

        /// A discrete gesture was recognized: the same state as ``ended``.
        public static var recognized: State { .ended }

        public var description: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }

        /// The states a subclass may move to from each state (G1). Going back to ``possible``
        /// is the base class's job (the reset, G3), never a subclass's.
        public static let legalTransitions: [State: Set<State>] = [
            .possible: [.began, .ended, .failed],
            .began: [.changed, .ended, .cancelled],
            .changed: [.changed, .ended, .cancelled],
            .ended: [],
            .cancelled: [],
            .failed: [],
        ]

        /// Whether a recognizer may move from this state to `next`.
        public func canTransition(to next: State) -> Bool {
            State.legalTransitions[self, default: []].contains(next)
        }

        /// Ended, cancelled or failed: the recognizer waits for its reset.
        public var isFinished: Bool {
            self == .ended || self == .cancelled || self == .failed
        }

        /// Began, changed or ended: the gesture was recognized in this sequence.
        var isRecognized: Bool {
            self == .began || self == .changed || self == .ended
        }

        /// The states on which targets get an action (G2).
        var sendsActions: Bool {
            self == .began || self == .changed || self == .ended || self == .cancelled
        }
    }
}
