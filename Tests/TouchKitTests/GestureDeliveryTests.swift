import Testing
@testable import TouchKit

@Suite("Recognizers and view delivery (G4-G7, G16, T8, T9)")
struct GestureDeliveryTests {
    @Test("G4: recognizers of the hit-test view and its ancestors see a touch before the view")
    func recognizersFirst() throws {
        let g = GestureHarness()
        let outer = g.addView("outer", Rect(x: 0, y: 0, width: 200, height: 300))
        let inner = g.addView("inner", Rect(x: 20, y: 20, width: 100, height: 100), to: outer)
        let sibling = g.addView("sibling", Rect(x: 200, y: 0, width: 200, height: 300))
        var recognizers: [LoggingRecognizer] = []
        for (view, label) in [(inner as View, "inner.gr"), (outer, "outer.gr"), (g.window, "window.gr"),
                              (sibling, "sibling.gr")] {
            let r = LoggingRecognizer()
            r.label = label
            r.log = g.log
            view.addGestureRecognizer(r)
            recognizers.append(r)
        }
        g.down(1, 50, 50, at: 1)
        // T8: the touch lists its recognizers, deepest view first; the event finds them.
        let touch = try #require(g.log.entries.first?.touches.first)
        #expect(touch.gestureRecognizers.map { ($0 as! LoggingRecognizer).label }
                == ["inner.gr", "outer.gr", "window.gr"])
        let event = g.log.entries[0].event
        #expect(event.touches(for: recognizers[0]) == [touch])
        #expect(event.touches(for: recognizers[3]).isEmpty)
        g.up(1, at: 1.05)
        #expect(g.summary == ["inner.gr.began(1)", "outer.gr.began(1)", "window.gr.began(1)", "inner.began(1)",
                              "inner.gr.ended(1)", "outer.gr.ended(1)", "window.gr.ended(1)", "inner.ended(1)"])
        // Recognizers that never decided fail at the end of the sequence, and reset (G3).
        #expect(recognizers.prefix(3).allSatisfy { $0.resets == 1 && $0.state == .possible })
        #expect(recognizers[3].resets == 0)
    }

    @Test("G5: a recognizing pan cancels the view's touch; the view hears no more of it")
    func cancelsTouchesInView() throws {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1)
        #expect(g.summary == ["canvas.began(1)", "canvas.cancelled(1)"])
        let cancel = try #require(g.log.entries.last)
        #expect(cancel.seen()?.phase == .cancelled, "the view sees the cancelled phase")
        #expect(g.actions.first == "pan.began" && g.actions.last == "pan.ended")
    }

    @Test("G5: with cancelsTouchesInView false the view keeps getting every phase")
    func keepsTouchesInView() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        pan.cancelsTouchesInView = false
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1, steps: 3)
        #expect(g.summary == ["canvas.began(1)", "canvas.moved(1)", "canvas.moved(1)", "canvas.moved(1)",
                              "canvas.ended(1)"])
        #expect(g.actions == ["pan.began", "pan.changed", "pan.changed", "pan.ended"])
    }

    @Test("G5: only the recognizer's own touches are cancelled")
    func cancelsOnlyItsTouches() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        let delegate = TestDelegate()
        var first: Touch?
        delegate.shouldReceive = { _, touch in
            if first == nil { first = touch }
            return touch === first
        }
        pan.delegate = delegate
        view.addGestureRecognizer(pan)
        g.down(1, 100, 100, at: 1)
        g.down(2, 300, 100, at: 1.01)
        g.move(1, 150, 100, at: 1.02)  // the pan begins with finger 1
        g.move(2, 320, 100, at: 1.03)
        g.up(2, at: 1.04)
        g.up(1, at: 1.05)
        #expect(g.summary == ["canvas.began(1)", "canvas.began(1)", "canvas.cancelled(1)", "canvas.moved(1)",
                              "canvas.ended(1)"])
        #expect(g.log.entries[2].touches == [first!])
        #expect(g.actions == ["pan.began", "pan.ended"])
    }

    @Test("G5: a touch landing while a pan is under way goes to the pan, not to the view")
    func newTouchDuringPan() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1, steps: 2, lift: false)
        g.log.clear()
        g.down(2, 300, 200, at: 1.1)
        g.move(2, 310, 200, at: 1.12)
        g.up(2, at: 1.14)
        #expect(g.summary.isEmpty)
        #expect(pan.numberOfTouches == 1)
        g.up(1, at: 1.2)
        #expect(g.actions.last == "pan.ended")
    }

    @Test("G6: delaysTouchesBegan holds touchesBegan until the recognizer fails, then delivers it and one catch-up move to where the touch is")
    func delaysTouchesBeganReplays() throws {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.delaysTouchesBegan = true
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.move(1, 105, 100, at: 1.02)
        #expect(g.summary.isEmpty, "held while the tap may still recognize")
        g.move(1, 130, 100, at: 1.04)  // too far for a tap: it fails
        #expect(g.summary == ["canvas.began(1)", "canvas.moved(1)"])
        // The began as it happened, then one move from there to where the touch is now.
        let seen = g.log.entries.map { $0.seen()! }
        #expect(seen[0] == .init(phase: .began, location: Point(x: 100, y: 100),
                                 previousLocation: Point(x: 100, y: 100)))
        #expect(seen[1] == .init(phase: .moved, location: Point(x: 130, y: 100),
                                 previousLocation: Point(x: 100, y: 100)))
        let touch = try #require(g.log.entries[0].touches.first)
        #expect(touch.phase == .moved && touch.location(in: nil) == Point(x: 130, y: 100),
                "the touch is back to its real state after the replay")
        g.up(1, at: 1.06)
        #expect(g.summary.last == "canvas.ended(1)")
        #expect(g.actions.isEmpty)
    }

    @Test("G6: with delaysTouchesBegan, a recognized tap leaves the view nothing")
    func delaysTouchesBeganDropped() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.delaysTouchesBegan = true
        view.addGestureRecognizer(tap)
        g.tap(1, 100, 100, at: 1)
        #expect(g.actions == ["tap.ended"])
        #expect(g.summary.isEmpty)
        #expect(g.isSettled)
    }

    @Test("G6: held touchesBegan are discarded on recognition even when the recognizer does not cancel")
    func delayedBeganDiscardedWithoutCancel() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        press.delaysTouchesBegan = true
        press.cancelsTouchesInView = false
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.wait(until: 1.6)
        g.move(1, 150, 100, at: 1.7)
        g.up(1, at: 1.8)
        #expect(g.actions == ["press.began", "press.changed", "press.ended"])
        #expect(g.summary.isEmpty, "a view never gets moves or an end of a touch it did not see begin")
        // A touch landing while the press is under way is not held: the view gets all of it.
        g.down(1, 100, 100, at: 2)
        g.wait(until: 2.6)
        g.tap(2, 300, 200, at: 2.7)
        g.up(1, at: 2.8)
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)"])
    }

    @Test("G6: without delaysTouchesBegan, a recognized tap's view gets began, then cancelled")
    func tapCancelsWithoutDelay() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        view.addGestureRecognizer(g.watch(TapGestureRecognizer(), "tap"))
        g.tap(1, 100, 100, at: 1)
        #expect(g.summary == ["canvas.began(1)", "canvas.cancelled(1)"])
    }

    @Test("G7: delaysTouchesEnded holds touchesEnded while a double tap waits for its second tap")
    func delaysTouchesEndedUntilFailure() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let double = g.watch(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        view.addGestureRecognizer(double)
        g.tap(1, 100, 100, at: 1)
        #expect(g.summary == ["canvas.began(1)"])
        g.wait(until: 1.05 + Touch.multiTapInterval - 0.01)
        #expect(g.summary == ["canvas.began(1)"])
        g.wait(until: 1.05 + Touch.multiTapInterval + 0.01)  // the gap timer: the double tap fails
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)"])
        #expect(g.log.entries[1].seen()?.phase == .ended)
        #expect(g.actions.isEmpty)
    }

    @Test("G7: when the double tap recognizes, the held ends become cancels")
    func delaysTouchesEndedThenRecognized() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let double = g.watch(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        view.addGestureRecognizer(double)
        g.tap(1, 100, 100, at: 1)
        g.tap(1, 102, 101, at: 1.2)
        #expect(g.actions == ["double.ended"])
        #expect(g.summary == ["canvas.began(1)", "canvas.began(1)", "canvas.cancelled(2)"])
    }

    @Test("G7: with delaysTouchesEnded false the first tap's end arrives at once")
    func noDelayOfEnded() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let double = g.watch(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        double.delaysTouchesEnded = false
        view.addGestureRecognizer(double)
        g.tap(1, 100, 100, at: 1)
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)"])
        g.tap(1, 102, 101, at: 1.2)
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)", "canvas.began(1)", "canvas.cancelled(1)"])
    }

    @Test("T9: wl_touch.cancel cancels a pan under way and fails a tap still deciding; views get one cancel")
    func systemCancel() {
        let g = GestureHarness()
        let left = g.addView("left", Rect(x: 0, y: 0, width: 200, height: 300))
        let right = g.addView("right", Rect(x: 200, y: 0, width: 200, height: 300))
        let pan = g.watch(PanGestureRecognizer(), "pan")
        pan.cancelsTouchesInView = false
        left.addGestureRecognizer(pan)
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.delaysTouchesBegan = true
        right.addGestureRecognizer(tap)
        let silent = LoggingRecognizer()  // handles nothing: TouchKit fails it
        right.addGestureRecognizer(silent)
        g.drag(1, from: Point(x: 50, y: 100), to: Point(x: 150, y: 100), at: 1, steps: 2, lift: false)
        g.down(2, 300, 100, at: 1.1)
        g.input.cancel()
        #expect(g.actions == ["pan.began", "pan.changed", "pan.cancelled"])
        #expect(g.summary == ["left.began(1)", "left.moved(1)", "left.moved(1)", "left.cancelled(1)"],
                "the right view never saw its held touch begin, so it hears nothing")
        #expect([pan.state, tap.state, silent.state] == [.possible, .possible, .possible])
        #expect(silent.resets == 1)
        #expect(g.isSettled)
    }

    @Test("G16: isEnabled = false cancels a pan in flight; the view does not get the touch back")
    func disablingCancels() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1, steps: 2, lift: false)
        pan.isEnabled = false
        #expect(g.actions == ["pan.began", "pan.changed", "pan.cancelled"])
        #expect(pan.state == .possible)
        g.move(1, 220, 100, at: 1.1)
        g.up(1, at: 1.2)
        #expect(g.actions.count == 3)
        #expect(g.summary == ["canvas.began(1)", "canvas.cancelled(1)"])
        // Disabled: no touches at all.
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 2, steps: 2)
        #expect(g.actions.count == 3)
        #expect(g.summary.suffix(4) == ["canvas.began(1)", "canvas.moved(1)", "canvas.moved(1)", "canvas.ended(1)"])
        pan.isEnabled = true
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 3, steps: 2)
        #expect(g.actions.suffix(3) == ["pan.began", "pan.changed", "pan.ended"])
    }

    @Test("G16: disabling a recognizer that delays touchesBegan releases the held touches")
    func disablingReleasesHeldTouches() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.delaysTouchesBegan = true
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        #expect(g.summary.isEmpty)
        tap.isEnabled = false
        #expect(g.summary == ["canvas.began(1)"])
        g.up(1, at: 1.1)
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)"])
        #expect(g.actions.isEmpty)
    }

    @Test("G16: removing a recognizer from its view mid-gesture cancels it")
    func removingCancels() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.wait(until: 1.6)
        #expect(g.actions == ["press.began"])
        view.removeGestureRecognizer(press)
        #expect(g.actions == ["press.began", "press.cancelled"])
        #expect(press.view == nil)
        #expect(view.gestureRecognizers.isEmpty)
        g.up(1, at: 1.7)
        #expect(g.actions.count == 2)
    }
}
