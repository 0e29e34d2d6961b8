// The input adapter's public face: the ids, the calls a host makes, and the recording of them.
// A touch's bookkeeping is in TouchInput+Track.swift, the events it becomes in
// TouchInput+Events.swift.

/// Turns low-level input (shaped like `wl_touch`, but free of Wayland) into ``Touch`` objects and
/// ``Event``s for one window.
///
/// The host forwards each `wl_touch.down`, `motion`, `up`, `frame` and `cancel` here, with
/// positions already in window points and times in seconds. Pointer buttons and tablet tools can
/// be fed the same way under their own ``Source``.
///
/// Changes are held until ``frame()`` and then go out as one event through
/// ``Application/sendEvent(_:)`` (T2). Robustness rules, so that a confused or quirky compositor
/// never produces nonsense:
/// - `motion` and `up` for an unknown id are ignored; so is `motion` after a pending `up`.
/// - A `down` for an id that is still down is taken as `up` followed by a new `down`: the old
///   touch ends in its own event and a new touch (T1) begins in the next.
/// - A `down` for an id whose `up` is still pending first flushes the pending frame, so the old
///   and new touch never merge (Weston 10 omits the `frame` after the last `up`).
/// - A touch that goes down and up within one frame gets two events: `began`, then `ended`.
/// - An empty `frame()` delivers nothing.
/// - ``cancel()`` acts at once: touches already delivered get `cancelled` (pending motion folded
///   into their final location); touches whose `down` was never delivered are dropped silently,
///   since no view knows them.
///
/// Between ``beginBatch()`` and ``endBatch()`` (the host brackets each turn of reading the socket),
/// frames that only move touches already delivered are held and go out as one event when the batch
/// ends or with the next frame that begins or ends a touch, as UIKit delivers one event per display
/// frame: every sample stays in `coalescedTouches(for:)` (T11), and a burst of frames costs the views
/// one call, not one per frame. Began and ended are never held back.
public final class TouchInput {
    /// Where an input id comes from; ids of different sources never collide.
    public enum Source: Hashable, Sendable {
        /// `wl_touch` ids.
        case touchscreen
        /// An emulated touch from a pointer button.
        case pointer
        /// A tablet tool.
        case tablet
    }

    /// An input id: the compositor's id number within a source.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public var source: Source
        public var number: Int32

        public init(source: Source, number: Int32) {
            self.source = source
            self.number = number
        }

        /// A touchscreen id (`wl_touch`'s `id` argument).
        public static func touch(_ number: Int32) -> ID { ID(source: .touchscreen, number: number) }

        public var description: String { "\(source)#\(number)" }
    }

    public let application: Application
    public let window: Window
    // Shared with the event building (TouchInput+Events.swift), hence not private.
    /// Each touch from its `down` until its end is delivered, in the order they went down.
    var tracks: [Track] = []
    var lastTaps: [Source: TapRecord] = [:]
    var lastChangeWasUp = false
    var latestTime: Double = 0
    /// A motion-only frame is held for the batch's end (each track knows how many of its samples).
    var holdsFrame = false
    /// Inside a batch: motion-only frames wait for its end.
    private var isBatching = false
    /// The event of the touch sequence under way, reused for each of its deliveries (T12).
    var sequenceEvent: Event?
    /// True while an event is being delivered.
    var isSending = false
    /// What each device last reported besides its place (T13), merged over its reports.
    var deviceAttributes: [ID: Touch.Attributes] = [:]
    /// Predicted touches (``Event/predictedTouches(for:)``): on, and when frames are shown.
    public let prediction = TouchPrediction()
    /// The hover recognizers each hovering device is over (TouchInput+Hover.swift).
    var hovers: [ID: [WeakHover]] = [:]
    /// The scroll view a touchpad's scroll goes to until its fingers lift (TouchInput+Scroll.swift).
    var scrollTarget: ScrollView? {
        get { scrollTargetLink.view }
        set { scrollTargetLink = ViewLink(newValue) }
    }
    private var scrollTargetLink = ViewLink<ScrollView>(nil)
    /// A touchpad's pinch, or its scroll with Ctrl held, zooming a scroll view until its fingers
    /// lift (TouchInput+Zoom.swift).
    var pointerZoom: PointerZoom?

    /// Told of every call made into the adapter from outside, before it acts (`--record`). Calls
    /// the adapter makes to itself, and those a view makes while an event is delivered, are not
    /// told: a replay makes them again by itself.
    public var recorder: ((InputEvent) -> Void)?
    private var depth = 0

    /// Runs `body`, the work of the outside call `event`, telling the recorder first.
    func recording(_ event: @autoclosure () -> InputEvent, _ body: () -> Void) {
        if depth == 0, let recorder { recorder(event()) }
        depth += 1
        defer { depth -= 1 }
        body()
    }

    /// Creates the adapter for `window`, adding the window to `application` if needed.
    public init(application: Application, window: Window) {
        self.application = application
        self.window = window
        if window.application !== application { application.addWindow(window) }
    }

    // MARK: State

    /// Whether changes are waiting for ``frame()``.
    public var hasPendingChanges: Bool { tracks.contains { $0.hasPendingChanges } }

    /// Whether changes are pending and the last of them was an `up`. Weston 10 sends no
    /// `wl_touch.frame` after the last finger's `up`; when a batch of socket reads ends in this
    /// state, the host calls ``frame()`` itself.
    public var pendingChangesEndWithUp: Bool { lastChangeWasUp && hasPendingChanges }

    /// The touch currently tracked for `id` (down and not yet ended or cancelled), if any.
    public func touch(for id: ID) -> Touch? {
        tracks.first { $0.id == id }?.touch
    }

    /// Every touch currently down, in the order they went down.
    public var activeTouches: [Touch] { tracks.map(\.touch) }

    // MARK: Input

    /// A finger (button, pen) went down at `location` (window points) at `time` (seconds).
    /// - Parameter force: pressure where 1 is average; 0 when the device reports none.
    public func down(_ id: ID, at location: Point, time: Double, kind: Touch.Kind = .direct,
                     force: Double = 0) {
        recording(.down(id, location, time: time, kind: kind, force: force)) {
            deliverHeldFrames()
            if let existing = tracks.first(where: { $0.id == id }) {
                if !existing.isLifted { up(id, time: time) }
                frame()
            }
            // A re-entrant call from a view during that frame may have started this id again.
            if let again = tracks.first(where: { $0.id == id }) {
                again.lift()
                frame()
            }
            noteTime(time)
            // A finger's size is its own (`wl_touch.shape` follows its down); a pen keeps what it
            // reported while it came near.
            if id.source != .tablet { deviceAttributes[id] = nil }
            let touch = Touch(phase: .began, location: location, timestamp: time,
                              tapCount: tapCount(source: id.source, at: location, time: time),
                              window: window, type: kind, force: force)
            tracks.append(Track(id: id, touch: touch, location: location, time: time))
            lastChangeWasUp = false
        }
    }

    /// Device `id` reported what it knows of its contact besides its place: a pen's tilt, a
    /// finger's size, a hovering pen's height (T13). Values given replace earlier ones, the others
    /// stay; its touch shows them from the next event on, its hover at once (G20). A finger's
    /// values last until its next `down`.
    public func report(_ id: ID, _ attributes: Touch.Attributes) {
        recording(.attributes(id, attributes)) {
            deviceAttributes[id] = (deviceAttributes[id] ?? Touch.Attributes()).merging(attributes)
        }
    }

    /// A finger moved to `location` (window points) at `time`. Unknown ids are ignored.
    /// - Parameter force: the new pressure, or nil to keep the previous one.
    public func motion(_ id: ID, at location: Point, time: Double, force: Double? = nil) {
        recording(.motion(id, location, time: time, force: force)) {
            guard let track = tracks.first(where: { $0.id == id }), !track.isLifted else { return }
            noteTime(time)
            track.location = location
            track.time = time
            if let force { track.force = force }
            track.samples.append((location, time))
            // Even before its began is delivered: that one goes out where the finger landed and
            // this motion follows as a move (mutter frames a down with the motion that follows it).
            track.move()
            lastChangeWasUp = false
        }
    }

    /// A finger was lifted at `time`. Unknown ids and repeated ups are ignored.
    public func up(_ id: ID, time: Double) {
        recording(.up(id, time: time)) {
            guard let track = tracks.first(where: { $0.id == id }), !track.isLifted else { return }
            deliverHeldFrames()
            noteTime(time)
            track.time = time
            track.lift()
            lastChangeWasUp = true
        }
    }

    /// Ends a batch of changes: delivers them as one event (T2), or as two when a touch went down
    /// and up within the batch. Does nothing when nothing changed. Inside a batch
    /// (``beginBatch()``), a frame that only moves delivered touches is held until the batch ends.
    public func frame() {
        recording(.frame) {
            if isBatching, tracks.allSatisfy(\.isDeliveredAndDown) {
                for track in tracks { track.heldSamples = track.state == .moved ? track.samples.count : 0 }
                holdsFrame = tracks.contains { $0.state == .moved }
                lastChangeWasUp = false
                return
            }
            deliverPending()
        }
    }

    /// Starts holding motion-only frames (the host: before it dispatches a turn's events).
    public func beginBatch() {
        recording(.beginBatch) { isBatching = true }
    }

    /// Delivers the motion held since ``beginBatch()`` as one event, and stops holding.
    public func endBatch() {
        recording(.endBatch) {
            isBatching = false
            deliverHeldFrames()
        }
    }

    /// `wl_touch.cancel`: cancels every touchscreen touch now (T9).
    public func cancel() {
        cancel(source: .touchscreen)
    }

    /// Cancels every touch of `source` now: `touchesCancelled` reaches each view that had one
    /// (T9); touches never delivered are dropped.
    public func cancel(source: Source) {
        recording(.cancel(source)) {
            guard tracks.contains(where: { $0.id.source == source }) else { return }
            // Motion held for the batch goes out first: its frame came before the cancel.
            deliverHeldFrames()
            let affected = tracks.filter { $0.id.source == source }
            guard !affected.isEmpty else { return }
            tracks.removeAll { $0.id.source == source }
            lastTaps[source] = nil
            deliverCancellation(of: affected)
        }
    }

    private func noteTime(_ time: Double) {
        latestTime = max(latestTime, time)
    }
}
