/// A scroll view's hold on touches that land on its content (S6): the content's views get a
/// touch's `touchesBegan` only once it is clear the touch does not drag: after
/// ``delay`` without a drag beginning, or when the finger lifts first (a tap). Without
/// ``ScrollView/delaysContentTouches`` the question is asked as the touch lands. Either way the
/// scroll view's ``ScrollView/touchesShouldBegin(_:with:in:)`` may keep the touches from the
/// content altogether.
///
/// A recognizer that holds touchesBegan (`delaysTouchesBegan`) and never recognizes a gesture of
/// its own: failing lets the held touches go to the views; "recognizing" (when the scroll view
/// says no) drops them. It neither prevents other recognizers nor is prevented by them, so the
/// drag and the content's own recognizers go on beside it.
final class ContentTouchDelay: GestureRecognizer {
    /// How long a touch on the content waits for a drag, in seconds (UIKit's is about this).
    static let delay = 0.15

    /// The touches it let through to the content that are still down. Kept past the reset
    /// that follows its failure (G3): a drag may begin later in the same touches' life.
    var releasedTouches: [Touch] {
        released.removeAll { $0.isFinished }
        return released
    }
    private var released: [Touch] = []
    private var waiting: TimerToken?

    required init() {
        super.init()
        delaysTouchesBegan = true
        cancelsTouchesInView = true
    }

    private var scrollView: ScrollView? { view as? ScrollView }

    override func canPrevent(_ other: GestureRecognizer) -> Bool { false }
    override func canBePrevented(by other: GestureRecognizer) -> Bool { false }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        guard state == .possible else { return }
        if scrollView?.delaysContentTouches == false {
            decide(event)
        } else if waiting == nil {
            waiting = scheduleTimer(after: Self.delay) { [unowned self] in self.decide(nil) }
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        // A tap: the content gets it now, began and ended together.
        decide(event)
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        super.touchesCancelled(touches, with: event)
        if state == .possible { state = .failed }
    }

    /// Lets the held touches through to the content, unless the scroll view says no for one of
    /// the views they are in; once a drag took them, nothing is left to let through.
    private func decide(_ event: Event?) {
        waiting?.cancel()
        waiting = nil
        guard state == .possible, let scrollView else { return }
        let touches = trackedTouches
        var byView: [ObjectIdentifier: (view: View, touches: Set<Touch>)] = [:]
        for touch in touches {
            guard let view = touch.view, view !== scrollView else { continue }
            byView[ObjectIdentifier(view), default: (view, [])].touches.insert(touch)
        }
        let refused = byView.values.contains { !scrollView.touchesShouldBegin($0.touches, with: event, in: $0.view) }
        if refused {
            state = .ended
        } else {
            released.removeAll { $0.isFinished }
            released += touches.filter { !$0.isFinished }
            state = .failed
        }
    }

    override func reset() {
        super.reset()
        waiting?.cancel()
        waiting = nil
    }
}
