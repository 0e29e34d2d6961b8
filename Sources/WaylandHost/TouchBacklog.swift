// Touch events read from the socket wait here until the seat has time for them. Reading must never
// wait on what the events cause (delivery through recognizers and views, the drawing, the line
// cache): libwayland disconnects a client whose socket fills, and a stream whose every frame begins
// or ends a touch costs far more per event than fingers moving. So a turn reads everything the
// compositor sent, takes the events in order for a budget of time, and leaves the rest for the
// next turns, which read again first. In ordinary use a turn takes every event it read.
import Limits
import Wayland

struct TouchBacklog {
    private var events: [WlTouch.Event] = []
    /// The first event not taken yet: taking one is O(1), and the array is compacted as it drains.
    private var head = 0

    var isEmpty: Bool { head == events.count }
    var count: Int { events.count - head }

    mutating func append(_ event: WlTouch.Event) {
        events.append(event)
    }

    /// Hands events to `handle` in order; after each `frame`, stops when `enough()` says so, so a
    /// frame's events are never split between turns.
    mutating func take(_ handle: (WlTouch.Event) -> Void, stoppingAfterAFrameWhen enough: () -> Bool) {
        while head < events.count {
            let event = events[head]
            head += 1
            handle(event)
            if case .frame = event, enough() { break }
        }
        if head == events.count {
            events.removeAll(keepingCapacity: events.count <= 4096)
            head = 0
        } else if head >= 4096, head * 2 >= events.count {
            events.removeFirst(head)
            head = 0
        }
    }
}
