// How TouchInput turns its tracks into events: one delivery per frame (T2), all of a sequence's in
// one Event object (T12), the frames held in a batch (T11), the cancel (T9), and the tap count a
// new touch gets (T5).
extension TouchInput {
    /// Delivers the held frames as one event. Motion read after them (a frame not yet complete)
    /// stays pending for its own frame.
    func deliverHeldFrames() {
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

    func deliverPending() {
        holdsFrame = false
        for track in tracks { track.heldSamples = 0 }
        while true {
            let changed = tracks.filter(\.hasPendingChanges)
            if changed.isEmpty { break }
            deliverOneEvent()
        }
        lastChangeWasUp = false
    }

    /// Delivers `cancelled` for the touches of `affected` that views know, once they have left
    /// the bookkeeping; the other delivered touches come along as stationary (T9).
    func deliverCancellation(of affected: [Track]) {
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
        send(timestamp: latestTime, touches: cancelled.map(\.touch) + others, coalesced: coalesced)
    }

    /// Sends one delivery in the sequence's event, made when the sequence starts and dropped once
    /// every touch is gone (T12). A delivery made while another is under way (a view feeding the
    /// adapter from a touch method) gets an event of its own, so the outer one stays intact.
    private func send(timestamp: Double, touches: [Touch], coalesced: [ObjectIdentifier: [Touch]],
                      attaching began: [Touch] = []) {
        let event: Event
        if isSending {
            event = Event(timestamp: timestamp, touches: touches, coalesced: coalesced)
        } else if let sequenceEvent {
            event = sequenceEvent
            event.refill(timestamp: timestamp, touches: touches, coalesced: coalesced)
        } else {
            event = Event(timestamp: timestamp, touches: touches, coalesced: coalesced)
            sequenceEvent = event
        }
        let outer = isSending
        isSending = true
        window.attachBeganTouches(began, in: event)
        application.sendEvent(event)
        isSending = outer
        if !outer, tracks.isEmpty { sequenceEvent = nil }
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
            touch.attributes = deviceAttributes[track.id] ?? Touch.Attributes()
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
        send(timestamp: timestamp, touches: touches, coalesced: coalesced, attaching: began)
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

    /// The end of the last tap of a source, for `tapCount` (T5).
    struct TapRecord {
        var location: Point
        var time: Double
        var count: Int
    }

    func tapCount(source: Source, at location: Point, time: Double) -> Int {
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
