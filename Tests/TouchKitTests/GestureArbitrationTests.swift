import Testing
@testable import TouchKit

/// A pan that never makes a long press fail (G9, `canPrevent`).
final class PoliteLongPressPan: PanGestureRecognizer {
    override func canPrevent(_ other: GestureRecognizer) -> Bool {
        !(other is LongPressGestureRecognizer)
    }
}

/// A long press nothing can make fail (G9, `canBePrevented(by:)`).
final class StubbornLongPress: LongPressGestureRecognizer {
    override func canBePrevented(by other: GestureRecognizer) -> Bool { false }
}

/// A single tap that, as a subclass, waits for any double tap (G10's subclass hook).
final class PatientTap: TapGestureRecognizer {
    override func shouldRequireFailure(of other: GestureRecognizer) -> Bool {
        (other as? TapGestureRecognizer)?.numberOfTapsRequired == 2
    }
}

@Suite("Arbitration between recognizers (G8-G10)")
struct GestureArbitrationTests {
    /// A single and a double tap on one canvas view, logged as "single" and "double".
    func taps(_ g: GestureHarness, single: TapGestureRecognizer = TapGestureRecognizer())
        -> (single: TapGestureRecognizer, double: TapGestureRecognizer) {
        let view = g.addView("canvas")
        let double = g.watch(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        g.watch(single, "single")
        view.addGestureRecognizer(double)
        view.addGestureRecognizer(single)
        return (single, double)
    }

    @Test("G8: require(toFail:) makes a single tap wait for the double tap to fail")
    func waitsForFailure() {
        let g = GestureHarness()
        let (single, double) = taps(g)
        single.require(toFail: double)
        g.tap(1, 100, 100, at: 1)
        #expect(g.actions.isEmpty)
        #expect(single.state == .possible, "held back: the public state stays possible")
        g.wait(until: 1.05 + Touch.multiTapInterval + 0.01)
        #expect(g.actions == ["single.ended"])
        #expect(single.location(in: nil) == .zero, "reset after its action")
        #expect(g.isSettled)
    }

    @Test("G8: when the required recognizer recognizes, the waiting one fails")
    func failsWhenRequiredRecognizes() {
        let g = GestureHarness()
        let (single, double) = taps(g)
        single.require(toFail: double)
        g.tap(1, 100, 100, at: 1)
        g.tap(1, 103, 100, at: 1.2)
        g.wait(until: 3)
        #expect(g.actions == ["double.ended"])
        #expect(single.state == .possible && double.state == .possible)
    }

    @Test("G8: without the requirement both taps fire on a double tap")
    func withoutRequirement() {
        let g = GestureHarness()
        _ = taps(g)
        g.tap(1, 100, 100, at: 1)
        g.tap(1, 103, 100, at: 1.2)
        #expect(g.actions == ["single.ended", "double.ended"])
    }

    @Test("G8: a pan waiting for a swipe to fail reports its began and changes once the swipe failed")
    func continuousWaits() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        let swipe = g.watch(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .left
        pan.require(toFail: swipe)
        view.addGestureRecognizer(pan)
        view.addGestureRecognizer(swipe)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.02)
        g.move(1, 140, 100, at: 1.04)
        #expect(g.actions.isEmpty, "the swipe may still recognize")
        #expect(pan.state == .possible)
        g.move(1, 160, 100, at: 1.06)  // 60 pt to the right: not a left swipe
        #expect(g.actions == ["pan.began", "pan.changed"])
        #expect(pan.translation(in: nil) == Point(x: 60, y: 0))
        g.move(1, 170, 100, at: 1.08)
        g.up(1, at: 1.1)
        #expect(g.actions == ["pan.began", "pan.changed", "pan.changed", "pan.ended"])
        #expect(g.summary.last == "canvas.cancelled(1)")
    }

    @Test("G8: a required recognizer that never saw the touches does not hold anyone back")
    func requirementOnUntouchedRecognizer() {
        let g = GestureHarness()
        let view = g.addView("canvas", Rect(x: 0, y: 0, width: 200, height: 300))
        let other = g.addView("other", Rect(x: 200, y: 0, width: 200, height: 300))
        let single = g.watch(TapGestureRecognizer(), "single")
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        view.addGestureRecognizer(single)
        other.addGestureRecognizer(double)
        g.tap(1, 100, 100, at: 1)
        #expect(g.actions == ["single.ended"])
    }

    @Test("G9: a recognized pan makes a long press on the same touch fail")
    func panPreventsLongPress() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        press.allowableMovement = 100
        view.addGestureRecognizer(press)
        view.addGestureRecognizer(pan)
        let history = StateHistory(press)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.1)
        #expect(history.outcome == .failed)
        g.wait(until: 2)
        g.up(1, at: 2.1)
        #expect(g.actions == ["pan.began", "pan.ended"])
    }

    @Test("G9: a long press that began makes the pan fail")
    func longPressPreventsPan() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        view.addGestureRecognizer(press)
        view.addGestureRecognizer(pan)
        let history = StateHistory(pan)
        g.down(1, 100, 100, at: 1)
        g.wait(until: 1.6)
        #expect(history.outcome == .failed)
        g.move(1, 150, 100, at: 1.7)
        g.up(1, at: 1.8)
        #expect(g.actions == ["press.began", "press.changed", "press.ended"])
    }

    @Test("G9, G10: shouldRecognizeSimultaneouslyWith on either side's delegate lets both recognize")
    func simultaneous() {
        for side in ["pan", "press"] {
            let g = GestureHarness()
            let view = g.addView("canvas")
            let pan = g.watch(PanGestureRecognizer(), "pan")
            let press = g.watch(LongPressGestureRecognizer(), "press")
            let delegate = TestDelegate()
            delegate.simultaneous = { r, _ in r.name == side }
            (side == "pan" ? pan as GestureRecognizer : press).delegate = delegate
            view.addGestureRecognizer(press)
            view.addGestureRecognizer(pan)
            g.down(1, 100, 100, at: 1)
            g.wait(until: 1.6)
            g.move(1, 150, 100, at: 1.7)
            g.up(1, at: 1.8)
            #expect(g.actions == ["press.began", "press.changed", "pan.began", "press.ended", "pan.ended"],
                    "delegate on \(side)")
        }
    }

    @Test("G9: canPrevent and canBePrevented(by:) make the relation one-way")
    func oneWayPrevention() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PoliteLongPressPan(), "pan")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        press.allowableMovement = 100
        view.addGestureRecognizer(press)
        view.addGestureRecognizer(pan)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.1)
        g.wait(until: 1.6)
        g.up(1, at: 1.7)
        #expect(g.actions == ["pan.began", "press.began", "press.ended", "pan.ended"])

        let g2 = GestureHarness()
        let view2 = g2.addView("canvas")
        let pan2 = g2.watch(PanGestureRecognizer(), "pan")
        let press2 = g2.watch(StubbornLongPress(), "press")
        press2.allowableMovement = 100
        view2.addGestureRecognizer(press2)
        view2.addGestureRecognizer(pan2)
        g2.down(1, 100, 100, at: 1)
        g2.move(1, 120, 100, at: 1.1)
        g2.wait(until: 1.6)
        g2.up(1, at: 1.7)
        #expect(g2.actions == ["pan.began", "press.began", "press.ended", "pan.ended"])
    }

    @Test("G9: recognizers on different touches do not exclude each other")
    func differentTouches() {
        let g = GestureHarness()
        let left = g.addView("left", Rect(x: 0, y: 0, width: 200, height: 300))
        let right = g.addView("right", Rect(x: 200, y: 0, width: 200, height: 300))
        left.addGestureRecognizer(g.watch(PanGestureRecognizer(), "leftPan"))
        right.addGestureRecognizer(g.watch(PanGestureRecognizer(), "rightPan"))
        g.down(1, 100, 100, at: 1)
        g.down(2, 300, 100, at: 1.01)
        g.move(1, 130, 100, at: 1.02)
        g.move(2, 330, 100, at: 1.03)
        g.frame(at: 1.04) { input, t in
            input.up(.touch(1), time: t)
            input.up(.touch(2), time: t)
        }
        #expect(g.actions == ["leftPan.began", "rightPan.began", "leftPan.ended", "rightPan.ended"])
    }

    @Test("G10: gestureRecognizerShouldBegin false fails the recognizer; the view keeps its touches")
    func shouldBeginFalse() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        let delegate = TestDelegate()
        delegate.shouldBegin = { _ in false }
        pan.delegate = delegate
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1, steps: 2)
        #expect(g.actions.isEmpty)
        #expect(delegate.calls.filter { $0.hasPrefix("shouldBegin") } == ["shouldBegin(pan)"])
        #expect(g.summary == ["canvas.began(1)", "canvas.moved(1)", "canvas.moved(1)", "canvas.ended(1)"])
    }

    @Test("G10: the view's gestureRecognizerShouldBegin is asked too")
    func viewShouldBegin() {
        final class Refusing: View {
            override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
                !(gestureRecognizer is TapGestureRecognizer)
            }
        }
        let g = GestureHarness()
        let view = Refusing(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        g.window.addSubview(view)
        view.addGestureRecognizer(g.watch(TapGestureRecognizer(), "tap"))
        view.addGestureRecognizer(g.watch(PanGestureRecognizer(), "pan"))
        g.tap(1, 100, 100, at: 1)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 2, steps: 1)
        #expect(g.actions == ["pan.began", "pan.ended"])
    }

    @Test("G10: shouldReceive false keeps a touch away from the recognizer")
    func shouldReceiveFalse() throws {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        let delegate = TestDelegate()
        delegate.shouldReceive = { _, touch in touch.location(in: nil).x > 200 }
        tap.delegate = delegate
        view.addGestureRecognizer(tap)
        g.tap(1, 100, 100, at: 1)
        #expect(g.actions.isEmpty)
        let touch = try #require(g.log.entries.first?.touches.first)
        #expect(touch.gestureRecognizers.isEmpty)
        #expect(g.summary == ["canvas.began(1)", "canvas.ended(1)"])
        g.tap(1, 300, 100, at: 2)
        #expect(g.actions == ["tap.ended"])
    }

    @Test("G10: shouldRequireFailureOf and shouldBeRequiredToFailBy set up failure requirements per sequence")
    func dynamicRequirements() {
        for way in ["requireFailure", "requiredToFailBy", "subclass"] {
            let g = GestureHarness()
            let delegate = TestDelegate()
            let (single, double) = taps(g, single: way == "subclass" ? PatientTap() : TapGestureRecognizer())
            switch way {
            case "requireFailure":
                single.delegate = delegate
                delegate.requireFailure = { _, other in other === double }
            case "requiredToFailBy":
                double.delegate = delegate
                delegate.requiredToFailBy = { _, other in other === single }
            default:
                break
            }
            g.tap(1, 100, 100, at: 1)
            #expect(g.actions.isEmpty, "\(way)")
            g.wait(until: 2)
            #expect(g.actions == ["single.ended"], "\(way)")
            g.actions.removeAll()
            g.tap(1, 100, 100, at: 3)
            g.tap(1, 100, 100, at: 3.2)
            g.wait(until: 4)
            #expect(g.actions == ["double.ended"], "\(way)")
        }
    }
}
