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

    /// A touch from its `down` until its end is delivered, with the changes not yet framed.
    private final class Track {
        /// Where a touch is between the calls that reported it and the events that deliver it.
        enum State {
            /// Its `down` came; the next event delivers its `began`, where the finger landed.
            case landed
            /// Its `down` and `up` both came before its `began` went out: the next event begins
            /// it and the one after ends it.
            case landedAndLifted
            /// Delivered, with nothing new: the next event shows it stationary.
            case stationary
            /// Delivered, with motion waiting for the next event.
            case moved
            /// Delivered, with its `up` waiting: the next event ends it.
            case lifted
        }

        let id: ID
        let touch: Touch
        private(set) var state = State.landed
        var location: Point
        var time: Double
        var force: Double
        /// Positions reported since the last event: (location, time), oldest first (T11).
        var samples: [(Point, Double)]
        /// How many of `samples` belong to frames held for the batch's end.
        var heldSamples = 0

        init(id: ID, touch: Touch, location: Point, time: Double) {
            self.id = id
            self.touch = touch
            self.location = location
            self.time = time
            self.force = touch.force
            self.samples = [(location, time)]
        }

        /// Whether views have had its `began`.
        var isDelivered: Bool {
            switch state {
            case .landed, .landedAndLifted: false
            case .stationary, .moved, .lifted: true
            }
        }

        /// Whether its `up` came: nothing more is taken for it.
        var isLifted: Bool { state == .landedAndLifted || state == .lifted }

        /// Delivered and not lifted: a frame of such touches only moves them, and may be held.
        var isDeliveredAndDown: Bool { state == .stationary || state == .moved }

        var hasPendingChanges: Bool { state != .stationary }

        /// Its `up` came.
        func lift() {
            switch state {
            case .landed: state = .landedAndLifted
            case .stationary, .moved: state = .lifted
            case .landedAndLifted, .lifted: break
            }
        }

        /// Motion waits for it: a delivered touch at rest now moves. A landed or lifted touch keeps
        /// its state; its samples go out after its `began`, or with its end.
        func move() {
            if state == .stationary { state = .moved }
        }

        /// Its waiting motion went out, or was put aside for a later event.
        func settle() {
            if state == .moved { state = .stationary }
        }

        /// Its `began` went out; `motionFollows` when samples after the landing point wait.
        func began(motionFollows: Bool) {
            state = state == .landedAndLifted ? .lifted : motionFollows ? .moved : .stationary
        }
    }

    /// The end of the last tap of a source, for `tapCount` (T5).
    private struct TapRecord {
        var location: Point
        var time: Double
        var count: Int
    }

    public let application: Application
    public let window: Window
    private var tracks: [Track] = []
    private var lastTaps: [Source: TapRecord] = [:]
    private var lastChangeWasUp = false
    private var latestTime: Double = 0
    /// Inside a batch: motion-only frames wait for its end.
    private var isBatching = false

    /// Told of every call made into the adapter from outside, before it acts (`--record`). Calls
    /// the adapter makes to itself, and those a view makes while an event is delivered, are not
    /// told: a replay makes them again by itself.
    public var recorder: ((InputEvent) -> Void)?
    private var depth = 0

    /// Runs `body`, the work of the outside call `event`, telling the recorder first.
    private func recording(_ event: @autoclosure () -> InputEvent, _ body: () -> Void) {
        if depth == 0, let recorder { recorder(event()) }
        depth += 1
        defer { depth -= 1 }
        body()
    }
    /// A motion-only frame is held for the batch's end (each track knows how many of its samples).
    private var holdsFrame = false

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
            let touch = Touch(phase: .began, location: location, timestamp: time,
                              tapCount: tapCount(source: id.source, at: location, time: time),
                              window: window, type: kind, force: force)
            tracks.append(Track(id: id, touch: touch, location: location, time: time))
            lastChangeWasUp = false
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

    /// Delivers the held frames as one event. Motion read after them (a frame not yet complete)
    /// stays pending for its own frame.
    private func deliverHeldFrames() {
        guard holdsFrame else { return }
        holdsFrame = false
        // Nothing but motion of delivered touches can follow a hold: a down or an up delivers the
        // held frames first. Put that motion aside, deliver, and take it back.
        var later: [(Track, [(Point, Double)])] = []
        for track in tracks where track.samples.count > track.heldSamples {
            later.append((track, Array(track.samples[track.heldSamples...])))
            track.samples.removeSubrange(track.heldSamples...)
            if let last = track.samples.last { (track.location, track.time) = last } else { track.settle() }
        }
        deliverOneEvent()
        for (track, samples) in later {
            track.samples = samples
            (track.location, track.time) = samples[samples.count - 1]
            track.move()
        }
        for track in tracks { track.heldSamples = 0 }
    }

    private func deliverPending() {
        holdsFrame = false
        for track in tracks { track.heldSamples = 0 }
        while true {
            let changed = tracks.filter(\.hasPendingChanges)
            if changed.isEmpty { break }
            deliverOneEvent()
        }
        lastChangeWasUp = false
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

    /// Delivers `cancelled` for the touches of `affected` that views know, once they have left
    /// the bookkeeping; the other delivered touches come along as stationary (T9).
    private func deliverCancellation(of affected: [Track]) {
        let cancelled = affected.filter(\.isDelivered)
        guard !cancelled.isEmpty else { return }
        var coalesced: [ObjectIdentifier: [Touch]] = [:]
        for track in cancelled {
            let touch = track.touch
            coalesced[ObjectIdentifier(touch)] = snapshots(of: track, phase: .cancelled)
            touch.previousWindowLocation = touch.windowLocation
            touch.windowLocation = track.location
            touch.force = track.force
            touch.timestamp = max(touch.timestamp, track.time)
            touch.phase = .cancelled
        }
        for track in tracks where track.isDelivered {
            track.touch.phase = .stationary
        }
        let others = tracks.filter(\.isDelivered).map(\.touch)
        let event = Event(timestamp: latestTime, touches: cancelled.map(\.touch) + others,
                          coalesced: coalesced)
        application.sendEvent(event)
    }

    // MARK: Building events

    private func noteTime(_ time: Double) {
        latestTime = max(latestTime, time)
    }

    private func deliverOneEvent() {
        var touches: [Touch] = []
        var began: [Touch] = []
        var finished: [ObjectIdentifier] = []
        var coalesced: [ObjectIdentifier: [Touch]] = [:]
        var timestamp = -Double.infinity
        for track in tracks {
            let touch = track.touch
            let id = ObjectIdentifier(touch)
            var laterSamples: [(Point, Double)] = []
            switch track.state {
            case .landed, .landedAndLifted:
                // The touch begins where the finger landed; moves in the same batch, like an
                // `up`, stay pending and go out in the next event (T1: no landing point lost).
                let landing = track.samples.first ?? (track.location, track.time)
                laterSamples = Array(track.samples.dropFirst())
                track.began(motionFollows: !laterSamples.isEmpty)
                touch.phase = .began
                touch.windowLocation = landing.0
                touch.previousWindowLocation = landing.0
                touch.force = track.force
                touch.timestamp = landing.1
                began.append(touch)
            case .lifted:
                coalesced[id] = snapshots(of: track, phase: .ended)
                touch.phase = .ended
                touch.previousWindowLocation = touch.windowLocation
                touch.windowLocation = track.location
                touch.force = track.force
                touch.timestamp = track.time
                finished.append(id)
                recordTap(track)
            case .moved:
                coalesced[id] = snapshots(of: track, phase: .moved)
                track.settle()
                touch.phase = .moved
                touch.previousWindowLocation = touch.windowLocation
                touch.windowLocation = track.location
                touch.force = track.force
                touch.timestamp = track.time
            case .stationary:
                touch.phase = .stationary
                touch.previousWindowLocation = touch.windowLocation
            }
            if touch.phase != .stationary { timestamp = max(timestamp, touch.timestamp) }
            track.samples = laterSamples
            touches.append(touch)
        }
        // Ended touches leave the bookkeeping before views run, so that anything a view does in
        // response (even feeding this adapter) sees a consistent state.
        tracks.removeAll { finished.contains(ObjectIdentifier($0.touch)) }
        let event = Event(timestamp: timestamp, touches: touches, coalesced: coalesced)
        window.attachBeganTouches(began, in: event)
        application.sendEvent(event)
    }

    /// The samples since the last event as snapshot touches; the last one takes `phase`, earlier
    /// ones are moves (T11).
    private func snapshots(of track: Track, phase: Touch.Phase) -> [Touch] {
        guard track.samples.count > 1 else { return [] }
        var previous = phase == .began ? track.samples[0].0 : track.touch.windowLocation
        var result: [Touch] = []
        for (i, (location, time)) in track.samples.enumerated() {
            let isLast = i == track.samples.count - 1
            result.append(track.touch.snapshot(location: location, previousLocation: previous,
                                               timestamp: time, phase: isLast ? phase : .moved))
            previous = location
        }
        return result
    }

    // MARK: Taps (T5)

    private func tapCount(source: Source, at location: Point, time: Double) -> Int {
        guard let last = lastTaps[source],
              time - last.time <= Touch.multiTapInterval,
              time >= last.time,
              location.distance(to: last.location) <= Touch.multiTapDistance else { return 1 }
        return last.count + 1
    }

    private func recordTap(_ track: Track) {
        let touch = track.touch
        if touch.windowLocation.distance(to: touch.startWindowLocation) <= Touch.multiTapDistance {
            lastTaps[track.id.source] = TapRecord(location: touch.windowLocation, time: touch.timestamp,
                                                  count: touch.tapCount)
        } else {
            lastTaps[track.id.source] = nil
        }
    }
}
