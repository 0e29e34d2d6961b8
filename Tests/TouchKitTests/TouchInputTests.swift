import Testing
@testable import TouchKit

@Suite("Input adapter quirks")
struct TouchInputTests {
    @Test("Frame-less up: Weston 10 omits the frame after the last up; the host frames it")
    func framelessUp() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 10, 10, at: 1)
        h.input.up(.touch(1), time: 1.1)  // no frame follows
        #expect(h.input.hasPendingChanges)
        #expect(h.input.pendingChangesEndWithUp)
        // The host sees the batch of reads end with an unframed up and frames it itself.
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
        #expect(!h.input.hasPendingChanges)
        #expect(!h.input.pendingChangesEndWithUp)
    }

    @Test("Frame-less up: a down for the same id flushes the pending up first")
    func downAfterUnframedUpFlushes() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(0, 10, 10, at: 1)
        h.input.up(.touch(0), time: 1.1)
        h.input.down(.touch(0), at: Point(x: 200, y: 200), time: 1.3)
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"], "the old touch ended on its own")
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)", "a.began(1)"])
        let old = try #require(h.log.entries[1].touches.first)
        let new = try #require(h.log.entries[2].touches.first)
        #expect(old !== new)
        #expect(old.location(in: nil) == Point(x: 10, y: 10))
        #expect(new.location(in: nil) == Point(x: 200, y: 200))
    }

    @Test("pendingChangesEndWithUp is false when a motion or down follows the up")
    func pendingEndsWithUpTracksLastChange() {
        let h = Harness()
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 20, 20, at: 1)
        h.input.up(.touch(1), time: 1.1)
        #expect(h.input.pendingChangesEndWithUp)
        h.input.motion(.touch(2), at: Point(x: 25, y: 20), time: 1.1)
        #expect(!h.input.pendingChangesEndWithUp)
        h.input.frame()
        #expect(!h.input.hasPendingChanges)
    }

    @Test("Down and up within one frame: began, then ended, in two events")
    func downUpSameFrame() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.up(.touch(1), time: 1.01)
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
        #expect(!h.log.entries[0].isSameEvent(as: h.log.entries[1]))
        #expect(h.input.activeTouches.isEmpty)
    }

    @Test("Duplicate down for an active id is an up followed by a new touch")
    func duplicateDown() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(1, 50, 50, at: 1.1)
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)", "a.began(1)"])
        #expect(h.log.entries[0].touches != h.log.entries[2].touches)
        #expect(h.input.activeTouches.count == 1)
    }

    @Test("Motion and up for unknown ids, repeated ups and empty frames deliver nothing")
    func nonsenseIsIgnored() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.frame()
        h.input.motion(.touch(5), at: Point(x: 1, y: 1), time: 1)
        h.input.up(.touch(6), time: 1)
        h.input.frame()
        #expect(h.app.events.isEmpty)
        h.tapDown(1, 10, 10, at: 2)
        h.input.up(.touch(1), time: 2.1)
        h.input.up(.touch(1), time: 2.2)
        h.input.motion(.touch(1), at: Point(x: 90, y: 90), time: 2.2)  // after its up: ignored
        h.input.frame()
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
        #expect(h.log.entries[1].touches.first!.location(in: nil) == Point(x: 10, y: 10))
        #expect(h.app.events.count == 2)
    }

    @Test("Ids of different sources do not collide")
    func sourcesAreSeparate() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(0), at: Point(x: 10, y: 10), time: 1)
        h.input.down(TouchInput.ID(source: .tablet, number: 0), at: Point(x: 20, y: 20), time: 1,
                     kind: .pencil, force: 0.5)
        h.input.frame()
        #expect(h.log.summary == ["a.began(2)"])
        #expect(Set(h.log.entries[0].touches.map(\.type)) == [.direct, .pencil])
        #expect(h.log.entries[0].touches.contains { $0.force == 0.5 })
    }

    @Test("Touches that begin outside every view belong to the window")
    func touchOnWindow() {
        let h = Harness()
        h.tap(1, 10, 10, at: 1)
        #expect(h.log.summary == ["app.began(1)", "app.ended(1)"])
        #expect(h.log.entries[0].touches.first!.view === h.window)
    }
}
