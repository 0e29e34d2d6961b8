import Testing
@testable import TouchKit

/// A tap that counts its resets.
final class CountingTap: TapGestureRecognizer {
    var resets = 0
    override func reset() {
        super.reset()
        resets += 1
    }
}

/// A custom recognizer (G17): a stroke of 30 pt downwards in the right half of the window.
/// Touches in the left half are handed back with `ignore(_:for:)`.
final class DownStrokeRecognizer: GestureRecognizer {
    private var start: Point?
    var resets = 0

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        for touch in touches where touch.location(in: nil).x < 200 { ignore(touch, for: event) }
        if start == nil, let touch = touches.first(where: { $0.location(in: nil).x >= 200 }) {
            start = touch.location(in: nil)
        }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let start, let touch = touches.first else { return }
        let p = touch.location(in: nil)
        if p.y - start.y > 30 {
            state = .recognized
        } else if abs(p.x - start.x) > 20 {
            state = .failed
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        if state == .possible { state = .failed }
    }

    override func reset() {
        super.reset()
        start = nil
        resets += 1
    }
}

/// A target for Action-based target-action.
final class GestureController: Responder {
    var received: [(Action, GestureRecognizer.State, Bool)] = []

    override func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        action == "panned"
    }

    override func perform(_ action: Action, sender: Any?, event: Event?) {
        let recognizer = sender as? GestureRecognizer
        received.append((action, recognizer?.state ?? .possible, event != nil))
    }
}

@Suite("Gesture recognizer states and actions (G1-G3, G17)")
struct GestureStateTests {
    @Test("G1: the transition table: discrete possible -> recognized/failed, continuous through began and changed")
    func transitionTable() {
        typealias S = GestureRecognizer.State
        #expect(S.recognized == .ended)
        #expect(S.legalTransitions[.possible] == [.began, .ended, .failed])
        #expect(S.legalTransitions[.began] == [.changed, .ended, .cancelled])
        #expect(S.legalTransitions[.changed] == [.changed, .ended, .cancelled])
        for finished in [S.ended, .cancelled, .failed] {
            #expect(S.legalTransitions[finished] == [], "only the reset leaves \(finished)")
            #expect(finished.isFinished)
        }
        #expect(!S.possible.canTransition(to: .changed))
        #expect(!S.possible.canTransition(to: .cancelled))
        #expect(!S.began.canTransition(to: .failed))
        #expect(!S.began.canTransition(to: .possible))
        #expect(S.changed.canTransition(to: .changed))
    }

    @Test("G1: a discrete tap goes from possible to recognized, then back to possible")
    func discreteTap() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        view.addGestureRecognizer(tap)
        #expect(tap.state == .possible)
        g.tap(1, 100, 100, at: 1)
        #expect(g.actions == ["tap.ended"])
        #expect(tap.state == .possible)
    }

    @Test("G1: a continuous pan goes possible, began, changed..., ended")
    func continuousPan() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let pan = g.watch(PanGestureRecognizer(), "pan")
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1)
        #expect(g.actions == ["pan.began", "pan.changed", "pan.changed", "pan.changed", "pan.changed",
                              "pan.ended"])
        #expect(pan.state == .possible)
    }

    @Test("G1: a continuous long press goes from possible to failed when the finger strays")
    func continuousFails() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let press = g.watch(LongPressGestureRecognizer(), "press")
        view.addGestureRecognizer(press)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.1)
        #expect(press.state == .failed)
        g.wait(until: 2)
        #expect(press.state == .failed, "no timer brings it back while the finger is down")
        g.up(1, at: 2.1)
        #expect(press.state == .possible)
        #expect(g.actions.isEmpty)
    }

    @Test("G2: targets get began, changed, ended and cancelled; never failed")
    func actionsOnStates() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let controller = GestureController()
        let pan = PanGestureRecognizer(target: controller, action: "panned")
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 160, y: 100), at: 1, steps: 2)
        #expect(controller.received.map(\.1) == [.began, .changed, .ended])
        #expect(controller.received.allSatisfy { $0.0 == "panned" && $0.2 })
        controller.received.removeAll()

        // Cancelled by the system (T9): one cancelled action.
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 160, y: 100), at: 2, steps: 2, lift: false)
        g.input.cancel()
        #expect(controller.received.map(\.1) == [.began, .changed, .cancelled])
        controller.received.removeAll()

        // A tap never moves: the pan fails, silently.
        g.tap(1, 100, 100, at: 3)
        #expect(controller.received.isEmpty)
        #expect(pan.state == .possible)
    }

    @Test("G2: sender is the recognizer; removed targets and handlers get nothing")
    func targetsAndHandlers() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = TapGestureRecognizer()
        let controller = GestureController()
        var typed: [TapGestureRecognizer] = []
        let id = tap.addHandler { typed.append($0) }
        tap.addTarget(controller, action: "panned")
        tap.addTarget(controller, action: "panned")  // once only
        view.addGestureRecognizer(tap)
        g.tap(1, 100, 100, at: 1)
        #expect(typed.count == 1 && typed[0] === tap)
        #expect(controller.received.count == 1)
        tap.removeHandler(id)
        tap.removeTarget(controller, action: nil)
        g.tap(1, 100, 100, at: 2)
        #expect(typed.count == 1)
        #expect(controller.received.count == 1)
    }

    @Test("G2: a closure-created recognizer is typed as its own class")
    func typedInit() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        var translations: [Point] = []
        let pan = PanGestureRecognizer { pan in translations.append(pan.translation(in: nil)) }
        view.addGestureRecognizer(pan)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 140, y: 100), at: 1, steps: 2)
        #expect(translations == [Point(x: 20, y: 0), Point(x: 40, y: 0), Point(x: 40, y: 0)])
    }

    @Test("G3: reset runs and the state returns to possible only once the sequence's touches are gone")
    func resetAfterTouchesGone() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = CountingTap()
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.down(2, 150, 100, at: 1.02)  // two fingers: not a one-finger tap
        #expect(tap.state == .failed)
        g.up(1, at: 1.05)
        #expect(tap.state == .failed)
        #expect(tap.resets == 0)
        g.up(2, at: 1.08)
        #expect(tap.state == .possible)
        #expect(tap.resets == 1)
        // A fresh sequence is recognized again.
        g.tap(1, 100, 100, at: 2)
        #expect(tap.resets == 2)
        #expect(g.isSettled)
    }

    @Test("G3: a failed recognizer gets no touches that begin before its reset")
    func failedSeesNoNewTouches() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.move(1, 150, 100, at: 1.05)  // failed
        g.tap(2, 300, 100, at: 1.1)
        let second = g.log.entries.first { $0.method == .began && $0.touches.first!.location(in: nil).x == 300 }
        #expect(second?.touches.first?.gestureRecognizers.isEmpty == true)
        #expect(g.actions.isEmpty)
    }

    @Test("G17: a custom recognizer sets state from its touch methods; the base class sends actions and resets")
    func customRecognizer() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let stroke = g.watch(DownStrokeRecognizer(), "stroke")
        stroke.delaysTouchesBegan = true
        view.addGestureRecognizer(stroke)
        g.drag(1, from: Point(x: 300, y: 50), to: Point(x: 300, y: 150), at: 1, steps: 4)
        #expect(g.actions == ["stroke.ended"])
        #expect(g.summary.isEmpty, "recognized: the held touchesBegan is dropped")
        #expect(stroke.resets == 1)
        #expect(stroke.state == .possible)

        g.actions.removeAll()
        g.drag(1, from: Point(x: 300, y: 50), to: Point(x: 340, y: 60), at: 2, steps: 2)
        #expect(g.actions.isEmpty)
        #expect(g.summary == ["canvas.began(1)", "canvas.moved(1)", "canvas.ended(1)"],
                "failed: the held began is delivered with one catch-up move (G6)")
        #expect(stroke.resets == 2)
    }

    @Test("G17: ignore(_:for:) hands a touch back: the view gets it at once, the recognizer no more")
    func ignoreHandsTouchBack() throws {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let stroke = DownStrokeRecognizer()
        stroke.delaysTouchesBegan = true
        view.addGestureRecognizer(stroke)
        g.down(1, 100, 100, at: 1)
        #expect(g.summary == ["canvas.began(1)"])
        let touch = try #require(g.log.entries.first?.touches.first)
        #expect(touch.gestureRecognizers.isEmpty)
        #expect(g.log.entries[0].event.touches(for: stroke).isEmpty)
        g.move(1, 100, 200, at: 1.1)
        #expect(stroke.state == .possible, "an ignored touch does not reach the recognizer")
        g.up(1, at: 1.2)
        #expect(g.summary == ["canvas.began(1)", "canvas.moved(1)", "canvas.ended(1)"])
    }
}
