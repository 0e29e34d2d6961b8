/// One finger (or pointer button, or pen) on the window, from the moment it goes down until it is
/// lifted or cancelled (T1).
///
/// Touches are reference objects compared by identity: keep them as dictionary keys to follow
/// each finger across events. ``TouchInput`` creates them and updates them between events; their
/// properties are read-only to everyone else. After a touch ended or was cancelled it is never
/// changed again, so a reference kept afterwards is a faithful record of its end.
public final class Touch: Hashable, CustomStringConvertible {
    /// Where a touch is in its life (T3).
    public enum Phase: Hashable, Sendable, CustomStringConvertible {
        /// Went down in this event.
        case began
        /// Moved in this event.
        case moved
        /// Down, but unchanged in this event: it appears in ``Event/allTouches`` only and is not
        /// passed to touch methods.
        case stationary
        /// Lifted in this event.
        case ended
        /// Cancelled by the system in this event.
        case cancelled

        public var description: String {
            switch self {
            case .began: "began"
            case .moved: "moved"
            case .stationary: "stationary"
            case .ended: "ended"
            case .cancelled: "cancelled"
            }
        }
    }

    /// What produced the touch.
    public enum Kind: Hashable, Sendable {
        /// A finger on a touchscreen.
        case direct
        /// A mouse or touchpad button held down (an emulated touch).
        case indirectPointer
        /// A stylus on a tablet.
        case pencil
    }

    /// How many taps in a row must lie within ``multiTapInterval`` seconds (from the previous
    /// tap's end to this touch's start) for ``tapCount`` to rise (T5).
    public static let multiTapInterval: Double = 0.35
    /// How close (in window points) to the previous tap's end a touch must begin for ``tapCount``
    /// to rise; a touch that moves farther than this from where it began is not a tap (T5).
    public static let multiTapDistance: Double = 20

    /// The phase in the most recent event that included this touch.
    public internal(set) var phase: Phase
    /// When the touch last changed, in seconds from the compositor's clock (T6).
    public internal(set) var timestamp: Double
    /// 1 for a single tap, 2 for the second tap of a double tap, and so on (T5). Set when the
    /// touch begins and valid in every phase.
    public internal(set) var tapCount: Int
    /// The view the touch was delivered to: the hit-test view when it began, kept for the touch's
    /// whole life even if the finger leaves it (T7). Nil when the touch is delivered to no view
    /// (it began outside every view, or while interaction was ignored). A touch the view's
    /// `isMultipleTouchEnabled` or `isExclusiveTouch` turned away keeps it: the view's touch
    /// methods never see that touch, its recognizers do (H4, H5).
    public internal(set) var view: View? {
        get { viewLink.view }
        set { viewLink = ViewLink(newValue) }
    }
    /// The window the touch belongs to.
    public internal(set) var window: Window? {
        get { windowLink.view }
        set { windowLink = ViewLink(newValue) }
    }
    // Links, not `weak` (ViewLink.swift): read for every touch, held past the view's life.
    private var viewLink = ViewLink<View>(nil)
    private var windowLink = ViewLink<Window>(nil)
    /// The kind of device.
    public let type: Kind
    /// Pressure, where 1 is an average touch; 0 when the device reports none. A pen's runs from 0
    /// to ``maximumPossibleForce``.
    public internal(set) var force: Double
    /// The most ``force`` can be: 1 for a pen (its pressure, 0...1), 0 for a device that reports
    /// no pressure.
    public var maximumPossibleForce: Double { type == .pencil ? 1 : 0 }

    /// Location in window coordinates.
    var windowLocation: Point
    /// Location in window coordinates as of the previous event that included this touch.
    var previousWindowLocation: Point
    /// Where the touch went down, in window coordinates (for tap detection).
    let startWindowLocation: Point
    /// False for touches delivered to no view (see ``view``); set once, when the touch begins.
    var isDeliverable = true
    /// False for a touch its view may not take (H4, H5): the view's touch methods never see it,
    /// its recognizers and those of the view's ancestors do. Set once, when the touch begins.
    var deliversToView = true
    /// True from the event in which the touch ended or was cancelled on; unlike ``phase`` it
    /// never changes back (replayed deliveries show views an earlier phase for a moment).
    var isFinished = false

    /// What the device reported of the contact besides its place (T13): read through
    /// ``altitudeAngle``, ``azimuthAngle(in:)``, ``majorRadius``.
    var attributes = Attributes()

    /// The recognizers receiving this touch (T8): those of its view and the view's ancestors that
    /// accepted it when it began, minus those that have ignored it since
    /// (``GestureRecognizer/ignore(_:for:)``) or were disabled.
    public internal(set) var gestureRecognizers: [GestureRecognizer] = []

    init(phase: Phase, location: Point, timestamp: Double, tapCount: Int, window: Window?,
         type: Kind, force: Double) {
        self.phase = phase
        self.windowLocation = location
        self.previousWindowLocation = location
        self.startWindowLocation = location
        self.timestamp = timestamp
        self.tapCount = tapCount
        windowLink = ViewLink(window)
        self.type = type
        self.force = force
    }

    /// A copy with its own identity, for coalesced samples (T11).
    func snapshot(location: Point, previousLocation: Point, timestamp: Double, phase: Phase) -> Touch {
        let copy = Touch(phase: phase, location: location, timestamp: timestamp, tapCount: tapCount,
                         window: window, type: type, force: force)
        copy.previousWindowLocation = previousLocation
        copy.attributes = attributes
        copy.viewLink = viewLink
        copy.isDeliverable = isDeliverable
        copy.deliversToView = deliversToView
        return copy
    }

    /// The current location in `view`'s coordinates (origin at the top-left of its bounds), or in
    /// window coordinates when `view` is nil (T4).
    public func location(in view: View?) -> Point {
        guard let view else { return windowLocation }
        return view.convert(windowLocation, from: nil)
    }

    /// The location as precisely as the device reported it: the compositor's positions, in
    /// 1/256 pt, are already what ``location(in:)`` gives.
    public func preciseLocation(in view: View?) -> Point { location(in: view) }

    /// The location as of the previous event that included this touch, in `view`'s coordinates or
    /// window coordinates when `view` is nil (T4). Equal to the current location when the touch
    /// began.
    public func previousLocation(in view: View?) -> Point {
        guard let view else { return previousWindowLocation }
        return view.convert(previousWindowLocation, from: nil)
    }

    public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    public var description: String {
        "Touch(\(phase), \(windowLocation), tapCount: \(tapCount), t: \(timestamp))"
    }
}
