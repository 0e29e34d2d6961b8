import Testing
@testable import TouchKit

@Suite("Tap and long press (G11, G12)")
struct TapAndLongPressTests {
    func tapSetup(taps: Int = 1, touches: Int = 1) -> (GestureHarness, TapGestureRecognizer) {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.numberOfTapsRequired = taps
        tap.numberOfTouchesRequired = touches
        view.addGestureRecognizer(tap)
        return (g, tap)
    }

    @Test("G11: defaults are one tap with one finger; the action sees where the tap was")
    func singleTap() {
        let (g, tap) = tapSetup()
        #expect(tap.numberOfTapsRequired == 1 && tap.numberOfTouchesRequired == 1)
        var location: Point?
        tap.addHandler { location = $0.location(in: g.log.entries.first?.touches.first?.view) }
        g.tap(1, 120, 80, at: 1)
        #expect(g.actions == ["tap.ended"])
        #expect(location == Point(x: 120, y: 80))
    }

    @Test("G11: numberOfTouchesRequired: a two-finger tap recognizes, a one-finger tap fails")
    func twoFingerTap() {
        let (g, tap) = tapSetup(touches: 2)
        var location = Point.zero
        var count = 0
        tap.addHandler {
            location = $0.location(in: nil)
            count = $0.numberOfTouches
        }
        g.frame(at: 1) { input, t in
            input.down(.touch(1), at: Point(x: 100, y: 100), time: t)
            input.down(.touch(2), at: Point(x: 140, y: 120), time: t)
        }
        g.up(1, at: 1.05)
        g.up(2, at: 1.06)
        #expect(g.actions == ["tap.ended"])
        #expect(location == Point(x: 120, y: 110))
        #expect(count == 2)
        g.tap(1, 100, 100, at: 2)
        #expect(g.actions == ["tap.ended"], "one finger is not a two-finger tap")
    }

    @Test("G11: a third finger on a two-finger tap fails it")
    func tooManyFingers() {
        let (g, _) = tapSetup(touches: 2)
        g.frame(at: 1) { input, t in
            for i in 1...3 { input.down(.touch(Int32(i)), at: Point(x: 50 * Double(i), y: 100), time: t) }
        }
        g.frame(at: 1.05) { input, t in
            for i in 1...3 { input.up(.touch(Int32(i)), time: t) }
        }
        #expect(g.actions.isEmpty)
    }

    @Test("G11: moving about 10 pt is still a tap; moving farther fails it")
    func movementLimit() {
        let (g, tap) = tapSetup()
        g.down(1, 100, 100, at: 1)
        g.move(1, 109, 100, at: 1.02)
        g.up(1, at: 1.04)
        #expect(g.actions == ["tap.ended"])
        let history = StateHistory(tap)
        g.down(1, 100, 100, at: 2)
        g.move(1, 111, 100, at: 2.02)
        #expect(history.outcome == .failed)
        g.move(1, 100, 100, at: 2.04)  // coming back does not help
        g.up(1, at: 2.06)
        #expect(g.actions == ["tap.ended"])
    }

    @Test("G11: numberOfTapsRequired: taps in quick succession; a third tap recognizes a triple tap")
    func tripleTap() {
        let (g, _) = tapSetup(taps: 3)
        g.tap(1, 100, 100, at: 1)
        g.tap(1, 104, 100, at: 1.2)
        #expect(g.actions.isEmpty)
        g.tap(1, 100, 104, at: 1.4)
        #expect(g.actions == ["tap.ended"])
    }

    @Test("G11: too long a gap between taps fails the gesture; the next taps start over")
    func gapTooLong() {
        let (g, tap) = tapSetup(taps: 2)
        g.tap(1, 100, 100, at: 1)
        g.wait(until: 1.05 + Touch.multiTapInterval + 0.01)
        #expect(tap.state == .possible, "failed on the gap timer, then reset")
        g.tap(1, 100, 100, at: 1.5)
        #expect(g.actions.isEmpty)
        g.tap(1, 100, 100, at: 1.7)
        #expect(g.actions == ["tap.ended"])
    }

    @Test("G11: the gap also counts by touch timestamps when the event loop's timer comes late")
    func gapByTimestamps() {
        let (g, _) = tapSetup(taps: 2)
        g.tap(1, 100, 100, at: 1)
        // Input at 1.6 while the clock (and its timers) still stand at 1.05.
        g.input.down(.touch(1), at: Point(x: 100, y: 100), time: 1.6)
        g.input.frame()
        g.input.up(.touch(1), time: 1.65)
        g.input.frame()
        #expect(g.actions.isEmpty)
    }

    @Test("G11: a second tap too far from the first fails the double tap")
    func secondTapTooFar() {
        let (g, _) = tapSetup(taps: 2)
        g.tap(1, 100, 100, at: 1)
        g.tap(1, 100 + Touch.multiTapDistance + 5, 100, at: 1.2)
        g.wait(until: 2)
        #expect(g.actions.isEmpty)
    }

    @Test("G12: defaults: 0.5 s, 10 pt, one finger; the wait is a timer on the application's clock")
    func longPressTimer() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        #expect(press.minimumPressDuration == 0.5)
        #expect(press.allowableMovement == 10)
        #expect(press.numberOfTouchesRequired == 1)
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        #expect(g.clock.nextDeadline == 1.5)
        g.wait(until: 1.49)
        #expect(g.actions.isEmpty)
        g.wait(until: 1.5)
        #expect(g.actions == ["press.began"])
        #expect(press.location(in: nil) == Point(x: 100, y: 100))
    }

    @Test("G12: a recognizer let go with a timer pending takes the timer with it: it never fires")
    func timerGoesWithItsRecognizer() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        var fired = false
        do {
            let press = LongPressGestureRecognizer()
            view.addGestureRecognizer(press)
            #expect(press.scheduleTimer(after: 0.5) { fired = true } != nil)
            view.removeGestureRecognizer(press)
        }
        #expect(g.clock.nextDeadline == nil)
        g.wait(until: 2)
        #expect(!fired)
    }

    @Test("G12: continuous after it begins: changed on every move (however far), ended on lift")
    func longPressContinuous() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.move(1, 105, 100, at: 1.2)  // within 10 pt: still waiting
        g.wait(until: 1.6)
        g.move(1, 200, 100, at: 1.7)
        g.move(1, 250, 120, at: 1.8)
        g.up(1, at: 1.9)
        #expect(g.actions == ["press.began", "press.changed", "press.changed", "press.ended"])
        #expect(press.state == .possible)
    }

    @Test("G12: lifting early or moving more than allowableMovement before it begins fails it")
    func longPressFails() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        press.minimumPressDuration = 0.6
        view.addGestureRecognizer(press)
        g.tap(1, 100, 100, at: 1, duration: 0.55)
        g.wait(until: 2)
        g.down(1, 100, 100, at: 3)
        g.move(1, 100, 111, at: 3.1)
        g.wait(until: 4)
        g.up(1, at: 4.1)
        #expect(g.actions.isEmpty)
        #expect(g.clock.nextDeadline == nil, "a failed press leaves no timer behind")
    }

    @Test("G12: numberOfTouchesRequired: the press is timed from the last required finger")
    func twoFingerLongPress() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 2
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.wait(until: 1.6)
        #expect(g.actions.isEmpty)
        g.down(2, 150, 100, at: 1.7)
        g.wait(until: 2.19)
        #expect(g.actions.isEmpty)
        g.wait(until: 2.2)
        #expect(g.actions == ["press.began"])
        #expect(press.numberOfTouches == 2)
        g.down(3, 300, 100, at: 2.3)  // an extra finger once it began is ignored
        #expect(press.numberOfTouches == 2)
        g.up(3, at: 2.35)
        g.up(1, at: 2.4)
        #expect(g.actions == ["press.began", "press.ended"])
    }
}
