// Pieces of the app's one-thread event loop that know nothing about Wayland: the timerfd behind
// TouchKit's timers, and how the loop ends.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import TouchKit

/// A CLOCK_MONOTONIC timerfd that wakes the loop at TouchKit's next timer deadline.
final class TimerFD {
    let fd: Int32
    private var armedDeadline: Double?

    init() throws {
        fd = tt_timerfd_create()
        guard fd >= 0 else { throw HostError("timerfd_create: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Arms the timer for `deadline` (monotonic seconds), or disarms it for nil.
    func arm(_ deadline: Double?) {
        guard deadline != armedDeadline else { return }
        armedDeadline = deadline
        _ = tt_timerfd_arm(fd, deadline ?? 0)
    }

    /// Clears the expiry so poll() stops reporting it; the deadline must be armed again.
    func drain() {
        _ = tt_timerfd_drain(fd)
        armedDeadline = nil
    }
}

/// A failure of the host, with a one-line message for the user.
public struct HostError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Why the loop stopped.
public enum ExitReason: Equatable, Sendable {
    /// The user closed the window or quit.
    case closed
    /// SIGINT, SIGTERM or SIGHUP.
    case signal(Int32)
    /// The compositor went away or broke the connection; the message says how.
    case compositorLost(String)

    /// The process exit status: 0 for an orderly end, 1 when the compositor was lost.
    public var exitStatus: Int32 {
        if case .compositorLost = self { return 1 }
        return 0
    }
}
