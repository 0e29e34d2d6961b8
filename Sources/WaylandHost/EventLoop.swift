// The app's event loop, on its one thread of work: poll() over what the socket reader read (it
// reads the compositor's socket on a thread of its own), a timerfd for TouchKit's timers, a
// signalfd for the termination signals and the clipboard's pipes. A turn dispatches everything
// read, fires due timers, serves the pipes and lets the host paint once (docs/frame.md).
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
    /// Reads the socket while the loop runs.
    private let reader: SocketReader
    private let logger: Logger
    private let timer: TimerFD
    private let signalFD: Int32
    private var exitReason: ExitReason?

    init(connection: Connection, logger: Logger) throws {
        self.connection = connection
        reader = try SocketReader(connection)
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

    /// Turns until stopped; a broken connection stops the loop as the compositor lost. The
    /// socket is read on a thread of its own meanwhile (SocketReader).
    func run() -> ExitReason {
        do {
            try reader.start()
        } catch {
            return .compositorLost("\(error)")
        }
        defer { reader.stop() }
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

    /// One turn: wait for events read, timers, signals or pipes; dispatch; paint.
    private func turn() throws {
        let wantWrite = try !connection.flush()
        timer.arm(clock.nextDeadline)
        let watched = watches.pollFDs()
        var fds = [
            pollfd(fd: reader.wakeFD, events: Int16(POLLIN), revents: 0),
            // Only to finish a flush the socket had no room for: the reader reads it.
            pollfd(fd: connection.fd, events: wantWrite ? Int16(POLLOUT) : 0, revents: 0),
            pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
        ] + watched.map(\.fd)
        let ready = poll(&fds, nfds_t(fds.count), turns?.hasInputWaiting == true ? 0 : -1)
        if ready < 0 {
            if errno == EINTR { return }
            throw HostError("poll: \(String(cString: strerror(errno)))")
        }
        // Everything read so far is dispatched before painting: however fast input comes, a turn
        // paints once, and motion frames of one touch within the turn reach the views as one event
        // (TouchInput's batch).
        turns?.turnWillDispatchEvents(at: clock.now)
        let turnStarted = latencyReporter != nil ? tt_thread_cpu_now() : 0
        if fds[0].revents != 0 { reader.drainWake() }
        try connection.dispatchPending()
        if let code = reader.readFailure { throw connection.lastError ?? .connectionLost(errno: code) }
        turns?.turnDidDispatchEvents()
        let eventsDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        // Frames painted by events (a frame callback, a buffer's release) count as painting.
        let paintedInEvents = latencyReporter?.takePainting() ?? 0
        if fds[2].revents != 0 {
            timer.drain()
            // Told only when a timer is due: the timerfd also wakes the loop for none.
            let now = clock.now
            if let due = clock.nextDeadline, due <= now { turns?.turnWillFireTimers(at: now) }
            clock.fireDueTimers(at: now)
        }
        // The clipboard's pipes, after the events that may have started or ended transfers.
        watches.dispatch(zip(watched, fds.dropFirst(4)).map { ($0.token, $1) })
        if fds[3].revents != 0 {
            let signal = tt_signalfd_read(signalFD)
            if signal != 0 {
                logger.info("signal \(signal): quitting")
                stop(.signal(signal))
            }
        }
        let timersDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        let paintedInTimers = latencyReporter?.takePainting() ?? 0
        turns?.finishTurn()
        if let latencyReporter {
            _ = latencyReporter.takePainting()
            latencyReporter.noteTurn(dispatch: eventsDone - turnStarted - paintedInEvents, timers: timersDone - eventsDone - paintedInTimers,
                                     paint: tt_thread_cpu_now() - timersDone + paintedInEvents + paintedInTimers)
        }
        // A full socket is retried by the next turn, which polls for POLLOUT.
        _ = try connection.flush()
    }
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
