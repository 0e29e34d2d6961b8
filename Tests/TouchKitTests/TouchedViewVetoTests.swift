// A recognizer of an enclosing view asks the view the touch is in before it begins (G10), and a
// control keeps its own single tap from an enclosing view's tap recognizer (C4), as UIKit does.
@testable import TouchKit
import Testing

/// A view that vetoes every swipe, as a slider vetoes its superview's swipe along it.
private final class NoSwipeView: View {
    override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        !(gestureRecognizer is SwipeGestureRecognizer)
    }
}

@Suite("The touched view and its ancestors' recognizers")
struct TouchedViewVetoTests {
    /// A button at (10, 10), 100x44, in a parent view that fills the window.
    func buttonInParent(_ g: GestureHarness) -> (parent: View, button: Button) {
        let parent = g.addView("parent")
        let button = Button(frame: Rect(x: 10, y: 10, width: 100, height: 44))
        parent.addSubview(button)
        return (parent, button)
    }

    @Test("G10: a swipe recognizer on a superview fails when the touched view vetoes it, and recognizes from a view that does not")
    func touchedViewVetoesAncestorsSwipe() {
        let g = GestureHarness()
        let parent = g.addView("parent")
        let slider = NoSwipeView(frame: Rect(x: 0, y: 0, width: 200, height: 300))
        parent.addSubview(slider)
        let swipe = g.watch(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .right
        parent.addGestureRecognizer(swipe)
        g.drag(1, from: Point(x: 20, y: 150), to: Point(x: 190, y: 150), at: 1, steps: 4)
        #expect(g.actions.isEmpty, "the slider vetoed its superview's swipe")
        g.drag(1, from: Point(x: 210, y: 150), to: Point(x: 390, y: 150), at: 2, steps: 4)
        #expect(g.actions == ["swipe.ended"], "from the parent itself it recognizes")
    }

    @Test("C4: a single tap on a button fires the button; a tap recognizer on its superview does not recognize, and the button is not cancelled")
    func buttonKeepsItsTap() {
        let g = GestureHarness()
        let (parent, button) = buttonInParent(g)
        var fired = 0
        button.addHandler(for: .touchUpInside) { _, _ in fired += 1 }
        let tap = g.watch(TapGestureRecognizer(), "tap")
        parent.addGestureRecognizer(tap)
        g.tap(1, 50, 30, at: 1)
        #expect(fired == 1)
        #expect(g.actions.isEmpty)
        g.tap(1, 300, 200, at: 2)
        #expect(g.actions == ["tap.ended"], "a tap beside the button is the superview's")
    }

    @Test("C4: a double-tap recognizer on a button's superview still recognizes on the button")
    func doubleTapStillRecognizes() {
        let g = GestureHarness()
        let (parent, _) = buttonInParent(g)
        let double = g.watch(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        parent.addGestureRecognizer(double)
        g.tap(1, 50, 30, at: 1)
        g.tap(1, 52, 31, at: 1.15)
        #expect(g.actions == ["double.ended"])
    }
}
