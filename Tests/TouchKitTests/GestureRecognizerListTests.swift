import Testing
@testable import TouchKit

@Suite("A view's settable gestureRecognizers (G21)")
struct GestureRecognizerListTests {
    @Test("G21: setting the list attaches its recognizers in order, once each, and detaches the rest")
    func settingTheList() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let other = g.addView("other", Rect(x: 0, y: 0, width: 10, height: 10))
        let tap = TapGestureRecognizer(), pan = PanGestureRecognizer(), press = LongPressGestureRecognizer()
        view.addGestureRecognizer(tap)
        view.addGestureRecognizer(pan)
        other.addGestureRecognizer(press)
        view.gestureRecognizers = [press, tap, press]
        #expect(view.gestureRecognizers.map(ObjectIdentifier.init) == [ObjectIdentifier(press), ObjectIdentifier(tap)])
        #expect(press.view === view && tap.view === view)
        #expect(other.gestureRecognizers.isEmpty, "taken from the view it was on")
        #expect(pan.view == nil, "left out: detached")
        view.gestureRecognizers = []
        #expect(tap.view == nil && press.view == nil)
    }

    @Test("G21, G16: a recognizer left out of the new list while recognizing is cancelled")
    func detachingCancels() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.gestureRecognizers = [pan]
        g.down(1, 100, 100, at: 1)
        g.move(1, 150, 100, at: 1.05)
        #expect(g.actions == ["pan.began"])
        view.gestureRecognizers = []
        #expect(g.actions == ["pan.began", "pan.cancelled"])
        g.move(1, 200, 100, at: 1.1)
        g.up(1, at: 1.2)
        #expect(g.actions == ["pan.began", "pan.cancelled"])
    }
}
