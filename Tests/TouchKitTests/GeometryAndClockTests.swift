import Testing
@testable import TouchKit

@Suite("Geometry, colour and clock")
struct GeometryAndClockTests {
    @Test("Rect edges, containment and emptiness")
    func rectBasics() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect([r.minX, r.midX, r.maxX, r.minY, r.midY, r.maxY] == [10, 25, 40, 20, 40, 60])
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(!r.contains(Point(x: 40, y: 30)), "max edges are outside")
        #expect(Rect(x: 5, y: 5, width: 0, height: 10).isEmpty)
        #expect(Rect(x: 40, y: 60, width: -30, height: -40).standardized == r)
        #expect(Rect.zero.isEmpty)
    }

    @Test("Rect intersection, union, inset, offset, integral, enclosing")
    func rectAlgebra() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.intersects(b))
        #expect(!a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)), "touching edges do not overlap")
        #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)) == .zero)
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
        #expect(Rect.zero.union(b) == b, "empty rects add nothing")
        #expect(a.insetBy(dx: 2, dy: 3) == Rect(x: 2, y: 3, width: 6, height: 4))
        #expect(a.insetBy(dx: -1, dy: -1) == Rect(x: -1, y: -1, width: 12, height: 12))
        #expect(a.offsetBy(dx: 3, dy: -2) == Rect(x: 3, y: -2, width: 10, height: 10))
        #expect(Rect(x: 0.5, y: 1.2, width: 2, height: 2.1).integral == Rect(x: 0, y: 1, width: 3, height: 3))
        // On whole pixels at 125 %: 1023 pt is pixel 1278.75, so the box starts at pixel 1278.
        #expect(Rect(x: 1023, y: 0.5, width: 1, height: 1).integral(scale: 1.25) == Rect(x: 1022.4, y: 0, width: 1.6, height: 1.6))
        #expect(Rect(x: 0.5, y: 1.2, width: 2, height: 2.1).integral(scale: 1) == Rect(x: 0, y: 1, width: 3, height: 3))
        #expect(Rect(x: 0.3, y: 0.7, width: 1, height: 1).integral(scale: 2) == Rect(x: 0, y: 0.5, width: 1.5, height: 1.5))
        let pts = [Point(x: 3, y: 9), Point(x: -1, y: 2), Point(x: 5, y: 4)]
        #expect(Rect(enclosing: pts) == Rect(x: -1, y: 2, width: 6, height: 7))
        #expect(Point(x: 0, y: 0).distance(to: Point(x: 3, y: 4)) == 5)
    }

    @Test("Colour constants and hex")
    func colors() {
        #expect(Color(hex: 0xFF0000) == .red)
        #expect(Color(hex: 0x00FF00) == .green)
        #expect(Color(hex: 0x0000FF) == .blue)
        #expect(Color(hex: 0x000000) == .black)
        #expect(Color(hex: 0xFFFFFF) == .white)
        #expect(Color.clear.alpha == 0)
        #expect(Color(hex: 0x336699).green == Double(0x66) / 255)
    }

    @Test("ManualClock fires due timers in deadline order, with now at each deadline")
    func manualClock() {
        let clock = ManualClock(now: 10)
        var fired: [(String, Double)] = []
        _ = clock.schedule(at: 12) { fired.append(("b", clock.now)) }
        _ = clock.schedule(at: 11) { fired.append(("a", clock.now)) }
        _ = clock.schedule(at: 12) { fired.append(("c", clock.now)) }
        let cancelled = clock.schedule(at: 11.5) { fired.append(("x", clock.now)) }
        cancelled.cancel()
        _ = clock.schedule(at: 20) { fired.append(("late", clock.now)) }
        clock.advance(by: 2.5)
        #expect(fired.map(\.0) == ["a", "b", "c"])
        #expect(fired.map(\.1) == [11, 12, 12])
        #expect(clock.now == 12.5)
        #expect(clock.nextDeadline == 20)
        #expect(cancelled.isCancelled)
    }

    @Test("ManualClock: a timer scheduled by a timer fires in the same advance if due")
    func chainedTimers() {
        let clock = ManualClock()
        var fired: [Double] = []
        _ = clock.schedule(at: 1) {
            fired.append(clock.now)
            _ = clock.schedule(at: clock.now + 1) { fired.append(clock.now) }
        }
        clock.advance(to: 5)
        #expect(fired == [1, 2])
        clock.advance(to: 3)
        #expect(clock.now == 5, "time never goes back")
    }

    @Test("EventLoopClock reports its next deadline and fires due timers")
    func eventLoopClock() {
        var time = 100.0
        let clock = EventLoopClock { time }
        var fired = 0
        _ = clock.schedule(at: 100.5) { fired += 1 }
        #expect(clock.nextDeadline == 100.5)
        clock.fireDueTimers()
        #expect(fired == 0)
        time = 101
        clock.fireDueTimers()
        #expect(fired == 1)
        #expect(clock.nextDeadline == nil)
    }
}
