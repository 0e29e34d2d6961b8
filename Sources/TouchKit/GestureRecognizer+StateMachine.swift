// The recognizer's state machine (G1, G3, G8): a subclass's state requests checked against the
// legal transitions, held back while failure requirements are undecided, applied with their
// effects and actions, and reset at the end of the event that finished it.
extension GestureRecognizer {
    /// The recognizer's state. Subclasses set it from their touch methods and timers; the move
    /// must be one of ``State/legalTransitions`` (anything else is a programmer error, caught by
    /// an assertion in debug builds and ignored in release builds). Everyone else only reads it.
    public var state: State {
        get { _state }
        set { request(newValue) }
    }

    private func request(_ next: State) {
        if _state.isFinished {
            if finishedBySystem { return }
            illegal(next)
            return
        }
        if !pendingStates.isEmpty {
            requestWhilePending(next)
            return
        }
        guard _state.canTransition(to: next) else {
            illegal(next)
            return
        }
        if _state == .possible, next != .failed {
            if let environment {
                environment.recognizerWantsToRecognize(self, as: next)
            } else {
                apply(shouldBegin() ? next : .failed)
            }
        } else {
            apply(next)
        }
    }

    /// While waiting for failure requirements the subclass keeps reporting; its reports queue up
    /// behind the held transition (consecutive changes fold into one).
    private func requestWhilePending(_ next: State) {
        let last = pendingStates[pendingStates.count - 1]
        switch next {
        case .failed, .cancelled:
            // A gesture nobody saw begin cannot be cancelled: it simply did not happen.
            pendingStates = []
            apply(.failed)
        case .changed where last == .changed:
            break
        default:
            guard last.canTransition(to: next) else {
                illegal(next)
                return
            }
            pendingStates.append(next)
        }
    }

    private func illegal(_ next: State) {
        assertionFailure("\(self): illegal state transition \(_state) -> \(next); "
                         + "legal from \(_state): \(State.legalTransitions[_state, default: []])")
    }

    /// Sets the state and runs what follows from it: arbitration effects, then actions (G2).
    func apply(_ next: State) {
        let previous = _state
        _state = next
        stateObserver?(previous, next)
        if next.isFinished { cancelTimers() }
        guard let environment else {
            if next.sendsActions { sendActions(event: nil) }
            // Not attached to a window's touches: there is no sequence to wait for.
            if next.isFinished { performReset() }
            return
        }
        environment.perform {
            environment.applyEffects(of: self, from: previous, to: next)
            if next.sendsActions { sendActions(event: environment.currentEvent) }
        }
    }

    /// Ends recognition on TouchKit's behalf: cancelled if the gesture began, failed otherwise.
    func finish(_ requested: State) {
        guard !_state.isFinished else { return }
        pendingStates = []
        finishedBySystem = true
        let began = _state == .began || _state == .changed
        apply(began ? (requested == .failed ? .cancelled : requested) : .failed)
    }

    /// Whether the views its touches are in, its own view and the delegate let the recognizer
    /// begin (G10): a touched view may veto a recognizer of an enclosing view, as a control keeps
    /// its own tap (C4).
    func shouldBegin() -> Bool {
        var asked: [View] = []
        for touch in trackedTouches {
            guard let touched = touch.view, touched !== view, !asked.contains(where: { $0 === touched }) else { continue }
            asked.append(touched)
            if !touched.gestureRecognizerShouldBegin(self) { return false }
        }
        if let view, !view.gestureRecognizerShouldBegin(self) { return false }
        return delegate?.gestureRecognizerShouldBegin(self) ?? true
    }

    /// Back to `possible` at the end of the event that finished the gesture (G3).
    func performReset() {
        cancelTimers()
        pendingStates = []
        finishedBySystem = false
        trackedTouches = []
        let previous = _state
        _state = .possible
        stateObserver?(previous, .possible)
        reset()
    }

    /// Whether a transition is held back by failure requirements.
    var isPending: Bool { !pendingStates.isEmpty }

    /// The state as the subclass last set it, held transitions included: what the built-in
    /// recognizers decide on, so that a pan waiting for another recognizer to fail keeps
    /// reporting changes instead of starting over.
    var effectiveState: State { pendingStates.last ?? _state }

    /// Whether the recognizer takes part in the current touch sequence.
    var isEngaged: Bool { !trackedTouches.isEmpty || isPending }

    /// Whether touch methods should still be called: enabled, not finished, and not holding a
    /// final transition (a recognized tap waiting for a double tap to fail has nothing to add).
    var receivesTouches: Bool {
        let current = effectiveState
        return isEnabled && (current == .possible || current == .began || current == .changed)
    }
}
