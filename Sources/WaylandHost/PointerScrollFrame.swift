// wl_pointer's scrolling, gathered a frame at a time: a wheel notch or a touchpad's move comes as
// axis_source, axis (one per axis) and axis_stop events that wl_pointer.frame closes, and TouchKit
// gets one scroll for the frame (S9), or with Ctrl held one zoom (S14, S15).
#if canImport(Glibc)
import Glibc
#endif
import TouchKit
import Wayland

struct PointerScrollFrame: Equatable {
    var source: WlPointer.AxisSource?
    var delta = Point.zero
    var stopped = false
    /// The wheel's notches on the vertical axis (wl_pointer.axis_discrete), when it told them.
    var notches: Int32?
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
        case let .axisDiscrete(axis, discrete):
            // The notches' count: `axis` carries the same scroll in points, which is what moves
            // content; a zoom goes by notches, whatever points a compositor gives one.
            if axis == .verticalScroll { notches = (notches ?? 0) &+ discrete }
        case .axisValue120:
            // Only for wl_seat 8, which the host does not bind.
            break
        default:
            return false
        }
        return true
    }

    /// How much one notch of a wheel zooms (S14): in when the wheel turns away from the user
    /// (scrolling up), out when it turns towards them.
    static let notchZoom = 1.1
    /// The points of a scroll worth one notch, for scrolls that tell no notches (a touchpad, a
    /// wheel between notches): the 15 degrees of a wheel's click, as libinput counts them.
    static let pointsPerNotch = 15.0

    /// What the frame tells TouchKit: a scroll (by fingers on a touchpad, else as a wheel's), or
    /// when `zooms` (Ctrl is held) a zoom by the vertical axis; then, when the fingers lifted, the
    /// end of the touchpad's scroll.
    func calls(at location: Point, seconds: (UInt32) -> Double, zooms: Bool = false) -> [InputEvent] {
        guard let time else { return [] }
        let at = seconds(time)
        let source: ScrollSource = source == .finger ? .touchpad : .wheel
        var calls: [InputEvent] = []
        if zooms {
            let steps = source == .wheel ? notches.map(Double.init) ?? delta.y / Self.pointsPerNotch : delta.y / Self.pointsPerNotch
            if steps != 0 { calls.append(.zoom(pow(Self.notchZoom, -steps), at: location, time: at, source: source)) }
        } else if delta != .zero {
            calls.append(.scroll(delta, at: location, time: at, source: source))
        }
        if stopped, self.source == .finger || self.source == nil { calls.append(.scrollEnded(time: at)) }
        return calls
    }
}
