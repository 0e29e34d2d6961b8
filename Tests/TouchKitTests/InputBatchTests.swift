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

    @Test("T2: fingers landing in a batch are delivered at their frame, after the motion held before them")
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
        #expect(h.log.summary == ["a.moved(1)", "a.began(2)"], "the held motion, then both landings in one call, before the batch ends")
        #expect(!h.log.entries[0].isSameEvent(as: h.log.entries[1]), "frames with a landing are not merged")
        h.input.endBatch()
        #expect(h.log.entries.count == 2, "nothing was left to deliver")
    }

    @Test("T2, T3: a lift in a batch is delivered at its frame, after the motion held before it")
    func endedIsNotHeld() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)
        h.lift(1, at: 1.02)
        #expect(h.log.summary == ["a.moved(1)", "a.ended(1)"], "the moved frame stays its own event")
        h.input.endBatch()
        #expect(h.input.activeTouches.isEmpty)
    }

    @Test("T2: a frame split across turns: the held frames go out when the turn ends, the half-read one waits for its frame")
    func splitFrameWaitsForItsFrame() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300)).isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 100, 10, at: 1)
        h.log.clear()
        h.input.beginBatch()
        h.move(1, 20, 10, at: 1.01)  // a whole frame, held
        h.input.motion(.touch(1), at: Point(x: 30, y: 10), time: 1.02)  // the next frame's first half
        h.input.endBatch()
        #expect(h.log.summary == ["a.moved(1)"])
        #expect(h.log.entries.first?.seen()?.location == Point(x: 20, y: 10), "only the complete frame")
        h.input.beginBatch()
        h.input.motion(.touch(2), at: Point(x: 110, y: 10), time: 1.02)
        h.input.frame()
        h.input.endBatch()
        #expect(h.log.summary == ["a.moved(1)", "a.moved(2)"], "both fingers' motion of the second frame, in one call")
        let second = try #require(h.log.entries.last)
        let one = try #require(second.touches.first { $0.location(in: nil).y == 10 && $0.location(in: nil).x < 50 })
        #expect(one.location(in: nil) == Point(x: 30, y: 10))
        #expect(one.previousLocation(in: nil) == Point(x: 20, y: 10))
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
