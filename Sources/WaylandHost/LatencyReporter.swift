// `touchtracker --latency`: logs, for every frame that shows input, how long that input waited
// for its commit and for its presentation (wp_presentation, where the compositor offers it; the
// window's frame callback, where it does not), and what its predicted touches guessed, in the
// spirit of foot's `-p`. Made only when asked for; nothing else depends on it.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Logging
import Wayland

/// Measures input → commit → presentation inside the app, one log line per frame with input.
final class LatencyReporter {
    private let logger: Logger
    /// The oldest input not yet committed: its event time, when the app read it (monotonic s) and
    /// the main thread's CPU time then.
    private var pending: (event: Double, read: Double, cpu: Double)?
    private var frame = 0
    /// Whether the compositor's silence was logged (it stopped answering feedback).
    private var toldUnanswered = false
    /// What the frame being committed guessed: the drawn tips and the time they were predicted
    /// for (`TouchPrediction`), set by the host before the commit.
    var prediction: (() -> String?)?

    /// How a commit without input starts its log line (the benchmark reads it).
    static let commitWithoutInput = "commit without input at"

    init(logger: Logger) {
        self.logger = logger
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

    /// The input handled since the last commit changed nothing on screen (a finger landing on the
    /// canvas shows nothing until it moves, A3): no commit answers it, so the next input's frame is
    /// timed from that input, not from this one.
    func inputShowedNothing() {
        pending = nil
    }

    /// Called right before a commit: every commit asks `presentation` for feedback (its delays
    /// teach the prediction its lead); one that carries input is logged with it, one that does
    /// not (a rebuild finished, an animation's step) by its time alone: when the picture last
    /// changed after the fingers stopped, where no compositor counts commits for a benchmark.
    func willCommit(_ surface: WlSurface, presentation: PresentationTimes) {
        let commit = tt_monotonic_now()
        guard let input = pending else {
            presentation.willCommit(surface, at: commit)
            logger.info("\(Self.commitWithoutInput) \(microseconds(commit)) µs")
            return
        }
        pending = nil
        frame += 1
        let number = frame
        let cpu = tt_thread_cpu_now() - input.cpu
        let guess = prediction?().map { ", \($0)" } ?? ""
        let summary = "frame \(number): input→commit \(Self.ms(commit - input.event)) ms (read→commit \(Self.ms(commit - input.read)) ms, \(Self.ms(cpu)) ms of it on the CPU; read at \(microseconds(input.read)), committed at \(microseconds(commit)) µs)\(guess)"
        guard presentation.isBound else {
            presentation.willCommit(surface, at: commit)
            holdForCallback(summary + ", no wp_presentation", input: input.event)
            return
        }
        let asked = presentation.willCommit(surface, at: commit) { [unowned self] outcome in
            switch outcome {
            case .presented(let presented, let refresh):
                let period = refresh > 0 ? ", refresh \(Self.ms(refresh)) ms" : ""
                logger.info("\(summary), input→presented \(Self.ms(presented - input.event)) ms, commit→presented \(Self.ms(presented - commit)) ms\(period)")
            case .discarded:
                logger.info("\(summary), discarded (a later commit replaced it)")
            case .unanswered:
                noFeedback()
                logger.info("\(summary), no presentation feedback")
            }
        }
        if !asked {
            noFeedback()
            holdForCallback(summary + ", no presentation feedback", input: input.event)
        }
    }

    /// The compositor answers no feedback: said once.
    private func noFeedback() {
        guard !toldUnanswered else { return }
        toldUnanswered = true
        logger.info("latency: the compositor left \(PresentationTimes.unansweredLimit) presentation feedbacks unanswered; frames are logged with the window's frame callback from now on")
    }

    /// Keeps a frame without feedback for the next frame callback; a hidden window gets none, so
    /// the oldest of too many is logged as it is.
    private func holdForCallback(_ summary: String, input: Double) {
        if awaitingCallback.count >= PresentationTimes.unansweredLimit { logger.info("\(awaitingCallback.removeFirst().summary)") }
        awaitingCallback.append((summary, input))
    }

    /// Frames without feedback, logged when the window's next frame callback comes.
    private var awaitingCallback: [(summary: String, input: Double)] = []

    /// The window's frame callback came at `now`: the frames committed without feedback are
    /// logged with it, the compositor's word that it painted them (PresentationTimes).
    func frameCallbackDone(at now: Double) {
        for frame in awaitingCallback {
            logger.info("\(frame.summary), input→frame callback \(Self.ms(now - frame.input)) ms")
        }
        awaitingCallback.removeAll()
    }

    /// CPU the window spent painting since the last ``takePainting()``: a frame painted while events
    /// are dispatched (at the frame callback, at a buffer's release) is told apart from them.
    private var painting = 0.0
    func notePainting(_ cpu: Double) { painting += cpu }
    func takePainting() -> Double {
        defer { painting = 0 }
        return painting
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
