// wl_pointer's scrolling, gathered a frame at a time: a wheel notch or a touchpad's move comes as
// axis_source, axis (one per axis) and axis_stop events that wl_pointer.frame closes, and TouchKit
// gets one scroll for the frame (S9).
import TouchKit
import Wayland

struct PointerScrollFrame: Equatable {
    var source: WlPointer.AxisSource?
    var delta = Point.zero
    var stopped = false
    /// The time of the frame's latest axis or axis_stop, in the compositor's milliseconds.
    var time: UInt32?

    /// Adds an axis event; false for any other event.
    mutating func add(_ event: WlPointer.Event) -> Bool {
        switch event {
        case .axisSource(let s): source = s
        case let .axis(t, axis, value):
            time = t
            if axis == .horizontalScroll { delta.x += value } else if axis == .verticalScroll { delta.y += value }
        case let .axisStop(t, _):
            time = t
            stopped = true
        case .axisDiscrete, .axisValue120:
            // The notches' count: `axis` carries the same scroll in points, which is what moves content.
            break
        default:
            return false
        }
        return true
    }

    /// What the frame tells TouchKit: a scroll (by fingers on a touchpad, else as a wheel's),
    /// then, when the fingers lifted, the end of the touchpad's scroll.
    func calls(at location: Point, seconds: (UInt32) -> Double) -> [InputEvent] {
        guard let time else { return [] }
        let at = seconds(time)
        var calls: [InputEvent] = []
        if delta != .zero {
            calls.append(.scroll(delta, at: location, time: at, source: source == .finger ? .touchpad : .wheel))
        }
        if stopped, source == .finger || source == nil { calls.append(.scrollEnded(time: at)) }
        return calls
    }
}
