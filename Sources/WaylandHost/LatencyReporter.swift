// `touchtracker --latency`: logs, for every frame that carries input, how long that input waited
// for its commit and for its presentation (wp_presentation, where the compositor offers it), in the
// spirit of foot's `-p`. Bound only when asked for; nothing else depends on it.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Logging
import Wayland

/// Measures input → commit → presentation inside the app, one log line per frame with input.
final class LatencyReporter {
    private let logger: Logger
    private var presentation: WpPresentation?
    /// The clock of presentation timestamps (wp_presentation.clock_id); Weston uses
    /// CLOCK_MONOTONIC_RAW, others CLOCK_MONOTONIC.
    private var clockID = clockid_t(CLOCK_MONOTONIC)
    /// The oldest input not yet committed: its event time, when the app read it (monotonic s) and
    /// the main thread's CPU time then.
    private var pending: (event: Double, read: Double, cpu: Double)?
    /// Feedback objects waiting for `presented` or `discarded`, with their frame's line so far.
    private var feedbacks: [ObjectIdentifier: (feedback: WpPresentationFeedback, frame: Int, summary: String)] = [:]
    private var frame = 0
    /// Set once the compositor left ``unansweredLimit`` feedbacks unanswered (Sway 1.7 headless
    /// answers hardly any): frames are then logged at their commit, without presentation.
    private var feedbackUnanswered = false
    /// Frames a compositor may hold unanswered: far more than it can show before answering.
    static let unansweredLimit = 64

    init(logger: Logger) {
        self.logger = logger
    }

    /// Binds wp_presentation from the registry.
    func bind(_ registry: WlRegistry, name: UInt32) {
        let presentation = registry.bind(name: name, as: WpPresentation.self, version: 1)
        presentation.onEvent = { [unowned self] event in
            if case .clockId(let id) = event { self.clockID = clockid_t(id) }
        }
        self.presentation = presentation
    }

    /// An input event with the compositor's 32-bit millisecond timestamp (CLOCK_MONOTONIC on Linux
    /// compositors), or nil for events without one.
    func noteInput(time: UInt32?) {
        guard pending == nil else { return }
        let now = tt_monotonic_now()
        var event = now
        if let time {
            // The timestamp is the low 32 bits of the monotonic clock in ms: its age, modulo 2^32.
            let age = UInt32(truncatingIfNeeded: UInt64(now * 1000)) &- time
            if age < 10_000 { event = now - Double(age) / 1000 }
        }
        // CPU time too: a frame that took long on it ran slowly (cold caches, a slow core); one
        // that took long only on the clock waited for the CPU.
        pending = (event, now, tt_thread_cpu_now())
    }

    /// Called right before a commit: a commit that carries input gets a presentation feedback.
    func willCommit(_ surface: WlSurface) {
        guard let input = pending else { return }
        pending = nil
        frame += 1
        let number = frame
        let commit = tt_monotonic_now()
        let cpu = tt_thread_cpu_now() - input.cpu
        let summary = "frame \(number): input→commit \(Self.ms(commit - input.event)) ms (read→commit \(Self.ms(commit - input.read)) ms, \(Self.ms(cpu)) ms of it on the CPU; read at \(microseconds(input.read)), committed at \(microseconds(commit)) µs)"
        guard let presentation else {
            logger.info("\(summary), no wp_presentation")
            return
        }
        if feedbacks.count >= Self.unansweredLimit, !feedbackUnanswered {
            // Its frames would otherwise never be logged, and their feedback objects pile up.
            feedbackUnanswered = true
            logger.info("latency: the compositor left \(feedbacks.count) presentation feedbacks unanswered; frames are logged at their commit from now on")
            for (_, waiting) in feedbacks.sorted(by: { $0.value.frame < $1.value.frame }) {
                logger.info("\(waiting.summary), no presentation feedback")
            }
            feedbacks.removeAll()
        }
        guard !feedbackUnanswered else {
            logger.info("\(summary), no presentation feedback")
            return
        }
        let feedback = presentation.feedback(surface: surface)
        let key = ObjectIdentifier(feedback)
        feedbacks[key] = (feedback, number, summary)
        feedback.onEvent = { [unowned self] event in
            switch event {
            case .presented(let secondsHigh, let secondsLow, let nanoseconds, let refresh, _, _, _):
                let stamp = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
                let presented = stamp - self.offsetFromMonotonic()
                let period = refresh > 0 ? ", refresh \(Self.ms(Double(refresh) / 1e9)) ms" : ""
                self.logger.info("\(summary), input→presented \(Self.ms(presented - input.event)) ms, commit→presented \(Self.ms(presented - commit)) ms\(period)")
                self.feedbacks[key] = nil
            case .discarded:
                self.logger.info("\(summary), discarded (a later commit replaced it)")
                self.feedbacks[key] = nil
            case .syncOutput:
                break
            }
        }
    }

    /// A turn of the event loop that took more than ``slowTurnLimit`` seconds of CPU: where that went
    /// (reading and delivering the compositor's events, the timers, painting and committing), so a
    /// rare slow frame says which part to look at.
    func noteTurn(dispatch: Double, timers: Double, paint: Double) {
        if let line = Self.slowTurn(dispatch: dispatch, timers: timers, paint: paint) { logger.info("\(line)") }
    }

    /// The line for a turn that took more than ``slowTurnLimit`` of CPU, or nil.
    static func slowTurn(dispatch: Double, timers: Double, paint: Double) -> String? {
        let total = dispatch + timers + paint
        guard total > slowTurnLimit else { return nil }
        return "slow turn: \(ms(total)) ms on the CPU: events \(ms(dispatch)) ms, timers \(ms(timers)) ms, painting and committing \(ms(paint)) ms"
    }

    /// CPU time a turn may take before ``noteTurn(dispatch:timers:paint:)`` logs it.
    static let slowTurnLimit = 0.002

    /// The presentation clock minus CLOCK_MONOTONIC, now.
    private func offsetFromMonotonic() -> Double {
        guard clockID != clockid_t(CLOCK_MONOTONIC) else { return 0 }
        var other = timespec()
        guard clock_gettime(clockID, &other) == 0 else { return 0 }
        let monotonic = tt_monotonic_now()
        return Double(other.tv_sec) + Double(other.tv_nsec) / 1e9 - monotonic
    }

    /// A monotonic time in whole microseconds, to match against the compositor's own records.
    private func microseconds(_ seconds: Double) -> String { String(UInt64((seconds * 1e6).rounded())) }

    /// `seconds` in milliseconds to two places; a time no clock gives (the compositor's
    /// presentation time is its word) as it is.
    static func ms(_ seconds: Double) -> String {
        guard abs(seconds) < 1e9 else { return "\(seconds * 1000)" }
        let hundredths = Int((seconds * 100_000).rounded())
        let fraction = abs(hundredths) % 100
        return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
