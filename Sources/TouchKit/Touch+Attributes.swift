// What a device tells of a contact besides where it is (T13): a pen's tilt, a finger's size, a
// pen's height while it hovers. The host reports them through TouchInput.report(_:_:); a touch
// shows them with UIKit's names and conventions, and defaults where nothing was reported.
#if canImport(Glibc)
import Glibc
#endif

extension Touch {
    /// What a device reported about a contact besides its place; nil: not reported.
    public struct Attributes: Equatable, Sendable {
        /// The pen's angle to the surface in radians: pi/2 upright, towards 0 as it lies down.
        public var altitudeAngle: Double?
        /// Where the pen's cap points along the surface, in radians from the window's +x axis
        /// towards its +y axis (down the screen).
        public var azimuthAngle: Double?
        /// Half the length of the contact's major axis, in window points (`wl_touch.shape`).
        public var majorRadius: Double?
        /// The pen's height above the surface while it hovers, 0 (touching) to 1 (out of range).
        public var zOffset: Double?

        public init(altitudeAngle: Double? = nil, azimuthAngle: Double? = nil, majorRadius: Double? = nil,
                    zOffset: Double? = nil) {
            self.altitudeAngle = altitudeAngle
            self.azimuthAngle = azimuthAngle
            self.majorRadius = majorRadius
            self.zOffset = zOffset
        }

        /// A pen's tilt as tablets report it (`zwp_tablet_tool_v2.tilt`): the angles in degrees
        /// between the pen and the surface's normal, towards +x and towards +y (its top leaning
        /// that way). Upright is altitude pi/2 and, with no direction to lean, azimuth 0.
        public static func tilt(xDegrees: Double, yDegrees: Double) -> Attributes {
            let clamp = { (d: Double) in min(max(d, -89.99), 89.99) * .pi / 180 }
            // The pen's axis as a vector from its tip: (tan x, tan y) along the surface per unit up.
            let dx = tan(clamp(xDegrees)), dy = tan(clamp(yDegrees))
            let lean = (dx * dx + dy * dy).squareRoot()
            return Attributes(altitudeAngle: atan2(1, lean), azimuthAngle: lean == 0 ? 0 : atan2(dy, dx))
        }

        /// `newer`'s values where it has them, these elsewhere.
        public func merging(_ newer: Attributes) -> Attributes {
            Attributes(altitudeAngle: newer.altitudeAngle ?? altitudeAngle,
                       azimuthAngle: newer.azimuthAngle ?? azimuthAngle,
                       majorRadius: newer.majorRadius ?? majorRadius,
                       zOffset: newer.zOffset ?? zOffset)
        }
    }

    /// A finger's radius when the compositor reports no contact shape: a fingertip's, known only
    /// to within ``majorRadiusTolerance``.
    public static let defaultFingerRadius: Double = 10

    /// The pen's angle to the surface in radians: pi/2 when upright, smaller as it tilts; pi/2 for
    /// fingers, pointers and pens whose tablet reports no tilt (T13).
    public var altitudeAngle: Double { attributes.altitudeAngle ?? .pi / 2 }

    /// Where the pen's cap points, in radians from `view`'s +x axis towards its +y axis (nil: the
    /// window's); 0 for fingers, pointers and pens that report no tilt or stand upright (T13).
    public func azimuthAngle(in view: View?) -> Double {
        let v = azimuthUnitVector(in: view)
        return atan2(v.dy, v.dx)
    }

    /// The direction of ``azimuthAngle(in:)`` as a unit vector in `view`'s coordinates (T13).
    public func azimuthUnitVector(in view: View?) -> Vector {
        let angle = attributes.azimuthAngle ?? 0
        let direction = Vector(dx: cos(angle), dy: sin(angle))
        guard let view else { return direction }
        // Through the view's coordinates, so that a rotated view turns the direction with it.
        let a = view.convert(windowLocation, from: nil)
        let b = view.convert(Point(x: windowLocation.x + direction.dx, y: windowLocation.y + direction.dy), from: nil)
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 0 ? Vector(dx: dx / length, dy: dy / length) : direction
    }

    /// The contact's radius along its major axis, in points: from `wl_touch.shape` where the
    /// compositor reports it; else ``defaultFingerRadius`` for a finger and 0 for a pen or a
    /// pointer (T13).
    public var majorRadius: Double {
        if let reported = attributes.majorRadius { return reported }
        return type == .direct ? Touch.defaultFingerRadius : 0
    }

    /// How far ``majorRadius`` may be off, in points: 0 for a reported shape and for pens and
    /// pointers, ``defaultFingerRadius`` for a finger whose size nobody reported (T13).
    public var majorRadiusTolerance: Double {
        attributes.majorRadius == nil && type == .direct ? Touch.defaultFingerRadius : 0
    }

    /// The properties of a touch whose values can arrive late (UIKit's `UITouch.Properties`).
    public struct Properties: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let force = Properties(rawValue: 1 << 0)
        public static let azimuth = Properties(rawValue: 1 << 1)
        public static let altitude = Properties(rawValue: 1 << 2)
        public static let location = Properties(rawValue: 1 << 3)
    }

    /// The properties whose values are estimates: none. Wayland's touch and tablet protocols
    /// deliver each value measured, within the frame it belongs to, and never revise one (T13).
    public var estimatedProperties: Properties { [] }

    /// The properties whose estimates will be revised: none (see ``estimatedProperties``).
    public var estimatedPropertiesExpectingUpdates: Properties { [] }

    /// The number that would match a revision to its touch: nil, as no touch expects one (T13).
    public var estimationUpdateIndex: Int? { nil }
}
