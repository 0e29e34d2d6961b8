/// The view side of touch delivery for one window: every touch phase a view should get passes
/// through a per-touch queue, so that gesture recognizers can hold it (G6, G7) or replace the rest
/// of the touch's life with one `touchesCancelled` (G5, T9).
///
/// Without recognizers every entry leaves the queue in the event that made it, grouped exactly as
/// views always got touches: one call per view per phase per event (T2, T3). Held entries keep a
/// snapshot of the touch as it was then; when they are replayed, the touch shows that state for
/// the duration of the call, so a view sees the began it would have seen, then the held moves as
/// one catch-up move to where the touch is (UIKit's replay), then its end, in order. The event, one
/// object for the whole sequence (T12), likewise shows what the held delivery carried.
final class ViewTouchDelivery {
    /// A touch as of one event: what a replayed delivery shows the view.
    private struct Snapshot: Equatable {
        var phase: Touch.Phase
        var location: Point
        var previousLocation: Point
        var timestamp: Double
        var force: Double
        var attributes: Touch.Attributes

        /// The touch as it is now, shown in `phase`; a cancel shows no movement.
        init(_ touch: Touch, phase: Touch.Phase) {
            self.phase = phase
            location = touch.windowLocation
            previousLocation = phase == .cancelled ? touch.windowLocation : touch.previousWindowLocation
            timestamp = touch.timestamp
            force = touch.force
            attributes = touch.attributes
        }

        /// The touch exactly as it is now.
        init(current touch: Touch) {
            self.init(touch, phase: touch.phase)
            previousLocation = touch.previousWindowLocation
        }

        func apply(to touch: Touch) {
            touch.phase = phase
            touch.windowLocation = location
            touch.previousWindowLocation = previousLocation
            touch.timestamp = timestamp
            touch.force = force
            touch.attributes = attributes
        }
    }

    private struct Entry {
        let touch: Touch
        let event: Event
        /// The event as the entry's delivery carried it: one event object carries a whole
        /// sequence (T12), and each of its deliveries reaches views as its own calls (T2).
        let contents: Event.Contents
        let snapshot: Snapshot
        let sequence: Int
        var phase: Touch.Phase { snapshot.phase }

        func isSameDelivery(as other: Entry) -> Bool {
            event === other.event && contents.deliveryNumber == other.contents.deliveryNumber
        }
    }

    /// What the view has had of one touch, and what it still has to get.
    private final class Record {
        let touch: Touch
        var queue: [Entry] = []
        /// The view got `touchesBegan` (or it is on its way in the current flush).
        var beganDelivered = false
        /// The view got the touch's end or cancel, or will never hear of the touch again.
        var finished = false

        init(_ touch: Touch) {
            self.touch = touch
        }
    }

    private var records: [Record] = []
    private var nextSequence = 0

    /// Whether any delivery is waiting for a recognizer's decision.
    var isIdle: Bool { records.allSatisfy(\.queue.isEmpty) }

    /// The touches the pipeline knows that are still down, for events made up on the spot.
    var liveTouches: [Touch] { records.map(\.touch).filter { !$0.isFinished } }

    private func record(for touch: Touch) -> Record {
        if let existing = records.first(where: { $0.touch === touch }) { return existing }
        let created = Record(touch)
        records.append(created)
        return created
    }

    private func makeEntry(_ touch: Touch, phase: Touch.Phase, event: Event) -> Entry {
        nextSequence += 1
        return Entry(touch: touch, event: event, contents: event.contents,
                     snapshot: Snapshot(touch, phase: phase), sequence: nextSequence)
    }

    /// Queues the view's share of `touch` in `event`, if any: stationary touches, touches with no
    /// view and moves dropped while interaction is ignored (H6) are not delivered.
    func enqueue(_ touch: Touch, in event: Event) {
        guard touch.phase != .stationary, touch.isDeliverable, touch.deliversToView, !event.isSuppressed(touch),
              touch.view != nil else { return }
        let rec = record(for: touch)
        guard !rec.finished else { return }
        if touch.phase == .cancelled {
            end(rec, event: event)
        } else {
            rec.queue.append(makeEntry(touch, phase: touch.phase, event: event))
        }
    }

    /// A recognizer took `touches` (G5): what the view has not seen of them is dropped, and a
    /// view that saw them begin gets `touchesCancelled` in `event`.
    func cancel(_ touches: [Touch], in event: Event) {
        for touch in touches where touch.isDeliverable && touch.deliversToView && touch.view != nil {
            // No record of a finished touch: the view already had all of it.
            if touch.isFinished, !records.contains(where: { $0.touch === touch }) { continue }
            let rec = record(for: touch)
            if !rec.finished { end(rec, event: event) }
        }
    }

    /// A recognizer that delayed touchesBegan recognized without cancelling (G6): touches whose
    /// begin the view has not seen are discarded for good; the others go on as usual.
    func discardUnstarted(_ touches: [Touch], in event: Event) {
        for touch in touches {
            guard let rec = records.first(where: { $0.touch === touch }), !rec.finished,
                  !rec.beganDelivered else { continue }
            end(rec, event: event)
        }
    }

    private func end(_ rec: Record, event: Event) {
        rec.queue.removeAll()
        if rec.beganDelivered {
            // A cancel is final and never waits for anyone.
            rec.queue.append(makeEntry(rec.touch, phase: .cancelled, event: event))
        }
        rec.finished = true
    }

    /// Delivers every queued entry that `isHeld` does not hold, oldest event first; within an
    /// event, one call per view and phase.
    func flush(isHeld: (Touch, Touch.Phase) -> Bool) {
        var ready: [Entry] = []
        for rec in records {
            /// This record's move released in this flush, if any.
            var released: Int?
            while let head = rec.queue.first {
                if head.phase != .cancelled, isHeld(rec.touch, head.phase) { break }
                rec.queue.removeFirst()
                // Held moves go out as one catch-up move to where the touch is, from where the
                // view saw it last, as UIKit delivers a failed recognizer's held touches (G6).
                if head.phase == .moved, let i = released {
                    var merged = head.snapshot
                    merged.previousLocation = ready[i].snapshot.previousLocation
                    ready[i] = Entry(touch: head.touch, event: head.event, contents: head.contents,
                                     snapshot: merged, sequence: head.sequence)
                    continue
                }
                if head.phase == .moved { released = ready.count }
                ready.append(head)
                switch head.phase {
                case .began: rec.beganDelivered = true
                case .ended, .cancelled: rec.finished = true
                case .moved, .stationary: break
                }
            }
        }
        // Forget touches that are over for good; a finished record of a live touch stays, so
        // that its later phases are recognised as not the view's business.
        records.removeAll { $0.finished && $0.queue.isEmpty && $0.touch.isFinished }
        guard !ready.isEmpty else { return }
        ready.sort { $0.sequence < $1.sequence }
        var start = 0
        while start < ready.count {
            var end = start + 1
            while end < ready.count, ready[end].isSameDelivery(as: ready[start]) { end += 1 }
            deliver(ready[start..<end])
            start = end
        }
    }

    /// One event's entries: grouped per view and phase, views in the order their first touch
    /// appears, phases began, moved, ended, cancelled (T2, T3).
    private func deliver(_ entries: ArraySlice<Entry>) {
        var groups: [(view: View, phase: Touch.Phase, entries: [Entry])] = []
        var viewOrder: [ObjectIdentifier: Int] = [:]
        for entry in entries {
            guard let view = entry.touch.view else { continue }
            if let i = groups.firstIndex(where: { $0.view === view && $0.phase == entry.phase }) {
                groups[i].entries.append(entry)
            } else {
                let id = ObjectIdentifier(view)
                if viewOrder[id] == nil { viewOrder[id] = viewOrder.count }
                groups.append((view, entry.phase, [entry]))
            }
        }
        func rank(_ phase: Touch.Phase) -> Int {
            switch phase {
            case .began: 0
            case .moved: 1
            case .stationary: 2
            case .ended: 3
            case .cancelled: 4
            }
        }
        groups.sort {
            let a = viewOrder[ObjectIdentifier($0.view)]!, b = viewOrder[ObjectIdentifier($1.view)]!
            return a != b ? a < b : rank($0.phase) < rank($1.phase)
        }
        for group in groups {
            // Show replayed touches as they were; put them back afterwards.
            var restore: [(Touch, Snapshot)] = []
            for entry in group.entries {
                let current = Snapshot(current: entry.touch)
                if current != entry.snapshot {
                    restore.append((entry.touch, current))
                    entry.snapshot.apply(to: entry.touch)
                }
            }
            let touches = Set(group.entries.map(\.touch))
            let event = group.entries[0].event
            // A replayed delivery shows the event as it was then (T12); put it back afterwards.
            let now = event.contents
            let shown = group.entries[0].contents
            let replayed = shown.deliveryNumber != now.deliveryNumber
            if replayed { event.contents = shown }
            switch group.phase {
            case .began: group.view.touchesBegan(touches, with: event)
            case .moved: group.view.touchesMoved(touches, with: event)
            case .ended: group.view.touchesEnded(touches, with: event)
            case .cancelled: group.view.touchesCancelled(touches, with: event)
            case .stationary: break
            }
            if replayed { event.contents = now }
            for (touch, snapshot) in restore { snapshot.apply(to: touch) }
        }
    }
}
