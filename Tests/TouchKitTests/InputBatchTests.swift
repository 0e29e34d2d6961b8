import Testing
@testable import TouchKit

/// A turn of the host's event loop brackets its reads with beginBatch/endBatch: motion-only frames
/// read in one turn reach the views as one event, with every sample kept (T11); began and ended are
/// never held back (T2).
@Suite("Input batches: one event per turn for motion")
struct InputBatchTests {
    @Test("T11: three motion frames in one batch give one touchesMoved with all three samples")
    func motionFramesCoalesce() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)
        h.move(1, 30, 10, at: 1.02)
        h.move(1, 40, 10, at: 1.03)
        #expect(h.log.entries.isEmpty, "held until the batch ends")
        h.input.endBatch()
        #expect(h.log.summary == ["a.moved(1)"])
        let delivery = try #require(h.log.entries.first)
        let touch = try #require(delivery.touches.first)
        #expect(delivery.seen()?.location == Point(x: 40, y: 10))
        #expect(delivery.seen()?.previousLocation == Point(x: 10, y: 10))
        let samples = delivery.event.coalescedTouches(for: touch).map { $0.location(in: nil) }
        #expect(samples == [Point(x: 20, y: 10), Point(x: 30, y: 10), Point(x: 40, y: 10)])
    }

    @Test("T2: a finger landing in a batch is delivered at its frame, with the motion held before it")
    func beganIsNotHeld() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)
        h.input.down(.touch(2), at: Point(x: 100, y: 100), time: 1.02)
        h.input.down(.touch(3), at: Point(x: 200, y: 100), time: 1.02)
        h.input.frame()
        #expect(h.log.summary == ["a.began(2)", "a.moved(1)"], "both landings in one call, before the batch ends")
        #expect(h.log.entries[0].event === h.log.entries[1].event)
        h.input.endBatch()
        #expect(h.log.entries.count == 2, "nothing was left to deliver")
    }

    @Test("T2: a lift in a batch is delivered at its frame")
    func endedIsNotHeld() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)
        h.lift(1, at: 1.02)
        #expect(h.log.summary == ["a.ended(1)"])
        h.input.endBatch()
        #expect(h.input.activeTouches.isEmpty)
    }

    @Test("T2: a frame split across turns is not delivered before its own frame arrives")
    func splitFrameWaitsForItsFrame() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 100, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)  // a whole frame, held
        h.input.motion(.touch(1), at: Point(x: 30, y: 10), time: 1.02)  // the next frame's first half
        h.input.endBatch()
        #expect(h.log.entries.isEmpty, "the held frame waits for the half-read one")
        h.input.beginBatch()
        h.input.motion(.touch(2), at: Point(x: 110, y: 10), time: 1.02)
        h.input.frame()
        h.input.endBatch()
        #expect(h.log.summary == ["a.moved(2)"], "both fingers' motion, in one call")
    }

    @Test("T9: a cancel in a batch delivers the held motion first, then cancels")
    func cancelDeliversHeldMotionFirst() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)
        h.input.cancel()
        h.input.endBatch()
        #expect(h.log.summary == ["a.moved(1)", "a.cancelled(1)"])
    }

    @Test("Outside a batch every frame is delivered at once")
    func noBatchNoHolding() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.move(1, 20, 10, at: 1.01)
        h.move(1, 30, 10, at: 1.02)
        #expect(h.log.summary == ["a.began(1)", "a.moved(1)", "a.moved(1)"])
    }
}
