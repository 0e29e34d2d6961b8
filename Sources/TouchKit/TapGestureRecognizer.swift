/// Recognizes one or more taps with a number of fingers (G11): discrete, so targets get one
/// action, in the recognized state.
///
/// Each tap is every required finger down and up again without moving more than 10 pt; the
/// next tap must begin within ``Touch/multiTapInterval`` of the previous tap's end and within
/// ``Touch/multiTapDistance`` of it, or the recognizer fails. ``location(in:)`` is the centroid
/// of the last tap's touches.
open class TapGestureRecognizer: GestureRecognizer {
    /// How many taps make the gesture. Default: 1.
    public var numberOfTapsRequired = 1
    /// How many fingers each tap needs. Default: 1.
    public var numberOfTouchesRequired = 1

    /// How far (in points) a finger may move during a tap.
    static let allowableMovement: Double = 10

    private var tapsCompleted = 0
    /// The touches of the tap in progress, with where each began (window coordinates).
    private var currentTap: [(touch: Touch, start: Point)] = []
    /// The touches of the last completed tap.
    private var lastTap: [Touch] = []
    private var lastTapEnd = 0.0
    private var lastTapLocation = Point.zero
    private var gapTimer: TimerToken?

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        // The next tap is here: the wait for it is over.
        gapTimer?.cancel()
        gapTimer = nil
        let sorted = touches.sorted { $0.timestamp < $1.timestamp }
        if currentTap.isEmpty, tapsCompleted > 0, let first = sorted.first {
            // The next tap of a multi-tap: soon enough and close enough.
            if first.timestamp - lastTapEnd > Touch.multiTapInterval
                || first.location(in: nil).distance(to: lastTapLocation) > Touch.multiTapDistance {
                fail()
                return
            }
        }
        // A finger landing after another finger of this tap lifted is not the same tap.
        if currentTap.contains(where: { $0.touch.isFinished }) {
            fail()
            return
        }
        for touch in sorted { currentTap.append((touch, touch.location(in: nil))) }
        if currentTap.count > numberOfTouchesRequired { fail() }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        if movedTooFar() { fail() }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        if movedTooFar() {
            fail()
            return
        }
        guard currentTap.allSatisfy({ $0.touch.isFinished }) else { return }
        guard currentTap.count == numberOfTouchesRequired else {
            fail()
            return
        }
        tapsCompleted += 1
        lastTap = currentTap.map(\.touch)
        lastTapEnd = lastTap.map(\.timestamp).max() ?? event.timestamp
        lastTapLocation = centroid(of: lastTap, in: nil)
        currentTap = []
        if tapsCompleted >= numberOfTapsRequired {
            state = .recognized
        } else {
            // Too long a gap before the next tap fails the gesture (G11).
            gapTimer = scheduleTimer(after: Touch.multiTapInterval) { [unowned self] in
                guard self.currentTap.isEmpty else { return }
                self.fail()
            }
        }
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        super.touchesCancelled(touches, with: event)
        fail()
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        currentTap = []
        lastTap = []
        lastTapEnd = 0
        lastTapLocation = .zero
        gapTimer = nil
    }

    /// A tap does not stop a tap that needs more taps: as in UIKit, a single tap and a double
    /// tap on one view both fire on a double tap unless one requires the other to fail (G8).
    open override func canPrevent(_ other: GestureRecognizer) -> Bool {
        if let tap = other as? TapGestureRecognizer, tap.numberOfTapsRequired > numberOfTapsRequired {
            return false
        }
        return super.canPrevent(other)
    }

    /// The centroid of the tap in progress, or of the last tap once it is complete.
    open override func location(in view: View?) -> Point {
        if currentTap.isEmpty, !lastTap.isEmpty { return centroid(of: lastTap, in: view) }
        return super.location(in: view)
    }

    private func movedTooFar() -> Bool {
        currentTap.contains {
            $0.touch.location(in: nil).distance(to: $0.start) > Self.allowableMovement
        }
    }

    private func fail() {
        if effectiveState == .possible { state = .failed }
    }
}
