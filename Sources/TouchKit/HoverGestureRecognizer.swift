#if canImport(Glibc)
import Glibc
#endif

/// Recognizes a pointer or a pen in proximity hovering over its view (G20): began when it
/// enters the view, changed as it moves over it, ended when it leaves the view, lifts out of
/// range, or presses (a press is a touch, not a hover).
///
/// It takes no touches: the host reports hovering through ``TouchInput/hover(_:at:time:)`` and
/// ``TouchInput/hoverEnded(_:time:)``, and the recognizers of the view under the pointer and of
/// its ancestors follow it, so a hover never disturbs touch delivery. A recognizer follows one
/// hovering device at a time, the first to enter.
open class HoverGestureRecognizer: GestureRecognizer {
    /// The device followed and where it is, in window points.
    private var hovering: (id: TouchInput.ID, location: Point)?
    /// What the hovering device reported besides its place (T13).
    private var attributes = Touch.Attributes()

    /// How high the hovering pen is: 0 just above the surface to 1 at the edge of its range, as
    /// its tablet reports the distance; 0 for a pointer, a pen whose tablet reports none, and
    /// when nothing hovers (G20).
    public var zOffset: Double { hovering == nil ? 0 : min(max(attributes.zOffset ?? 0, 0), 1) }

    /// The hovering pen's angle to the surface, as ``Touch/altitudeAngle``: pi/2 when upright,
    /// for a pointer, or a pen that reports no tilt.
    public var altitudeAngle: Double { hovering == nil ? .pi / 2 : attributes.altitudeAngle ?? .pi / 2 }

    /// Where the hovering pen's cap points in `view`'s coordinates, as ``Touch/azimuthAngle(in:)``.
    public func azimuthAngle(in view: View?) -> Double {
        let v = azimuthUnitVector(in: view)
        return atan2(v.dy, v.dx)
    }

    /// ``azimuthAngle(in:)`` as a unit vector in `view`'s coordinates.
    public func azimuthUnitVector(in view: View?) -> Vector {
        let angle = hovering == nil ? 0 : attributes.azimuthAngle ?? 0
        let direction = Vector(dx: cos(angle), dy: sin(angle))
        guard let view, let at = hovering?.location else { return direction }
        let a = view.convert(at, from: nil)
        let b = view.convert(Point(x: at.x + direction.dx, y: at.y + direction.dy), from: nil)
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        return length > 0 ? Vector(dx: (b.x - a.x) / length, dy: (b.y - a.y) / length) : direction
    }

    /// Creates a hover recognizer: it takes no touches at all.
    public required init() {
        super.init()
        allowedTouchTypes = []
    }

    /// Disabling it while hovering cancels the hover (G16).
    open override var isEnabled: Bool {
        didSet {
            if !isEnabled, hovering != nil { finishHover(.cancelled) }
        }
    }

    /// Removing it from its view while hovering cancels the hover, as for a touch gesture (G16).
    public internal(set) override var view: View? {
        didSet {
            if view == nil, hovering != nil { finishHover(.cancelled) }
        }
    }

    /// Where the hovering device is, in `view`'s coordinates (nil: the window's); zero when
    /// nothing hovers.
    open override func location(in view: View?) -> Point {
        guard let hovering else { return .zero }
        return view?.convert(hovering.location, from: nil) ?? hovering.location
    }

    /// One hovering device at most.
    public override var numberOfTouches: Int { hovering == nil ? 0 : 1 }

    /// The hovering device's location; `index` must be 0 while it hovers.
    open override func location(ofTouch index: Int, in view: View?) -> Point {
        precondition(index == 0 && hovering != nil, "hover index \(index) out of range")
        return location(in: view)
    }

    /// `id` is over the recognizer's view at `location` (window points).
    func hoverMoved(_ id: TouchInput.ID, to location: Point, attributes: Touch.Attributes) {
        guard isEnabled else { return }
        if let hovering, hovering.id != id { return }
        let entering = hovering == nil
        hovering = (id, location)
        self.attributes = attributes
        if entering {
            state = .began
            // A delegate or view that vetoed it: nothing to follow.
            if state == .possible || state == .failed { hovering = nil }
        } else {
            state = .changed
        }
    }

    /// `id` left the view or went out of range.
    func hoverLeft(_ id: TouchInput.ID) {
        guard let hovering, hovering.id == id else { return }
        finishHover(.ended)
    }

    private func finishHover(_ final: State) {
        if state == .began || state == .changed { state = final }
        hovering = nil
    }

    /// Whether it follows `id` now.
    func isFollowing(_ id: TouchInput.ID) -> Bool { hovering?.id == id }
}
