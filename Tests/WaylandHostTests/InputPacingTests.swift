// docs/frame.md, "One frame", step 4: while input frames stream and a finger, a pen or a button is
// down, and no lines are drawn under fingers, a change that is not input waits for the next input
// frame, at most a refresh and a half after the last one; otherwise it is painted at once.
import Testing
@testable import WaylandHost

@Suite struct InputPacingTests {
    @Test("A change waits for the next input frame while input frames come and something is pressed, until a refresh and a half after the last one")
    func holdsWhileInputStreams() throws {
        var pacing = InputPacing()
        #expect(pacing.holdsChange(at: 10, pressed: true, drawing: false, refresh: 1.0 / 60) == nil, "no input frame yet")
        pacing.committedInput(at: 10)
        let until = try #require(pacing.holdsChange(at: 10.005, pressed: true, drawing: false, refresh: 1.0 / 60))
        #expect(abs(until - (10 + 1.5 / 60)) < 1e-9)
        // A 120 Hz output holds half as long; an unknown one is taken as 60 Hz.
        #expect(abs(try #require(pacing.holdsChange(at: 10.005, pressed: true, drawing: false, refresh: 1.0 / 120)) - (10 + 1.5 / 120)) < 1e-9)
        #expect(abs(try #require(pacing.holdsChange(at: 10.005, pressed: true, drawing: false, refresh: nil)) - (10 + 1.5 / 60)) < 1e-9)
        // No input frame for a refresh and a half: painted now.
        #expect(pacing.holdsChange(at: 10.026, pressed: true, drawing: false, refresh: 1.0 / 60) == nil)
        // The next input frame holds changes again from its own time.
        pacing.committedInput(at: 10.030)
        #expect(pacing.holdsChange(at: 10.040, pressed: true, drawing: false, refresh: 1.0 / 60) != nil)
    }

    @Test("Nothing waits once nothing is pressed: after the lift, a glide's or a bounce's frames come at every frame callback")
    func neverHoldsAfterTheLift() {
        var pacing = InputPacing()
        pacing.committedInput(at: 10)
        #expect(pacing.holdsChange(at: 10.001, pressed: false, drawing: false, refresh: 1.0 / 60) == nil)
    }

    @Test("A13: nothing waits while lines are drawn under fingers: a guess taken back between samples shows at once")
    func neverHoldsWhileDrawing() {
        var pacing = InputPacing()
        pacing.committedInput(at: 10)
        #expect(pacing.holdsChange(at: 10.001, pressed: true, drawing: true, refresh: 1.0 / 60) == nil)
        #expect(pacing.holdsChange(at: 10.001, pressed: true, drawing: false, refresh: 1.0 / 60) != nil)
    }
}
