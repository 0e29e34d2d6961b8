// How far ahead predicted touches reach: the usual delay from commit to presentation, learned
// from wp_presentation feedback, plus the age of the touch's newest sample (T14).
import Testing
@testable import WaylandHost

@Suite struct PredictionLeadTests {
    @Test("T14: before any feedback the host assumes one 60 Hz refresh from commit to screen; a stamp that is no recent time of the monotonic clock is taken as a sample just read")
    func unknown() throws {
        let lead = PresentationDelay().lead(sampleTime: 100, now: 100.004)
        #expect(abs(lead - (0.004 + 1.0 / 60)) < 0.0006)
        // Stamped a minute before now, or after it: another clock's (KWin's fake input).
        #expect(abs(PresentationDelay().lead(sampleTime: 100, now: 160) - 1.0 / 60) < 1e-9)
        #expect(abs(PresentationDelay().lead(sampleTime: 100.5, now: 100) - 1.0 / 60) < 1e-9)
    }

    @Test("T14: the lead is the sample's age plus the median recent delay, following a change within a few frames")
    func learned() throws {
        var delay = PresentationDelay()
        for d in [0.010, 0.011, 0.009, 0.030, 0.010] { delay.presented(after: d, refresh: 1.0 / 60) }
        // Median 10 ms: one slow frame does not move it.
        #expect(abs(try #require(delay.expected) - 0.010) < 1e-9)
        // A sample 4 ms old (stamps are milliseconds of the monotonic clock).
        let lead = delay.lead(sampleTime: 5_000.000, now: 5_000.0045)
        #expect(abs(lead - 0.014) < 0.0006)
        // The compositor slows down (a longer repaint schedule): the median follows.
        for _ in 0..<20 { delay.presented(after: 0.022, refresh: 1.0 / 60) }
        #expect(abs(try #require(delay.expected) - 0.022) < 1e-9)
    }

    @Test("T14: the learned delay is at most two refreshes, and nonsense delays are ignored")
    func bounded() throws {
        var delay = PresentationDelay()
        for _ in 0..<5 { delay.presented(after: 0.1, refresh: 1.0 / 120) }
        delay.presented(after: -0.5, refresh: 0)
        delay.presented(after: 3, refresh: 0)
        #expect(abs(try #require(delay.expected) - 2.0 / 120) < 1e-9)
        #expect(delay.refresh == 1.0 / 120)
    }

    @Test("T14: a sample stamped before the millisecond clock wrapped still has its true age")
    func wrap() throws {
        var delay = PresentationDelay()
        delay.presented(after: 0.008, refresh: 0)
        // now is 3 ms past a 2^32 ms wrap; the stamp (low 32 bits) is 2 ms before it.
        let now = (4_294_967_296.0 + 3) / 1000
        let stamp = (4_294_967_296.0 - 2) / 1000
        let lead = delay.lead(sampleTime: stamp, now: now)
        #expect(abs(lead - 0.013) < 0.0006)
    }

    @Test("T14: without presentation feedback the frame callback's wait after the newest commit teaches the delay; a callback no such commit waited for teaches nothing")
    func frameCallbacks() throws {
        var delay = PresentationDelay()
        let early = delay.frameCallback(at: 10)
        #expect(early == nil)
        #expect(delay.expected == nil)
        // Two commits before one callback: the frame painted holds the newer.
        delay.committedWithoutFeedback(at: 20.000)
        delay.committedWithoutFeedback(at: 20.004)
        let wait = delay.frameCallback(at: 20.011)
        #expect(wait.map { abs($0 - 0.007) < 1e-9 } == true)
        let again = delay.frameCallback(at: 20.020)
        #expect(again == nil)
        for k in 1...4 {
            delay.committedWithoutFeedback(at: 20 + Double(k) / 60)
            delay.frameCallback(at: 20 + Double(k) / 60 + 0.009)
        }
        #expect(abs(try #require(delay.expected) - 0.009) < 1e-9)
        let lead = delay.lead(sampleTime: 5_000.000, now: 5_000.0045)
        #expect(abs(lead - 0.013) < 0.0006)
    }
}
