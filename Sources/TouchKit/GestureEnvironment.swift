/// The arbitration between one window's gesture recognizers, and between them and the views:
/// who sees a touch (G4), who may recognize (G8, G9, G10), and what the views still get (G5-G7).
///
/// Every touch event goes through ``deliver(_:)``: the recognizers of each new touch's view and
/// its ancestors are collected, every recognizer sees its touches, then the views' share goes
/// through ``ViewTouchDelivery``. State changes, timers and disabling run inside ``perform(_:_:)``;
/// when the outermost one returns, ``settle()`` releases transitions whose failure requirements
/// are met, fails what can no longer decide, resets what finished (G3) and flushes the views.
final class GestureEnvironment {
    /// Unowned: the window holds its environment, which goes with it.
    unowned let window: Window
    private let delivery = ViewTouchDelivery()
    /// Recognizers taking part in the current touch sequences, in the order they joined; a
    /// recognizer leaves when it is reset.
    private var engaged: [GestureRecognizer] = []
    private var depth = 0
    /// The event being processed, or one made up for deliveries outside an event (a timer).
    private(set) var currentEvent: Event?
    /// The event of the latest delivery: the touch sequence's while it lasts (T12). Held, not
    /// weak (an event is retained all through its delivery: ViewLink.swift), and let go when its
    /// touches have all ended.
    private var sequenceEvent: Event?

    init(window: Window) {
        self.window = window
    }

    /// Whether nothing is left to decide or deliver: no recognizer engaged, no delivery held.
    var isIdle: Bool { engaged.isEmpty && delivery.isIdle }

    /// Runs `body`; the outermost call then settles the recognizers and flushes the views.
    func perform(_ event: Event? = nil, _ body: () -> Void) {
        let outer = currentEvent
        if let event { currentEvent = event }
        depth += 1
        body()
        depth -= 1
        if depth == 0 {
            settle()
            currentEvent = nil
        } else if event != nil {
            currentEvent = outer
        }
    }

    /// The event to hand views and targets now; outside an event (a timer), the sequence's own
    /// while its touches are down (T12), else one holding the live touches.
    private func eventForDelivery() -> Event {
        if let currentEvent { return currentEvent }
        if let sequenceEvent, sequenceEvent.orderedTouches.contains(where: { !$0.isFinished }) {
            currentEvent = sequenceEvent
            return sequenceEvent
        }
        let time = window.application?.clock.now ?? 0
        let event = Event(timestamp: time, touches: delivery.liveTouches)
        currentEvent = event
        return event
    }

    // MARK: Events

    /// Delivers the window's touches of `event`: to recognizers first (G4), then to views.
    func deliver(_ event: Event) {
        let touches = event.orderedTouches.filter { $0.window === window }
        sequenceEvent = event
        perform(event) {
            for touch in touches where touch.phase == .ended || touch.phase == .cancelled {
                touch.isFinished = true
            }
            for touch in touches where touch.phase == .began && touch.isDeliverable {
                if let view = touch.view { collectRecognizers(for: touch, in: view) }
            }
            var recipients: [GestureRecognizer] = []
            for touch in touches {
                for r in touch.gestureRecognizers where !recipients.contains(where: { $0 === r }) {
                    recipients.append(r)
                }
            }
            for r in recipients {
                deliver(touches, of: event, to: r)
            }
            // A gesture already under way that keeps a new touch (did not ignore it) takes it
            // from the view at once (G5).
            for touch in touches where touch.phase == .began {
                if touch.gestureRecognizers.contains(where: {
                    ($0.state == .began || $0.state == .changed) && $0.cancelsTouchesInView
                }) {
                    delivery.cancel([touch], in: event)
                }
            }
            for touch in touches {
                delivery.enqueue(touch, in: event)
            }
        }
        if sequenceEvent === event, !event.orderedTouches.contains(where: { !$0.isFinished }) { sequenceEvent = nil }
    }

    /// G4: the recognizers of `view` and its ancestors that take `touch`.
    private func collectRecognizers(for touch: Touch, in view: View) {
        var current: View? = view
        while let v = current {
            for r in v.attachedGestureRecognizers where r.receivesTouches && !r.isPending && r.takesTouchType(of: touch) {
                if let delegate = r.delegate, !delegate.gestureRecognizer(r, shouldReceive: touch) {
                    continue
                }
                r.trackedTouches.append(touch)
                r.environment = self
                touch.gestureRecognizers.append(r)
                if !engaged.contains(where: { $0 === r }) { engaged.append(r) }
            }
            current = v.superview
        }
    }

    /// Calls `r`'s touch methods for its touches in this event, phase by phase, while it still
    /// wants them.
    private func deliver(_ touches: [Touch], of event: Event, to r: GestureRecognizer) {
        for phase in [Touch.Phase.began, .moved, .ended, .cancelled] {
            guard r.receivesTouches else { return }
            let set = Set(touches.filter { touch in
                touch.phase == phase && !event.isSuppressed(touch)
                    && r.trackedTouches.contains { $0 === touch }
            })
            guard !set.isEmpty else { continue }
            switch phase {
            case .began: r.touchesBegan(set, with: event)
            case .moved: r.touchesMoved(set, with: event)
            case .ended: r.touchesEnded(set, with: event)
            case .cancelled:
                r.touchesCancelled(set, with: event)
                // T9: a gesture whose touches the system took cannot finish.
                r.finish(.cancelled)
            case .stationary: break
            }
        }
    }

    // MARK: Transitions

    private enum Requirements {
        /// No recognizer this one waits for is still deciding.
        case met
        /// Some are still deciding.
        case waiting
        /// One of them recognized: this one fails (G8).
        case broken
    }

    /// Whether `a` waits for `b` to fail: `require(toFail:)`, the subclass overrides or either
    /// delegate (G8, G10).
    private func waits(_ a: GestureRecognizer, for b: GestureRecognizer) -> Bool {
        if a === b { return false }
        if a.requiredToFail.contains(where: { $0 === b }) { return true }
        if a.shouldRequireFailure(of: b) || b.shouldBeRequiredToFail(by: a) { return true }
        if a.delegate?.gestureRecognizer(a, shouldRequireFailureOf: b) == true { return true }
        return b.delegate?.gestureRecognizer(b, shouldBeRequiredToFailBy: a) == true
    }

    private func requirements(of r: GestureRecognizer) -> Requirements {
        var candidates = r.requiredToFail
        for other in engaged where !candidates.contains(where: { $0 === other }) {
            candidates.append(other)
        }
        var waiting = false
        for other in candidates where other !== r && waits(r, for: other) {
            if other.state.isRecognized { return .broken }
            guard other.state == .possible, other.isEngaged else { continue }
            // Two recognizers waiting for each other (directly or around a cycle) would wait
            // forever: the one asked first goes ahead.
            if other.isPending, waitsTransitively(other, for: r) { continue }
            waiting = true
        }
        return waiting ? .waiting : .met
    }

    private func waitsTransitively(_ a: GestureRecognizer, for target: GestureRecognizer) -> Bool {
        var seen: [GestureRecognizer] = []
        var stack = [a]
        while let current = stack.popLast() {
            if seen.contains(where: { $0 === current }) { continue }
            seen.append(current)
            for other in engaged + current.requiredToFail where waits(current, for: other) {
                if other === target { return true }
                if other.isPending { stack.append(other) }
            }
        }
        return false
    }

    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) == true
            || b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) == true
    }

    /// G9: whether `a` recognizing makes `b` fail.
    private func prevents(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.canPrevent(b) && b.canBePrevented(by: a) && !simultaneous(a, b)
    }

    private func shareTouches(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.trackedTouches.contains { t in b.trackedTouches.contains { $0 === t } }
    }

    /// A subclass asked to leave `possible` for `state` (began or recognized).
    func recognizerWantsToRecognize(_ r: GestureRecognizer, as state: GestureRecognizer.State) {
        perform {
            switch requirements(of: r) {
            case .broken: r.finish(.failed)
            case .waiting: r.pendingStates = [state]
            case .met: begin(r, with: [state])
            }
        }
    }

    /// Leaves `possible` for good: asks the view and delegate (G10), checks that no recognized
    /// gesture excludes this one (G9), then applies the states in order.
    private func begin(_ r: GestureRecognizer, with states: [GestureRecognizer.State]) {
        guard r.shouldBegin() else {
            r.finish(.failed)
            return
        }
        if engaged.contains(where: { $0 !== r && $0.state.isRecognized && shareTouches($0, r)
                                     && prevents($0, r) }) {
            r.finish(.failed)
            return
        }
        for state in states {
            guard !r.state.isFinished else { break }
            r.apply(state)
        }
    }

    /// What follows from `r` moving from `previous` to `next`, before its actions go out.
    func applyEffects(of r: GestureRecognizer, from previous: GestureRecognizer.State,
                      to next: GestureRecognizer.State) {
        guard previous == .possible, next.isRecognized else { return }
        for other in engaged where other !== r && other.state == .possible {
            // G9: recognizing excludes the others on the same touches; G8: those waiting for
            // this one to fail never will.
            if (shareTouches(r, other) && prevents(r, other)) || waits(other, for: r) {
                other.finish(.failed)
            }
        }
        if r.cancelsTouchesInView {
            delivery.cancel(r.trackedTouches, in: eventForDelivery())
        } else if r.delaysTouchesBegan {
            delivery.discardUnstarted(r.trackedTouches, in: eventForDelivery())
        }
    }

    /// Disabling or removing `r` (G16): a gesture under way is cancelled, one still deciding
    /// fails, and the recognizer lets go of its touches.
    func detach(_ r: GestureRecognizer) {
        perform {
            if r.isEngaged { r.finish(.cancelled) }
            for touch in r.trackedTouches {
                touch.gestureRecognizers.removeAll { $0 === r }
            }
            r.trackedTouches = []
        }
    }

    // MARK: Settling

    /// Runs until nothing changes: held transitions whose requirements are met go ahead (or fail),
    /// recognizers that can no longer decide fail, finished ones reset and let go of their touches
    /// (G3). Then the views get what is no longer held.
    private func settle() {
        // Transitions made here run their effects and actions at once; the loop settles them.
        depth += 1
        var changed = true
        var rounds = 0
        while changed, rounds < 1_000 {
            changed = false
            rounds += 1
            for r in engaged where r.isPending {
                switch requirements(of: r) {
                case .waiting:
                    continue
                case .broken:
                    r.finish(.failed)
                case .met:
                    let states = r.pendingStates
                    r.pendingStates = []
                    begin(r, with: states)
                }
                changed = true
            }
            for r in engaged where !r.state.isFinished && !r.isPending && !r.hasActiveTouches
                && !r.hasPendingTimers && !r.trackedTouches.isEmpty {
                // The sequence is over for it and no timer will wake it: it cannot decide any
                // more (a well-behaved subclass has already ended or failed by now).
                r.finish(r.state == .possible ? .failed : .cancelled)
                changed = true
            }
            for r in engaged where r.state.isFinished {
                // G3: over for it at the end of the event that finished it, fingers still down
                // or not; those touches no longer reach it.
                engaged.removeAll { $0 === r }
                for touch in r.trackedTouches {
                    touch.gestureRecognizers.removeAll { $0 === r }
                }
                r.performReset()
                changed = true
            }
        }
        assert(rounds < 1_000, "gesture recognizers did not settle")
        depth -= 1
        // Views may change recognizers from their touch methods: that settles again, nested.
        delivery.flush(isHeld: isHeld)
    }

    /// Whether the view's `phase` of `touch` must wait: a recognizer still deciding about the
    /// touch delays touchesBegan (and the moves after it) or touchesEnded (G6, G7).
    private func isHeld(_ touch: Touch, _ phase: Touch.Phase) -> Bool {
        let deciding = touch.gestureRecognizers.filter { r in
            r.state == .possible && r.isEnabled && r.trackedTouches.contains { $0 === touch }
        }
        switch phase {
        case .began, .moved: return deciding.contains { $0.delaysTouchesBegan }
        case .ended: return deciding.contains { $0.delaysTouchesEnded || $0.delaysTouchesBegan }
        case .stationary, .cancelled: return false
        }
    }
}
