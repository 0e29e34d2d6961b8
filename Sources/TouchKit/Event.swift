/// One batch of touch changes: everything that happened between two `wl_touch.frame`s (T2).
///
/// ``allTouches`` holds every touch that is down, changed or not (unchanged ones are
/// ``Touch/Phase/stationary``), plus the ones that ended or were cancelled in this event.
///
/// As in UIKit, one `Event` object carries a whole multi-touch sequence, from the first finger
/// down until every touch is gone, and its contents change from delivery to delivery (T12): copy
/// what you need from it rather than keeping the event.
public final class Event {
    /// The kinds of event (UIKit's `UIEvent.EventType`): TouchKit's events carry touches.
    public enum EventType: Hashable, Sendable {
        case touches
    }

    /// What the event carries.
    public var type: EventType { .touches }

    /// When the latest change in this event happened, in compositor seconds (T6).
    public private(set) var timestamp: Double
    /// The touches in the order they went down, for deterministic delivery.
    private(set) var orderedTouches: [Touch]
    private var coalesced: [ObjectIdentifier: [Touch]]
    /// Touches that must not reach any view in this event (while interaction is ignored).
    var suppressed: Set<ObjectIdentifier> = []
    /// How many deliveries the object has carried: what tells two frames of one sequence apart
    /// (T12).
    private(set) var deliveryNumber = 0

    init(timestamp: Double, touches: [Touch], coalesced: [ObjectIdentifier: [Touch]] = [:]) {
        self.timestamp = timestamp
        self.orderedTouches = touches
        self.coalesced = coalesced
    }

    /// Carries the next delivery of the same sequence (T12).
    func refill(timestamp: Double, touches: [Touch], coalesced: [ObjectIdentifier: [Touch]]) {
        contents = Contents(timestamp: timestamp, touches: touches, coalesced: coalesced,
                            suppressed: [], deliveryNumber: deliveryNumber + 1)
    }

    /// What one delivery carries. A delivery held for a recognizer keeps it, so that its replay
    /// shows the view the event as it was then, as it shows the touches (G6, T12).
    struct Contents {
        var timestamp: Double
        var touches: [Touch]
        var coalesced: [ObjectIdentifier: [Touch]]
        var suppressed: Set<ObjectIdentifier>
        var deliveryNumber: Int
    }

    var contents: Contents {
        get {
            Contents(timestamp: timestamp, touches: orderedTouches, coalesced: coalesced,
                     suppressed: suppressed, deliveryNumber: deliveryNumber)
        }
        set {
            timestamp = newValue.timestamp
            orderedTouches = newValue.touches
            coalesced = newValue.coalesced
            suppressed = newValue.suppressed
            deliveryNumber = newValue.deliveryNumber
        }
    }

    /// Every touch of this event, including stationary ones (T3, T8).
    public var allTouches: Set<Touch> { Set(orderedTouches) }
    /// Every touch of the event in the order the input adapter tracks them (the order they went
    /// down): for what must come out the same on every run, such as a log.
    public var allTouchesInOrder: [Touch] { orderedTouches }

    /// The touches delivered to `view` (those whose ``Touch/view`` is `view`), in any phase,
    /// stationary included. In `touchesEnded`, `touches.count == event.touches(for: self).count`
    /// means the last finger on the view lifted (T10).
    public func touches(for view: View) -> Set<Touch> {
        Set(orderedTouches.lazy.filter { $0.view === view })
    }

    /// The touches that belong to `window` (T8).
    public func touches(for window: Window) -> Set<Touch> {
        Set(orderedTouches.lazy.filter { $0.window === window })
    }

    /// The touches of this event that `gestureRecognizer` is receiving (T8): those whose
    /// ``Touch/gestureRecognizers`` contain it.
    public func touches(for gestureRecognizer: GestureRecognizer) -> Set<Touch> {
        Set(orderedTouches.lazy.filter { $0.gestureRecognizers.contains { $0 === gestureRecognizer } })
    }

    /// Every position `touch` reported since the previous event, oldest first, each as its own
    /// snapshot `Touch` with that sample's location, previous location and timestamp (T11). The
    /// last one matches `touch` itself. Empty for a touch that is not part of this event; a
    /// single snapshot for a touch that did not move (stationary, or lifted in place).
    public func coalescedTouches(for touch: Touch) -> [Touch] {
        if let samples = coalesced[ObjectIdentifier(touch)], !samples.isEmpty { return samples }
        guard orderedTouches.contains(where: { $0 === touch }) else { return [] }
        return [touch.snapshot(location: touch.windowLocation,
                               previousLocation: touch.previousWindowLocation,
                               timestamp: touch.timestamp, phase: touch.phase)]
    }

    func isSuppressed(_ touch: Touch) -> Bool {
        suppressed.contains(ObjectIdentifier(touch))
    }
}
