import Testing
@testable import TouchKit

@Suite("Touches and events (T)")
struct TouchDeliveryTests {
    @Test("T1: one Touch object per finger from down to up")
    func touchIdentityIsStable() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(7, 10, 10, at: 1)
        h.move(7, 20, 20, at: 1.1)
        h.move(7, 30, 30, at: 1.2)
        h.lift(7, at: 1.3)
        let touches = h.log.entries.map { try! #require($0.touches.first) }
        #expect(h.log.summary == ["a.began(1)", "a.moved(1)", "a.moved(1)", "a.ended(1)"])
        #expect(touches.allSatisfy { $0 === touches[0] })
    }

    @Test("T1: a Wayland id reused after an up starts a new touch")
    func reusedIdIsNewTouch() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tap(3, 10, 10, at: 1)
        let first = try #require(h.log.entries.first?.touches.first)
        h.tapDown(3, 100, 100, at: 5)
        let second = try #require(h.log.entries.last?.touches.first)
        #expect(first !== second)
        #expect(first.phase == .ended)
        #expect(second.phase == .began)
        #expect(h.input.touch(for: .touch(3)) === second)
    }

    @Test("T2: two fingers in one frame arrive in one touchesBegan")
    func twoFingersOneFrame() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 50, y: 50), time: 1)
        #expect(h.log.entries.isEmpty, "nothing is delivered before the frame")
        h.input.frame()
        #expect(h.log.summary == ["a.began(2)"])
        #expect(h.app.events.count == 1)
    }

    @Test("T2: two fingers in two frames give two calls with one touch each")
    func twoFingersTwoFrames() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 50, 50, at: 1.01)
        #expect(h.log.summary == ["a.began(1)", "a.began(1)"])
        #expect(h.log.entries[0].touches != h.log.entries[1].touches)
    }

    @Test("T2: touches in different views in one frame: one call per view, same event")
    func oneCallPerViewPerPhase() {
        let h = Harness()
        h.addView("left", Rect(x: 0, y: 0, width: 200, height: 300))
        h.addView("right", Rect(x: 200, y: 0, width: 200, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 300, y: 10), time: 1)
        h.input.frame()
        #expect(Set(h.log.summary) == ["left.began(1)", "right.began(1)"])
        #expect(h.log.entries[0].isSameEvent(as: h.log.entries[1]))
    }

    @Test("T3: an unchanged finger is stationary in allTouches and not delivered")
    func stationaryTouches() throws {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 50, y: 50), time: 1)
        h.input.frame()
        h.log.clear()
        h.move(1, 15, 15, at: 1.1)
        let delivery = try #require(h.log.entries.first)
        #expect(h.log.summary == ["a.moved(1)"])
        let moved = try #require(delivery.touches.first)
        #expect(moved.phase == .moved)
        let all = delivery.event.allTouches
        #expect(all.count == 2)
        let other = try #require(all.first { $0 !== moved })
        #expect(other.phase == .stationary)
    }

    @Test("T3: each changed touch reaches exactly one touch method per event")
    func eachTouchOnceInEvent() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 20, y: 20), time: 1)
        h.input.down(.touch(3), at: Point(x: 30, y: 30), time: 1)
        h.input.frame()
        h.log.clear()
        // One frame: 1 moves, 2 lifts, 3 stays, 4 lands.
        h.input.motion(.touch(1), at: Point(x: 11, y: 11), time: 2)
        h.input.up(.touch(2), time: 2)
        h.input.down(.touch(4), at: Point(x: 40, y: 40), time: 2)
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.moved(1)", "a.ended(1)"])
        let event = h.log.entries[0].event
        #expect(h.log.entries.allSatisfy { $0.isSameEvent(as: h.log.entries[0]) })
        #expect(event.allTouches.count == 4)
        let delivered = h.log.entries.flatMap(\.touches)
        #expect(Set(delivered).count == delivered.count)
        #expect(event.allTouches.filter { $0.phase == .stationary }.count == 1)
    }

    @Test("T3: phases through a touch's life: began, moved, ended")
    func phasesInOrder() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        var phases: [Touch.Phase] = []
        h.tapDown(1, 10, 10, at: 1)
        phases.append(h.log.entries.last!.touches.first!.phase)
        h.move(1, 12, 10, at: 1.1)
        phases.append(h.log.entries.last!.touches.first!.phase)
        h.lift(1, at: 1.2)
        phases.append(h.log.entries.last!.touches.first!.phase)
        #expect(phases == [.began, .moved, .ended])
    }

    @Test("T4: location(in:) and previousLocation(in:) use the view's bounds; nil means window")
    func locationsInViews() throws {
        let h = Harness()
        let outer = h.addView("outer", Rect(x: 100, y: 50, width: 200, height: 200))
        let inner = h.addView("inner", Rect(x: 10, y: 20, width: 100, height: 100), to: outer)
        h.tapDown(1, 130, 90, at: 1)
        h.move(1, 140, 95, at: 1.1)
        let touch = try #require(h.log.entries.last?.touches.first)
        #expect(touch.view === inner)
        #expect(touch.location(in: nil) == Point(x: 140, y: 95))
        #expect(touch.previousLocation(in: nil) == Point(x: 130, y: 90))
        #expect(touch.location(in: outer) == Point(x: 40, y: 45))
        #expect(touch.location(in: inner) == Point(x: 30, y: 25))
        #expect(touch.previousLocation(in: inner) == Point(x: 20, y: 20))
        // A scrolled view (bounds origin moved) reports content coordinates.
        outer.bounds.origin = Point(x: 0, y: 100)
        #expect(touch.location(in: outer) == Point(x: 40, y: 145))
    }

    @Test("T4: previousLocation equals location when the touch begins")
    func previousAtBegin() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.frame()
        let seen = try #require(h.log.entries.first?.seen())
        #expect(seen.phase == .began)
        #expect(seen.location == Point(x: 10, y: 10))
        #expect(seen.previousLocation == seen.location)
    }

    @Test("T1 T4: a down and a motion in one frame begin where the finger landed, then move (mutter frames them together)")
    func downAndMotionInOneFrame() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.motion(.touch(1), at: Point(x: 14, y: 10), time: 1.005)
        h.input.motion(.touch(1), at: Point(x: 20, y: 10), time: 1.008)
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)", "a.moved(1)"])
        let began = try #require(h.log.entries.first?.seen())
        #expect(began.location == Point(x: 10, y: 10) && began.previousLocation == began.location)
        let moved = try #require(h.log.entries.last?.seen())
        #expect(moved.location == Point(x: 20, y: 10) && moved.previousLocation == Point(x: 10, y: 10))
        // Every sample of the move is kept (T11).
        let event = try #require(h.log.entries.last?.event)
        let touch = try #require(h.log.entries.last?.touches.first)
        #expect(event.coalescedTouches(for: touch).map { $0.location(in: nil) } == [Point(x: 14, y: 10), Point(x: 20, y: 10)])
    }

    @Test("T5: quick taps at one place count up; slow or far taps start again at 1")
    func tapCounts() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        func lastTapCount() -> Int { h.log.entries.last!.touches.first!.tapCount }
        h.tap(1, 100, 100, at: 1.0)
        #expect(lastTapCount() == 1)
        h.tap(2, 105, 102, at: 1.2)  // 0.15 s after the first tap's end, 5 pt away
        #expect(lastTapCount() == 2)
        h.tap(1, 100, 100, at: 1.4)
        #expect(lastTapCount() == 3)
        h.tap(1, 100, 100, at: 1.45 + Touch.multiTapInterval + 0.05)  // too late
        #expect(lastTapCount() == 1)
        h.tap(1, 100 + Touch.multiTapDistance + 5, 100, at: 2.0)  // too far
        #expect(lastTapCount() == 1)
    }

    @Test("T5: tapCount is valid in began and in ended")
    func tapCountInBeganAndEnded() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tap(1, 100, 100, at: 1.0)
        h.log.clear()
        h.tapDown(1, 100, 100, at: 1.2)
        let beganCount = h.log.entries.last!.touches.first!.tapCount
        h.lift(1, at: 1.25)
        let endedCount = h.log.entries.last!.touches.first!.tapCount
        #expect(beganCount == 2)
        #expect(endedCount == 2)
    }

    @Test("T5: a touch that moved away is not a tap; the next one counts 1")
    func dragIsNotATap() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 100, 100, at: 1)
        h.move(1, 200, 100, at: 1.05)
        h.move(1, 100, 100, at: 1.1)  // back near the start: still a tap
        h.lift(1, at: 1.15)
        h.tapDown(1, 100, 100, at: 1.2)
        #expect(h.log.entries.last!.touches.first!.tapCount == 2)
        h.move(1, 200, 100, at: 1.25)
        h.lift(1, at: 1.3)  // ended 100 pt from its start: a drag
        h.tapDown(1, 200, 100, at: 1.35)
        #expect(h.log.entries.last!.touches.first!.tapCount == 1)
    }

    @Test("T6: timestamps come from the input times, per touch and per event")
    func timestamps() throws {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 10.000)
        h.input.down(.touch(2), at: Point(x: 20, y: 10), time: 10.004)
        h.input.frame()
        let event = try #require(h.app.events.last)
        #expect(event.timestamp == 10.004)
        let byX = event.allTouches.sorted { $0.location(in: nil).x < $1.location(in: nil).x }
        #expect(byX.map(\.timestamp) == [10.000, 10.004])
        h.move(1, 11, 10, at: 10.020)
        #expect(h.app.events.last!.timestamp == 10.020)
        #expect(byX[0].timestamp == 10.020)
        #expect(byX[1].timestamp == 10.004, "a stationary touch keeps its last change's time")
    }

    @Test("T7: the view a touch began in keeps it after the finger leaves its bounds")
    func ownershipOutsideBounds() {
        let h = Harness()
        let small = h.addView("small", Rect(x: 0, y: 0, width: 50, height: 50))
        h.addView("other", Rect(x: 100, y: 0, width: 300, height: 300))
        h.tapDown(1, 10, 10, at: 1)
        h.move(1, 200, 200, at: 1.1)  // over "other" now
        h.lift(1, at: 1.2)
        #expect(h.log.summary == ["small.began(1)", "small.moved(1)", "small.ended(1)"])
        #expect(h.log.entries.last!.touches.first!.view === small)
    }

    @Test("T7: a view removed from the hierarchy still receives the rest of its touch")
    func ownershipAfterRemoval() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 100, height: 100))
        h.tapDown(1, 10, 10, at: 1)
        a.removeFromSuperview()
        h.lift(1, at: 1.1)
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
    }

    @Test("T7: a touch kept after its view was removed and freed reads no view, and still its window")
    func touchOutlivesItsView() {
        let h = Harness()
        weak var gone: View?
        var kept: Touch?
        do {
            let a = h.addView("a", Rect(x: 0, y: 0, width: 100, height: 100))
            gone = a
            h.tapDown(1, 10, 10, at: 1)
            h.lift(1, at: 1.1)
            kept = h.log.entries.last?.touches.first
            #expect(kept?.view === a)
            a.removeFromSuperview()
        }
        #expect(gone == nil)
        #expect(kept != nil && kept?.view == nil)
        #expect(kept?.window === h.window)
    }

    @Test("T8: touches(for: view) and touches(for: window)")
    func touchesForViewAndWindow() throws {
        let h = Harness()
        let left = h.addView("left", Rect(x: 0, y: 0, width: 200, height: 300))
        let right = h.addView("right", Rect(x: 200, y: 0, width: 200, height: 300))
        left.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 20, y: 10), time: 1)
        h.input.down(.touch(3), at: Point(x: 300, y: 10), time: 1)
        h.input.frame()
        let event = try #require(h.app.events.last)
        #expect(event.touches(for: left).count == 2)
        #expect(event.touches(for: right).count == 1)
        #expect(event.touches(for: h.window).count == 3)
        #expect(event.touches(for: Window()).isEmpty)
    }

    @Test("T9: cancel sends touchesCancelled to every view that had touches")
    func cancelEverywhere() {
        let h = Harness()
        h.addView("left", Rect(x: 0, y: 0, width: 200, height: 300))
        h.addView("right", Rect(x: 200, y: 0, width: 200, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 300, y: 10), time: 1)
        h.input.frame()
        h.log.clear()
        h.input.cancel()
        #expect(Set(h.log.summary) == ["left.cancelled(1)", "right.cancelled(1)"])
        #expect(h.log.entries.allSatisfy { $0.touches.first!.phase == .cancelled })
        #expect(h.input.activeTouches.isEmpty)
        #expect(!h.input.hasPendingChanges)
        // Later events for the old ids are ignored until a new down.
        h.log.clear()
        h.input.motion(.touch(1), at: Point(x: 50, y: 50), time: 2)
        h.input.up(.touch(2), time: 2)
        h.input.frame()
        #expect(h.log.entries.isEmpty)
    }

    @Test("T9: cancel drops a touch whose down was never framed, folds pending moves")
    func cancelWithPendingChanges() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 10, 10, at: 1)
        h.log.clear()
        h.input.motion(.touch(1), at: Point(x: 30, y: 10), time: 1.1)
        h.input.down(.touch(2), at: Point(x: 100, y: 100), time: 1.1)
        h.input.cancel()
        #expect(h.log.summary == ["a.cancelled(1)"])
        let touch = try #require(h.log.entries.first?.touches.first)
        #expect(touch.location(in: nil) == Point(x: 30, y: 10))
        h.input.frame()
        #expect(h.log.entries.count == 1, "the unframed down of finger 2 is gone")
    }

    @Test("T9: cancelling the pointer leaves touchscreen touches alone")
    func cancelOneSource() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(TouchInput.ID(source: .pointer, number: 0), at: Point(x: 50, y: 50), time: 1,
                     kind: .indirectPointer)
        h.input.frame()
        h.log.clear()
        h.input.cancel(source: .pointer)
        #expect(h.log.summary == ["a.cancelled(1)"])
        #expect(h.log.entries[0].touches.first!.type == .indirectPointer)
        #expect(h.log.entries[0].event.allTouches.filter { $0.phase == .stationary }.count == 1)
        #expect(h.input.activeTouches.count == 1)
    }

    @Test("T10: the last finger lifted is detectable in touchesEnded")
    func lastFingerLifted() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 20, y: 20), time: 1)
        h.input.frame()
        h.lift(1, at: 1.1)
        h.lift(2, at: 1.2)
        let ends = h.log.entries.filter { $0.method == .ended }
        let last = ends.map { end in end.touches.count == end.eventTouches.filter { $0.view === a }.count }
        #expect(last == [false, true])
    }

    @Test("T11: every motion sample between frames is kept as coalesced touches")
    func coalescedSamples() throws {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 0, 0, at: 1)
        h.input.motion(.touch(1), at: Point(x: 10, y: 0), time: 1.01)
        h.input.motion(.touch(1), at: Point(x: 20, y: 0), time: 1.02)
        h.input.motion(.touch(1), at: Point(x: 30, y: 0), time: 1.03)
        h.input.frame()
        let delivery = try #require(h.log.entries.last)
        let touch = try #require(delivery.touches.first)
        let samples = delivery.event.coalescedTouches(for: touch)
        #expect(samples.map { $0.location(in: nil).x } == [10, 20, 30])
        #expect(samples.map { $0.previousLocation(in: nil).x } == [0, 10, 20])
        #expect(samples.map(\.timestamp) == [1.01, 1.02, 1.03])
        #expect(samples.allSatisfy { $0 !== touch })
        #expect(touch.location(in: nil).x == 30)
        #expect(delivery.event.coalescedTouches(for: Touch.unrelated()).isEmpty)
    }
}

extension Touch {
    /// A touch that belongs to no event, for negative checks.
    static func unrelated() -> Touch {
        let h = Harness()
        h.tap(99, 1, 1, at: 0)
        return h.app.events.last!.allTouches.first!
    }
}
