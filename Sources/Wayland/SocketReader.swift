// The compositor's socket read on a thread of its own. libwayland disconnects a client whose
// socket fills, and the main thread, however its turns are bounded, can be slow for a while: a
// build under AddressSanitizer, a phone's CPU, a machine busy with other work. The reader only
// moves what arrives into libwayland's event queue (memory), so the socket never fills while the
// process runs at all; the main thread dispatches the queue, and is woken through a pipe.
// libwayland supports this: one thread reads (prepare_read / read_events) while another
// dispatches, each under the display's lock.
import CWaylandClient
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

public final class SocketReader: @unchecked Sendable {
    private let display: OpaquePointer
    /// A queue no object uses: preparing to read on it never finds events waiting, so the reader
    /// never dispatches (the main thread dispatches the default queue).
    private let privateQueue: OpaquePointer
    /// Readable when events were read: the main thread polls it and dispatches.
    public let wakeFD: Int32
    private let wakeWrite: Int32
    private let stopRead: Int32
    private let stopWrite: Int32
    private var thread = pthread_t()
    private var running = false
    /// An errno the reader stopped on, 0 while it reads.
    private let failure = Atomic<Int32>(0)

    /// A reader for `connection`, not started yet.
    public init(_ connection: Connection) throws(WaylandError) {
        display = connection.displayPointer
        guard let queue = wl_display_create_queue(display) else { throw .connectionLost(errno: errno) }
        privateQueue = queue
        var wake: [Int32] = [0, 0], stop: [Int32] = [0, 0]
        guard Self.makePipe(&wake) else {
            wl_event_queue_destroy(queue)
            throw .connectionLost(errno: errno)
        }
        guard Self.makePipe(&stop) else {
            close(wake[0]); close(wake[1])
            wl_event_queue_destroy(queue)
            throw .connectionLost(errno: errno)
        }
        (wakeFD, wakeWrite, stopRead, stopWrite) = (wake[0], wake[1], stop[0], stop[1])
    }

    /// A non-blocking pipe, closed on exec.
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return true
    }

    deinit {
        stop()
        for fd in [wakeFD, wakeWrite, stopRead, stopWrite] { close(fd) }
        wl_event_queue_destroy(privateQueue)
    }

    /// Starts reading; the caller must no longer read the display itself (no prepareRead,
    /// readEvents, dispatch or roundtrip) until ``stop()``.
    public func start() throws(WaylandError) {
        guard !running else { return }
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let reader = Unmanaged<SocketReader>.fromOpaque(context!).takeRetainedValue()
            reader.readUntilStopped()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<SocketReader>.fromOpaque(context).release()
            throw .connectionLost(errno: status)
        }
        running = true
    }

    /// Stops the reader and waits for it (before the display goes).
    public func stop() {
        guard running else { return }
        running = false
        var byte: UInt8 = 1
        _ = write(stopWrite, &byte, 1)
        pthread_join(thread, nil)
    }

    /// Empties the wake pipe (after a poll found it readable).
    public func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakeFD, &bytes, bytes.count) > 0 {}
    }

    /// The errno the reader stopped on, if it stopped on one (the connection is then lost).
    public var readFailure: Int32? {
        let code = failure.load(ordering: .acquiring)
        return code == 0 ? nil : code
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the main thread.
        _ = write(wakeWrite, &byte, 1)
    }

    private func readUntilStopped() {
        let socket = wl_display_get_fd(display)
        while true {
            while wl_display_prepare_read_queue(display, privateQueue) != 0 {
                _ = wl_display_dispatch_queue_pending(display, privateQueue)
            }
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                wl_display_cancel_read(display)
                if errno == EINTR { continue }
                return stopped(errno)
            }
            if fds[1].revents != 0 {
                wl_display_cancel_read(display)
                return
            }
            guard fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 else {
                wl_display_cancel_read(display)
                continue
            }
            // A failed read marks the display failed too: the main thread's next dispatch says so.
            if wl_display_read_events(display) < 0 { return stopped(errno == 0 ? EPIPE : errno) }
            wake()
        }
    }

    private func stopped(_ code: Int32) {
        failure.store(code, ordering: .releasing)
        wake()
    }
}
