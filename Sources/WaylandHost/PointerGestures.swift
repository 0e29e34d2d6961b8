// zwp_pointer_gestures_v1 -> TouchKit: a touchpad's pinch over the window zooms the scroll view
// under the pointer (S13). Swipes and holds are not asked for: nothing in the app answers them.
import TouchKit
import Wayland

/// A touchpad's pinch as the seat follows it: whether one began over the window, so that its
/// updates and end reach TouchKit and those of a pinch begun elsewhere do not.
struct PointerPinch: Equatable {
    private(set) var isActive = false

    /// What `event` tells TouchKit, with the pointer at `location` and `onWindow` when the pinch
    /// begins over the app's window (not its popup, not another surface).
    mutating func calls(for event: ZwpPointerGesturePinchV1.Event, at location: Point, onWindow: Bool,
                        seconds: (UInt32) -> Double) -> [InputEvent] {
        switch event {
        case let .begin(_, time, _, _):
            // A begin without an end before it: the compositor's old pinch is over.
            let ended: [InputEvent] = isActive ? [.pinchEnded(time: seconds(time), cancelled: true)] : []
            isActive = onWindow
            return ended + (onWindow ? [.pinchBegan(at: location, time: seconds(time))] : [])
        case let .update(time, dx, dy, scale, _):
            guard isActive else { return [] }
            return [.pinchChanged(scale: scale, translation: Point(x: dx, y: dy), time: seconds(time))]
        case let .end(_, time, cancelled):
            guard isActive else { return [] }
            isActive = false
            return [.pinchEnded(time: seconds(time), cancelled: cancelled != 0)]
        }
    }

    /// The pointer went away mid-pinch: its end, cancelled.
    mutating func cancel(at time: Double) -> [InputEvent] {
        guard isActive else { return [] }
        isActive = false
        return [.pinchEnded(time: time, cancelled: true)]
    }
}

extension Seat {
    /// Takes the compositor's pointer gestures: the pinch, once this seat has a pointer.
    func bindPointerGestures(_ manager: ZwpPointerGesturesV1) {
        pointerGestures = manager
        bindPinch()
    }

    func bindPinch() {
        guard pinchGesture == nil, let pointer, let pointerGestures else { return }
        let gesture = pointerGestures.getPinchGesture(pointer: pointer)
        gesture.onEvent = { [unowned self] event in self.handlePinch(event) }
        pinchGesture = gesture
    }

    /// The pointer went away: a pinch under way ends, cancelled, and its object goes.
    func endPinch() {
        for call in pinch.cancel(at: input.application.clock.now) { input.apply(call) }
        pinchGesture = nil
    }

    private func handlePinch(_ event: ZwpPointerGesturePinchV1.Event) {
        switch event {
        case .begin(let serial, let time, _, _):
            lastSerial = serial
            inputArrived(time: time)
        case .update(let time, _, _, _, _), .end(_, let time, _):
            inputArrived(time: time)
        }
        var onWindow = pointerInside && !pointerOnPopup
        if case .begin(_, _, let surface, _) = event { onWindow = onWindow && isWindowSurface(surface) }
        for call in pinch.calls(for: event, at: pointerLocation, onWindow: onWindow, seconds: { self.timeline.seconds($0) }) {
            input.apply(call)
        }
    }
}
