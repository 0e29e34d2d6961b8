// What pen and touch apps use to tell fingers from a pen (G18), and small members UIKit's event
// model has: a control's targets and events, an event's type, a touch's precise location and its
// most possible force.
@testable import TouchKit
import Testing

@Suite("Touch types and UIKit's smaller members")
struct TouchTypeTests {
    static let pen = TouchInput.ID(source: .tablet, number: 1)

    @Test("G18: a pan that allows only fingers lets a pen draw through it, and one that allows only the pen ignores fingers")
    func allowedTouchTypes() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let fingers = g.watch(PanGestureRecognizer(), "fingers")
        fingers.allowedTouchTypes = [.direct]
        fingers.cancelsTouchesInView = false
        view.addGestureRecognizer(fingers)
        g.clock.advance(to: 1)
        g.input.down(Self.pen, at: Point(x: 100, y: 100), time: 1, kind: .pencil, force: 0.5)
        g.input.frame()
        for (i, x) in [130.0, 160, 190].enumerated() {
            g.clock.advance(to: 1 + 0.02 * Double(i + 1))
            g.input.motion(Self.pen, at: Point(x: x, y: 100), time: 1 + 0.02 * Double(i + 1))
            g.input.frame()
        }
        #expect(g.actions.isEmpty, "the pen passes the fingers' pan by")
        #expect(g.summary.first == "canvas.began(1)", "the pen's touches reach the view")
        g.input.up(Self.pen, time: 1.2)
        g.input.frame()
        g.drag(1, from: Point(x: 100, y: 200), to: Point(x: 200, y: 200), at: 2, steps: 4)
        #expect(g.actions.first == "fingers.began", "a finger pans")
    }

    @Test("G18: requiresExclusiveTouchType (UIKit's default): a pinch holding a finger takes no pen as its second touch; without it, it does")
    func exclusiveTouchType() {
        for exclusive in [true, false] {
            let g = GestureHarness()
            let view = g.addView("canvas")
            let pinch = g.watch(PinchGestureRecognizer(), "pinch")
            pinch.requiresExclusiveTouchType = exclusive
            view.addGestureRecognizer(pinch)
            g.down(1, 150, 150, at: 1)
            g.clock.advance(to: 1.05)
            g.input.down(Self.pen, at: Point(x: 250, y: 150), time: 1.05, kind: .pencil, force: 0.5)
            g.input.frame()
            g.clock.advance(to: 1.1)
            g.input.motion(Self.pen, at: Point(x: 300, y: 150), time: 1.1)
            g.input.frame()
            #expect(g.actions == (exclusive ? [] : ["pinch.began"]), "exclusive: \(exclusive)")
        }
    }

    @Test("A control lists its targets and the events something is registered for")
    func controlTargetsAndEvents() {
        final class Target: ActionTarget {
            func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool { true }
            func perform(_ action: Action, sender: Any?, event: Event?) {}
        }
        let button = Button(frame: Rect(x: 0, y: 0, width: 100, height: 44))
        let a = Target(), b = Target()
        #expect(button.allTargets.isEmpty && button.allControlEvents.isEmpty)
        button.addTarget(a, action: "go", for: .touchUpInside)
        button.addTarget(a, action: "stop", for: .touchDown)
        button.addTarget(b, action: "go", for: .touchUpInside)
        button.addTarget(nil, action: "chain", for: .valueChanged)
        button.addHandler(for: .touchUpOutside) { _, _ in }
        #expect(button.allTargets.count == 2)
        #expect(button.allTargets.contains { $0 === a } && button.allTargets.contains { $0 === b })
        #expect(button.allControlEvents == [.touchUpInside, .touchDown, .valueChanged, .touchUpOutside])
    }

    @Test("An event carries touches; a pen's force runs to its maximum, a finger's reports none; the precise location is the location")
    func eventTypeForceAndPreciseLocation() throws {
        let h = Harness()
        let view = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        view.isMultipleTouchEnabled = true
        h.tapDown(1, 10.5, 20.25, at: 1)
        h.input.down(Self.pen, at: Point(x: 100, y: 100), time: 1.1, kind: .pencil, force: 0.75)
        h.input.frame()
        let first = try #require(h.log.entries.first)
        #expect(first.event.type == .touches)
        let finger = try #require(first.touches.first)
        #expect(finger.maximumPossibleForce == 0)
        #expect(finger.preciseLocation(in: view) == Point(x: 10.5, y: 20.25))
        let pen = try #require(h.log.entries.last?.touches.first)
        #expect(pen.type == .pencil && pen.maximumPossibleForce == 1 && pen.force == 0.75)
    }
}
