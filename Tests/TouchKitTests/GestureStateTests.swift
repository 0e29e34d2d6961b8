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

/// A continuous recognizer that begins after 10 pt and ends by itself after 50 pt, finger still
/// down: counts the moves it is given.
final class FlickRecognizer: GestureRecognizer {
    private var start: Point?
    var moves = 0

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        if start == nil { start = touches.first?.location(in: nil) }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        moves += 1
        guard let start, let p = touches.first?.location(in: nil) else { return }
        let distance = p.distance(to: start)
        if state == .possible {
            if distance > 10 { state = .began }
        } else {
            state = distance > 50 ? .ended : .changed
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        state = state == .possible ? .failed : .ended
    }

    override func reset() {
        super.reset()
        start = nil
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
        let history = StateHistory(press)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.1)
        #expect(history.states == [.failed, .possible], "failed, and reset in that event (G3)")
        g.wait(until: 2)
        #expect(history.states == [.failed, .possible], "no timer brings it back while the finger is down")
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

    @Test("G3: a recognizer that fails is reset at the end of that event, with fingers still down")
    func resetAtEndOfFailingEvent() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = CountingTap()
        var seen: [GestureRecognizer.State] = []
        tap.stateObserver = { _, new in seen.append(new) }
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.down(2, 150, 100, at: 1.02)  // two fingers: not a one-finger tap
        #expect(seen == [.failed, .possible], "failed, then reset within the same event")
        #expect(tap.state == .possible)
        #expect(tap.resets == 1)
        g.up(1, at: 1.05)
        g.up(2, at: 1.08)
        #expect(tap.resets == 1, "the lifts of touches it let go of do not reset it again")
        // A fresh sequence is recognized again.
        g.tap(1, 100, 100, at: 2)
        #expect(tap.resets == 2)
        #expect(g.isSettled)
    }

    @Test("G3: once reset, a recognizer ignores the touches still down and takes a touch landing later")
    func resetIgnoresTouchesStillDown() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let tap = g.watch(TapGestureRecognizer(), "tap")
        view.addGestureRecognizer(tap)
        g.down(1, 100, 100, at: 1)
        g.move(1, 150, 100, at: 1.05)  // failed, and reset at once
        let first = g.log.entries.first { $0.method == .began }?.touches.first
        #expect(first?.gestureRecognizers.isEmpty == true, "the finger still down is no longer the tap's")
        #expect(tap.state == .possible)
        // A second finger taps while the first is still down: the reset tap recognizes it.
        var tappedAt: Point?
        tap.addHandler { tappedAt = $0.location(in: nil) }
        g.tap(2, 300, 100, at: 1.1)
        #expect(g.actions == ["tap.ended"])
        #expect(tappedAt == Point(x: 300, y: 100))
        g.up(1, at: 1.3)
        #expect(g.actions == ["tap.ended"])
        #expect(g.isSettled)
    }

    @Test("G3: a gesture that ends with its finger still down gets no more of that finger; a new finger starts the next")
    func endedGestureIgnoresRemainingFinger() {
        let g = GestureHarness()
        let view = g.addView("canvas")
        let flick = g.watch(FlickRecognizer(), "flick")
        view.addGestureRecognizer(flick)
        g.down(1, 100, 100, at: 1)
        g.move(1, 120, 100, at: 1.02)
        g.move(1, 170, 100, at: 1.04)  // far enough: ended, finger still down
        #expect(g.actions == ["flick.began", "flick.ended"])
        #expect(flick.state == .possible)
        let movesSeen = flick.moves
        g.move(1, 250, 100, at: 1.06)
        g.move(1, 330, 100, at: 1.08)
        #expect(flick.moves == movesSeen, "the finger still down no longer reaches it")
        #expect(g.actions == ["flick.began", "flick.ended"])
        g.drag(2, from: Point(x: 100, y: 200), to: Point(x: 200, y: 200), at: 1.1, steps: 4)
        #expect(g.actions == ["flick.began", "flick.ended", "flick.began", "flick.changed", "flick.ended"])
        g.up(1, at: 1.3)
        #expect(g.isSettled)
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
