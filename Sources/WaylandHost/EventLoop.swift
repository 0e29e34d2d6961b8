// The app's one-thread event loop: poll() over the display, a timerfd for TouchKit's timers, a
// signalfd for the termination signals and the clipboard's pipes. A turn reads everything
// waiting, fires due timers, serves the pipes and lets the host paint once (docs/frame.md).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Logging
import TouchKit
import Wayland

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

/// The host's steps in each turn of the loop, in the order the loop takes them.
protocol EventLoopTurns: AnyObject {
    /// The turn's events are about to be read and dispatched; `time` is the turn's start.
    func turnWillDispatchEvents(at time: Double)
    /// Every event of the turn has been dispatched.
    func turnDidDispatchEvents()
    /// Input read in an earlier turn still waits to be handled: the next turn must not sleep.
    var hasInputWaiting: Bool { get }
    /// Timers due at `time` are about to fire.
    func turnWillFireTimers(at time: Double)
    /// After the turn's events, timers, pipes and signals: paint what changed.
    func finishTurn()
}

/// Turns until ``stop(_:)``: the window closed, a termination signal, or the compositor lost.
final class EventLoop {
    /// TouchKit's timers, on CLOCK_MONOTONIC: compositor event times are on it too on Linux.
    let clock = EventLoopClock(now: { tt_monotonic_now() })
    /// The clipboard's pipes, polled beside the display.
    let watches = FDWatches()
    /// Told each step of a turn.
    weak var turns: EventLoopTurns?
    /// Set with `--latency`: told the CPU time of each part of a slow turn.
    var latencyReporter: LatencyReporter?

    private let connection: Connection
    private let logger: Logger
    private let timer: TimerFD
    private let signalFD: Int32
    private var exitReason: ExitReason?

    init(connection: Connection, logger: Logger) throws {
        self.connection = connection
        self.logger = logger
        // The clipboard writes into pipes other programs hold: one that closes its end early must
        // give the write an EPIPE error, not kill the app (P7).
        signal(SIGPIPE, SIG_IGN)
        signalFD = tt_signalfd_for_termination()
        guard signalFD >= 0 else { throw HostError("signalfd: \(String(cString: strerror(errno)))") }
        do {
            timer = try TimerFD()
        } catch {
            close(signalFD)
            throw error
        }
    }

    deinit { close(signalFD) }

    /// Ends the loop after the current turn; the first reason given is the one ``run()`` returns.
    func stop(_ reason: ExitReason) {
        if exitReason == nil { exitReason = reason }
    }

    /// Turns until stopped; a broken connection stops the loop as the compositor lost.
    func run() -> ExitReason {
        while exitReason == nil {
            do {
                try turn()
            } catch {
                stop(.compositorLost(connectionFailure(error)))
            }
        }
        return exitReason!
    }

    private func connectionFailure(_ error: Error) -> String {
        if let protocolError = connection.protocolError { return "\(protocolError)" }
        return "\(error)"
    }

    /// One turn: wait for the socket, timers, signals or pipes; read; dispatch; paint.
    private func turn() throws {
        while !connection.prepareRead() { try connection.dispatchPending() }
        let wantWrite: Bool
        do {
            wantWrite = try !connection.flush()
        } catch {
            connection.cancelRead()
            throw error
        }
        timer.arm(clock.nextDeadline)
        let watched = watches.pollFDs()
        var fds = [
            pollfd(fd: connection.fd, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
        ] + watched.map(\.fd)
        let ready = poll(&fds, nfds_t(fds.count), turns?.hasInputWaiting == true ? 0 : -1)
        if ready < 0 {
            connection.cancelRead()
            if errno == EINTR { return }
            throw HostError("poll: \(String(cString: strerror(errno)))")
        }
        // Everything the compositor has sent is read and dispatched before painting: however fast
        // input comes, a turn paints once, and motion frames of one touch within the turn reach the
        // views as one event (TouchInput's batch).
        turns?.turnWillDispatchEvents(at: clock.now)
        let turnStarted = latencyReporter != nil ? tt_thread_cpu_now() : 0
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            try connection.readEvents()
            try connection.dispatchPending()
            try readEverythingWaiting()
        } else {
            connection.cancelRead()
            try connection.dispatchPending()
        }
        turns?.turnDidDispatchEvents()
        let eventsDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        if fds[1].revents != 0 {
            timer.drain()
            // Told only when a timer is due: the timerfd also wakes the loop for none.
            let now = clock.now
            if let due = clock.nextDeadline, due <= now { turns?.turnWillFireTimers(at: now) }
            clock.fireDueTimers(at: now)
        }
        // The clipboard's pipes, after the events that may have started or ended transfers.
        watches.dispatch(zip(watched, fds.dropFirst(3)).map { ($0.token, $1) })
        if fds[2].revents != 0 {
            let signal = tt_signalfd_read(signalFD)
            if signal != 0 {
                logger.info("signal \(signal): quitting")
                stop(.signal(signal))
            }
        }
        let timersDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        turns?.finishTurn()
        if let latencyReporter {
            latencyReporter.noteTurn(dispatch: eventsDone - turnStarted, timers: timersDone - eventsDone,
                                     paint: tt_thread_cpu_now() - timersDone)
        }
        // A full socket is retried by the next turn, which polls for POLLOUT.
        _ = try connection.flush()
    }

    /// Reads and dispatches until the socket has nothing more, so the compositor's buffer for us
    /// never fills (libwayland disconnects a client it cannot write to). Bounded, so a compositor
    /// that never stops sending still lets the turn paint.
    private func readEverythingWaiting() throws {
        for _ in 0..<Self.readsPerTurn {
            while !connection.prepareRead() { try connection.dispatchPending() }
            var fd = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 else {
                connection.cancelRead()
                return
            }
            try connection.readEvents()
            try connection.dispatchPending()
        }
    }

    /// Socket reads per turn beyond the first: each takes up to 4 KiB of events (libwayland's
    /// buffer), so a turn takes a few hundred kilobytes at most before it paints.
    static let readsPerTurn = 64
}

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
