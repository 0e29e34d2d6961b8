/// A handle to a scheduled timer; ``cancel()`` stops it from firing.
///
/// Clock implementations create tokens with a closure that removes the timer from their queue.
public final class TimerToken {
    /// True once ``cancel()`` ran (a timer that already fired stays `false`).
    public private(set) var isCancelled = false
    private var onCancel: (() -> Void)?

    /// Creates a token; `onCancel` runs once, on the first ``cancel()``.
    public init(onCancel: (() -> Void)? = nil) {
        self.onCancel = onCancel
    }

    /// Stops the timer. Harmless after it fired or when called twice.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        let action = onCancel
        onCancel = nil
        action?()
    }
}

/// Time as TouchKit sees it: seconds on a monotonic time base, and one-shot timers.
///
/// TouchKit never reads a system clock itself, so tests drive time with ``ManualClock`` and the
/// app's event loop uses ``EventLoopClock``. Touch timestamps come from the compositor; hosts should
/// use the same time base for the clock (the compositor's times are `CLOCK_MONOTONIC` on Linux).
/// Timers fire on the event loop's thread, never concurrently with event delivery.
public protocol Clock: AnyObject {
    /// The current time in seconds.
    var now: Double { get }
    /// Runs `action` once `now` has reached `deadline` (at the next opportunity if it already has).
    func schedule(at deadline: Double, _ action: @escaping () -> Void) -> TimerToken
}

/// The pending timers of a clock, ordered by deadline and then by scheduling order.
struct TimerQueue {
    private struct Entry {
        let deadline: Double
        let sequence: UInt64
        let action: () -> Void
        let token: TimerToken
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    mutating func add(deadline: Double, action: @escaping () -> Void, token: TimerToken) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        entries.append(Entry(deadline: deadline, sequence: sequence, action: action, token: token))
        return sequence
    }

    mutating func remove(sequence: UInt64) {
        entries.removeAll { $0.sequence == sequence }
    }

    /// The earliest deadline of a timer that has not been cancelled.
    var nextDeadline: Double? {
        entries.lazy.filter { !$0.token.isCancelled }.map(\.deadline).min()
    }

    /// Removes and returns the earliest timer due at `time`, if any.
    mutating func popDue(at time: Double) -> (deadline: Double, action: () -> Void)? {
        var best: Int?
        for (i, e) in entries.enumerated() where !e.token.isCancelled && e.deadline <= time {
            if let b = best {
                let be = entries[b]
                if e.deadline < be.deadline || (e.deadline == be.deadline && e.sequence < be.sequence) {
                    best = i
                }
            } else {
                best = i
            }
        }
        guard let index = best else { return nil }
        let entry = entries.remove(at: index)
        return (entry.deadline, entry.action)
    }

    var isEmpty: Bool { !entries.contains { !$0.token.isCancelled } }
}

/// A clock that moves only when told to: for tests.
///
/// ``advance(to:)`` fires every due timer in deadline order (ties in scheduling order), setting
/// ``now`` to each timer's deadline while it runs, so a timer that schedules another one sees the
/// time it was meant to fire at. Timers scheduled while advancing fire in the same call if due.
public final class ManualClock: Clock {
    public private(set) var now: Double
    private var queue = TimerQueue()

    public init(now: Double = 0) {
        self.now = now
    }

    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> TimerToken {
        var sequence: UInt64 = 0
        let token = TimerToken { [weak self] in self?.queue.remove(sequence: sequence) }
        sequence = queue.add(deadline: deadline, action: action, token: token)
        return token
    }

    /// Moves time forward by `interval` seconds, firing due timers.
    public func advance(by interval: Double) {
        advance(to: now + interval)
    }

    /// Moves time forward to `time` (never backwards), firing due timers.
    public func advance(to time: Double) {
        let target = max(time, now)
        while let (deadline, action) = queue.popDue(at: target) {
            now = max(now, deadline)
            action()
        }
        now = target
    }

    /// The deadline of the next timer that would fire, if any.
    public var nextDeadline: Double? { queue.nextDeadline }
}

/// A clock for a `poll()`-based event loop: it reads the time from a closure, and the loop asks it
/// for ``nextDeadline`` (to compute its poll timeout or arm a timerfd) and calls
/// ``fireDueTimers()`` when it wakes.
public final class EventLoopClock: Clock {
    private let readTime: () -> Double
    private var queue = TimerQueue()

    /// - Parameter now: returns the current monotonic time in seconds.
    public init(now: @escaping () -> Double) {
        self.readTime = now
    }

    public var now: Double { readTime() }

    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> TimerToken {
        var sequence: UInt64 = 0
        let token = TimerToken { [weak self] in self?.queue.remove(sequence: sequence) }
        sequence = queue.add(deadline: deadline, action: action, token: token)
        return token
    }

    /// The earliest deadline among pending timers, or nil when none are pending.
    public var nextDeadline: Double? { queue.nextDeadline }

    /// Fires every timer whose deadline has passed, in deadline order.
    public func fireDueTimers() {
        fireDueTimers(at: now)
    }

    /// Fires every timer whose deadline is at or before `time` (a time read once, so a recording
    /// of the loop can say exactly which timers fired).
    public func fireDueTimers(at time: Double) {
        while let (_, action) = queue.popDue(at: time) {
            action()
        }
    }
}
