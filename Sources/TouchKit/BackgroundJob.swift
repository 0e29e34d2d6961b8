// One piece of work off the event loop (painting and encoding an export or a clipboard picture),
// whose result the event loop collects by polling from a ``Clock`` timer: the loop sleeps in
// poll(2) on the display's socket and its timers, so a thread has no cheaper way to hand it
// something.
import Dispatch
import Synchronization

public final class BackgroundJob<Output: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let output = Mutex<Output?>(nil)

    /// Starts `work` on a queue of its own, at a lower priority than the event loop.
    public init(label: String, _ work: @escaping @Sendable () -> Output) {
        queue = DispatchQueue(label: label, qos: .utility)
        queue.async { [self] in
            let result = work()
            output.withLock { $0 = result }
        }
    }

    /// The result, once the work is done (then nil again).
    public func take() -> Output? {
        output.withLock { value in
            defer { value = nil }
            return value
        }
    }

    /// Waits for the work and returns its result.
    public func wait() -> Output {
        queue.sync {}
        return take()!
    }
}
