@testable import TouchKit

/// A window with a recording canvas view, driven through `TouchInput` (down, motion, up, frame)
/// and `Application.sendEvent`, with the manual clock moved to each input's time first, as the
/// event loop would be. Recognizer actions are logged as `"name.state"`.
final class GestureHarness {
    let base = Harness()
    /// Every recognizer action, in order.
    var actions: [String] = []

    var log: DeliveryLog { base.log }
    var clock: ManualClock { base.clock }
    var window: Window { base.window }
    var app: RecordingApplication { base.app }
    var input: TouchInput { base.input }

    /// Adds a recording view, multi-touch enabled so that several fingers reach it.
    @discardableResult
    func addView(_ name: String, _ frame: Rect = Rect(x: 0, y: 0, width: 400, height: 300),
                 to parent: View? = nil) -> RecordingView {
        let view = base.addView(name, frame, to: parent)
        view.isMultipleTouchEnabled = true
        return view
    }

    /// Logs `recognizer`'s actions as `"name.state"` and returns it.
    @discardableResult
    func watch<R: GestureRecognizer>(_ recognizer: R, _ name: String) -> R {
        recognizer.name = name
        recognizer.addHandler { [unowned self] r in actions.append("\(name).\(r.state)") }
        return recognizer
    }

    /// Time passes without input: due timers fire.
    func wait(until time: Double) {
        clock.advance(to: time)
    }

    func down(_ id: Int32, _ x: Double, _ y: Double, at time: Double) {
        clock.advance(to: time)
        input.down(.touch(id), at: Point(x: x, y: y), time: time)
        input.frame()
    }

    func move(_ id: Int32, _ x: Double, _ y: Double, at time: Double) {
        clock.advance(to: time)
        input.motion(.touch(id), at: Point(x: x, y: y), time: time)
        input.frame()
    }

    func up(_ id: Int32, at time: Double) {
        clock.advance(to: time)
        input.up(.touch(id), time: time)
        input.frame()
    }

    /// Several fingers changing in one frame.
    func frame(at time: Double, _ changes: (TouchInput, Double) -> Void) {
        clock.advance(to: time)
        changes(input, time)
        input.frame()
    }

    /// A tap: down, then up `duration` later.
    func tap(_ id: Int32, _ x: Double, _ y: Double, at time: Double, duration: Double = 0.05) {
        down(id, x, y, at: time)
        up(id, at: time + duration)
    }

    /// A straight drag from one point to another in `steps` moves, `interval` apart, then a lift.
    func drag(_ id: Int32, from a: Point, to b: Point, at time: Double, steps: Int = 5,
              interval: Double = 0.02, lift: Bool = true) {
        down(id, a.x, a.y, at: time)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move(id, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, at: time + Double(i) * interval)
        }
        if lift { up(id, at: time + Double(steps + 1) * interval) }
    }

    /// The canvas's deliveries as `"name.method(count)"`.
    var summary: [String] { log.summary }

    /// Whether no recognizer is engaged and no delivery is held.
    var isSettled: Bool { window.gestureEnvironment.isIdle }
}

/// A recognizer that logs the touch calls it gets, to see who sees a touch first (G4).
final class LoggingRecognizer: GestureRecognizer {
    var label = ""
    var log: DeliveryLog?
    var resets = 0

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        log?.add(label, .began, touches, event)
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        log?.add(label, .moved, touches, event)
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        log?.add(label, .ended, touches, event)
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        log?.add(label, .cancelled, touches, event)
    }

    override func reset() {
        super.reset()
        resets += 1
    }
}

/// A delegate whose answers tests set per method.
final class TestDelegate: GestureRecognizerDelegate {
    var shouldBegin: (GestureRecognizer) -> Bool = { _ in true }
    var shouldReceive: (GestureRecognizer, Touch) -> Bool = { _, _ in true }
    var simultaneous: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var requireFailure: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var requiredToFailBy: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var calls: [String] = []

    func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        calls.append("shouldBegin(\(gestureRecognizer.name ?? "?"))")
        return shouldBegin(gestureRecognizer)
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        calls.append("shouldReceive(\(gestureRecognizer.name ?? "?"))")
        return shouldReceive(gestureRecognizer, touch)
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneous(gestureRecognizer, other)
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        requireFailure(gestureRecognizer, other)
    }

    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        requiredToFailBy(gestureRecognizer, other)
    }
}

/// Every state a recognizer passes through, resets included: a gesture that fails or ends is reset
/// within the same event (G3), so its outcome shows here, not in `state` afterwards.
final class StateHistory {
    private(set) var states: [GestureRecognizer.State] = []

    init(_ recognizer: GestureRecognizer) {
        recognizer.stateObserver = { [unowned self] _, new in states.append(new) }
    }

    /// The last state other than possible: how the latest gesture ended, or where it is.
    var outcome: GestureRecognizer.State? { states.last { $0 != .possible } }
}
