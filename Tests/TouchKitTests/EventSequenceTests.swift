import Testing
@testable import TouchKit

@Suite("One event for a whole touch sequence (T12)")
struct EventSequenceTests {
    @Test("T12: one Event object carries a sequence from the first finger down until every touch is gone")
    func oneEventPerSequence() {
        let h = Harness()
        let view = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        view.isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 100, 10, at: 1.1)
        h.move(1, 20, 20, at: 1.2)
        h.lift(1, at: 1.3)
        h.move(2, 120, 20, at: 1.4)
        h.lift(2, at: 1.5)
        let first = h.log.entries.map(\.event)
        #expect(h.log.summary == ["a.began(1)", "a.began(1)", "a.moved(1)", "a.ended(1)", "a.moved(1)", "a.ended(1)"])
        #expect(first.allSatisfy { $0 === first[0] }, "the same object from the first down to the last up")
        let numbers = h.log.entries.map(\.deliveryNumber)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count,
                "each frame is a delivery of its own")
        // The event holds what the latest delivery carried.
        #expect(first[0].allTouches.map(\.phase) == [.ended])
        #expect(first[0].timestamp == 1.5)

        h.log.clear()
        h.tapDown(3, 10, 10, at: 2)
        let next = h.log.entries[0].event
        #expect(next !== first[0], "a new sequence starts with a new event")
        h.lift(3, at: 2.1)
        #expect(h.log.entries[1].event === next)
    }

    @Test("T12, T2, G6: held touchesBegan of two frames replay as two calls, though both frames share one event")
    func heldFramesStayApart() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        view.isMultipleTouchEnabled = true
        let tap = g.watch(TapGestureRecognizer(), "tap")
        tap.numberOfTouchesRequired = 2
        tap.delaysTouchesBegan = true
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.down(2, 200, 100, at: 1.05)
        #expect(g.summary.isEmpty, "both held while the two-finger tap may still recognize")
        g.move(1, 150, 100, at: 1.1)  // too far: the tap fails and the views get what was held
        #expect(g.summary == ["canvas.began(1)", "canvas.began(1)", "canvas.moved(1)"])
        #expect(g.log.entries.allSatisfy { $0.event === g.log.entries[0].event })
        g.up(1, at: 1.2)
        g.up(2, at: 1.2)
    }

    @Test("T12, G5: a recognizer that begins on a timer cancels the view's touch with the sequence's event")
    func timerDeliveryUsesSequenceEvent() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.wait(until: 1.6)
        #expect(g.summary == ["canvas.began(1)", "canvas.cancelled(1)"])
        #expect(g.log.entries[1].event === g.log.entries[0].event)
        g.up(1, at: 1.7)
    }
}
