// `isMultipleTouchEnabled` and `isExclusiveTouch` govern which touches a view's own touch methods
// get (H4, H5); the recognizers of the view and its ancestors still get every touch (G4), as in
// UIKit: a pinch on a default (single-touch) view works, and so does a pinch on the superview of
// two exclusive-touch buttons (Apple's SimpleGestureRecognizers sample).
@testable import TouchKit
import Testing

@Suite("Touch flags and recognizers")
struct TouchFlagsAndRecognizersTests {
    /// A pinch on `view` (not cancelling its touches) with a finger at x 150 and one at 250 that
    /// moves out to 300: it must begin at scale 1.5 and end when the fingers lift.
    func pinch(_ g: GestureHarness, on view: View) {
        let pinch = g.watch(PinchGestureRecognizer(), "pinch")
        pinch.cancelsTouchesInView = false
        view.addGestureRecognizer(pinch)
        g.down(1, 150, 150, at: 1)
        g.down(2, 250, 150, at: 1.05)
        g.move(2, 300, 150, at: 1.1)
        #expect(g.actions == ["pinch.began"])
        #expect(abs(pinch.scale - 1.5) < 1e-9)
        g.up(2, at: 1.2)
        g.up(1, at: 1.25)
        #expect(g.actions.last == "pinch.ended")
    }

    @Test("H4 G4: a pinch on a single-touch view gets both fingers and recognizes; the view's touch methods get only the first")
    func pinchOnASingleTouchView() {
        let g = GestureHarness()
        let view = g.base.addView("view", Rect(x: 0, y: 0, width: 400, height: 300))
        #expect(view.isMultipleTouchEnabled == false, "UIKit's default")
        pinch(g, on: view)
        #expect(g.summary.allSatisfy { $0.hasSuffix("(1)") }, "one touch per call: \(g.summary)")
        #expect(g.summary.filter { $0.hasPrefix("view.began") }.count == 1, "the second finger never reached the view: \(g.summary)")
    }

    @Test("H5 G4: a pinch on the superview of two exclusive-touch views recognizes with a finger on each; neither view gets the other's finger")
    func pinchOverExclusiveViews() {
        let g = GestureHarness()
        let parent = g.base.addView("parent", Rect(x: 0, y: 0, width: 400, height: 300))
        parent.isMultipleTouchEnabled = true
        let left = g.base.addView("left", Rect(x: 0, y: 0, width: 200, height: 300), to: parent)
        let right = g.base.addView("right", Rect(x: 200, y: 0, width: 200, height: 300), to: parent)
        left.isExclusiveTouch = true
        right.isExclusiveTouch = true
        pinch(g, on: parent)
        #expect(!g.summary.contains { $0.hasPrefix("right.") }, "the exclusive left view held the first finger: \(g.summary)")
        #expect(g.summary.first == "left.began(1)")
    }

    @Test("H5: a touch an exclusive view keeps from another view is not that view's either once the first lifts")
    func blockedTouchStaysBlocked() {
        let h = Harness()
        let a = h.addView("A", Rect(x: 0, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.addView("B", Rect(x: 100, y: 0, width: 100, height: 100))
        h.tapDown(1, 50, 50, at: 1)  // A
        h.tapDown(2, 150, 50, at: 1.1)  // B, blocked while A tracks a touch
        h.lift(1, at: 1.2)
        h.move(2, 160, 50, at: 1.3)
        h.lift(2, at: 1.4)
        #expect(h.log.summary == ["A.began(1)", "A.ended(1)"])
    }
}
