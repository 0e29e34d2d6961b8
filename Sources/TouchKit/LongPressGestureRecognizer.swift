/// Recognizes fingers held still for a while (G12): continuous, so targets get began when the
/// press has lasted ``minimumPressDuration``, changed on every move after that, and ended when a
/// finger lifts.
///
/// Before it begins, moving a finger more than ``allowableMovement`` or lifting one fails it.
/// The wait is a timer on the application's clock, so it fires from the app's own event loop.
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the fingers must stay down, in seconds. Default: 0.5.
    public var minimumPressDuration: Double = 0.5
    /// How many fingers make the press. Default: 1.
    public var numberOfTouchesRequired = 1
    /// How far (in points) a finger may move before the press begins. Default: 10.
    public var allowableMovement: Double = 10

    private var starts: [ObjectIdentifier: Point] = [:]
    private var timer: TimerToken?

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        guard effectiveState == .possible else {
            // Extra fingers once the press has begun are not part of it.
            for touch in touches { ignore(touch, for: event) }
            return
        }
        for touch in touches { starts[ObjectIdentifier(touch)] = touch.location(in: nil) }
        let count = activeTouchCount
        if count > numberOfTouchesRequired {
            state = .failed
        } else if count == numberOfTouchesRequired {
            // The press is timed from the moment the last required finger lands.
            timer?.cancel()
            timer = scheduleTimer(after: minimumPressDuration) { [unowned self] in
                guard self.effectiveState == .possible,
                      self.activeTouchCount == self.numberOfTouchesRequired else { return }
                self.state = .began
            }
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        if effectiveState == .possible {
            let strayed = touches.contains { touch in
                guard let start = starts[ObjectIdentifier(touch)] else { return false }
                return touch.location(in: nil).distance(to: start) > allowableMovement
            }
            if strayed { state = .failed }
        } else if effectiveState == .began || effectiveState == .changed {
            state = .changed
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        if effectiveState == .possible {
            state = .failed
        } else if effectiveState == .began || effectiveState == .changed {
            state = .ended
        }
    }

    // A system cancel needs no override: the base class cancels a gesture that began and fails
    // one that did not (T9).

    open override func reset() {
        super.reset()
        starts = [:]
        timer = nil
    }
}
