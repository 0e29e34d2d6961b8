// When a frame committed now will be on screen, learned from the compositor's own word:
// wp_presentation feedback for each commit says when it was shown and the output's refresh. The
// usual delay from commit to presentation (the compositor's repaint schedule, a vblank to wait
// for) is kept from the recent frames, so a change of output, refresh or compositor load is
// followed within a few frames. TouchKit's predicted touches reach that moment
// (TouchPrediction.presentationLead); `--latency` logs each feedback through the same object.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Wayland

/// The recent commit → presentation delays and the refresh, with the expected delay they give.
struct PresentationDelay {
    /// Delays kept, newest last.
    private var delays: [Double] = []
    static let kept = 9
    /// The output's refresh period as last reported, seconds (nil: not reported, or variable).
    private(set) var refresh: Double?

    /// A commit was shown `delay` seconds after it was made, on an output of `refresh` seconds
    /// (0: unknown).
    mutating func presented(after delay: Double, refresh: Double) {
        // A negative or very long delay is a clock mix-up or a frame held while hidden.
        guard delay >= 0, delay < 0.25 else { return }
        delays.append(delay)
        if delays.count > Self.kept { delays.removeFirst() }
        if refresh > 0 { self.refresh = refresh }
    }

    /// Without feedback, the newest commit the window's frame callback has not yet followed.
    private var uncalledCommit: Double?

    /// A commit at `commit` (CLOCK_MONOTONIC seconds) gets no presentation feedback.
    mutating func committedWithoutFeedback(at commit: Double) {
        uncalledCommit = commit
    }

    /// The window's frame callback came at `now`. Without feedback (no wp_presentation, as in
    /// KWin's virtual session, or none answered) it is the nearest a compositor says of when a
    /// frame is shown: it is sent once a frame with the surface is painted. The newest commit's
    /// wait for it teaches the delays as feedback would; returns that wait (nil: no commit
    /// without feedback waited).
    @discardableResult
    mutating func frameCallback(at now: Double) -> Double? {
        guard let commit = uncalledCommit else { return nil }
        uncalledCommit = nil
        presented(after: now - commit, refresh: 0)
        return now - commit
    }

    /// The usual delay: the median of the recent ones, at most two refreshes (a compositor that
    /// falls behind for a moment should not send the guesses far ahead); nil before any.
    var expected: Double? {
        guard !delays.isEmpty else { return nil }
        let median = delays.sorted()[delays.count / 2]
        return refresh.map { min(median, 2 * $0) } ?? median
    }

    /// The delay assumed before any feedback (a compositor without wp_presentation, the first
    /// frames): one refresh of a 60 Hz output.
    static let assumed = 1.0 / 60

    /// How long after an input event stamped `sampleTime` (the compositor's millisecond clock, in
    /// seconds, T6) a frame committed at `now` (CLOCK_MONOTONIC seconds) is expected on screen.
    /// The stamps are the low 32 bits of the monotonic clock in milliseconds: the sample's age is
    /// their difference, modulo 2³². A stamp that is no recent time of that clock (KWin's fake
    /// input stamps touches from another) is taken as a sample just read: the lead is the delay.
    func lead(sampleTime: Double, now: Double) -> Double {
        let expected = self.expected ?? Self.assumed
        let nowMs = UInt32(truncatingIfNeeded: UInt64(now * 1000))
        let sampleMs = UInt32(truncatingIfNeeded: UInt64((sampleTime * 1000).rounded()))
        let age = Double(nowMs &- sampleMs) / 1000
        guard age < 10 else { return expected }
        return age + expected
    }
}

/// wp_presentation for the window: feedback for each commit, and the delays it teaches.
final class PresentationTimes {
    private var presentation: WpPresentation?
    /// The clock of presentation timestamps (wp_presentation.clock_id); Weston uses
    /// CLOCK_MONOTONIC_RAW, others CLOCK_MONOTONIC.
    private var clockID = clockid_t(CLOCK_MONOTONIC)
    private(set) var delay = PresentationDelay()
    /// Feedbacks waiting for their answer, with who else is told and in which order they were asked.
    private var waiting: [ObjectIdentifier: (feedback: WpPresentationFeedback, answer: Answer?, order: Int)] = [:]
    private var asked = 0
    /// Set once the compositor left ``unansweredLimit`` feedbacks unanswered (Sway 1.7 headless
    /// answers hardly any): no more are asked for.
    private(set) var unanswered = false
    /// Frames a compositor may hold unanswered: far more than it can show before answering.
    static let unansweredLimit = 64

    var isBound: Bool { presentation != nil }

    func bind(_ registry: WlRegistry, name: UInt32) {
        let presentation = registry.bind(name: name, as: WpPresentation.self, version: 1)
        presentation.onEvent = { [unowned self] event in
            if case .clockId(let id) = event { self.clockID = clockid_t(id) }
        }
        self.presentation = presentation
    }

    /// What became of one commit.
    enum Outcome {
        /// Shown at `at` (CLOCK_MONOTONIC seconds) on an output refreshing every `refresh` seconds
        /// (0: unknown).
        case presented(at: Double, refresh: Double)
        /// Replaced by a later commit before it was shown.
        case discarded
        /// The compositor stopped answering feedback before this one was answered.
        case unanswered
    }
    typealias Answer = (Outcome) -> Void

    /// Asks for feedback on the commit about to be made at `commit` (monotonic seconds); `answer`
    /// is told it too. Returns false when no feedback will come (no wp_presentation, or a
    /// compositor that stopped answering).
    @discardableResult
    func willCommit(_ surface: WlSurface, at commit: Double, answer: Answer? = nil) -> Bool {
        guard let presentation else {
            delay.committedWithoutFeedback(at: commit)
            return false
        }
        if waiting.count >= Self.unansweredLimit {
            unanswered = true
            let given = waiting.values.sorted { $0.order < $1.order }
            waiting.removeAll()
            for entry in given { entry.answer?(.unanswered) }
        }
        guard !unanswered else {
            delay.committedWithoutFeedback(at: commit)
            return false
        }
        let feedback = presentation.feedback(surface: surface)
        let key = ObjectIdentifier(feedback)
        asked += 1
        waiting[key] = (feedback, answer, asked)
        feedback.onEvent = { [unowned self] event in
            switch event {
            case .presented(let secondsHigh, let secondsLow, let nanoseconds, let refresh, _, _, _):
                let stamp = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
                let presented = stamp - self.offsetFromMonotonic()
                let period = Double(refresh) / 1e9
                self.delay.presented(after: presented - commit, refresh: period)
                guard self.waiting.removeValue(forKey: key) != nil else { return }
                answer?(.presented(at: presented, refresh: period))
            case .discarded:
                guard self.waiting.removeValue(forKey: key) != nil else { return }
                answer?(.discarded)
            case .syncOutput:
                break
            }
        }
        return true
    }

    /// The window's frame callback came at `now` (CLOCK_MONOTONIC seconds): see
    /// ``PresentationDelay/frameCallback(at:)``.
    func frameCallbackDone(at now: Double) {
        delay.frameCallback(at: now)
    }

    /// The presentation clock minus CLOCK_MONOTONIC, now.
    private func offsetFromMonotonic() -> Double {
        guard clockID != clockid_t(CLOCK_MONOTONIC) else { return 0 }
        var other = timespec()
        guard clock_gettime(clockID, &other) == 0 else { return 0 }
        let monotonic = tt_monotonic_now()
        return Double(other.tv_sec) + Double(other.tv_nsec) / 1e9 - monotonic
    }
}
