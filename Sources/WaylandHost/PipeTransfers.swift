// The clipboard's byte transfers through the event loop (P7): writing what we copied to another
// program's pipe, and reading a paste from ours. Both use non-blocking fds watched by the loop, so a
// peer that reads slowly, never reads, sends forever or never sends cannot stop the app; each
// transfer ends on its own after a while without progress or, however it trickles, at its
// deadline (Limit.clipboardSendSeconds, Limit.pasteSeconds), and always closes its fd.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Limits
import TouchKit

/// Writes `bytes` to `fd` as the reader takes them, then closes it.
final class PipeWriter {
    /// How long a reader may take nothing before the transfer is dropped.
    static let stallTimeout = 10.0

    private var fd: Int32
    private let bytes: [UInt8]
    private var written = 0
    private let watches: FDWatches
    private let clock: Clock
    private var watch: FDWatches.Token?
    private var stallTimer: TimerToken?
    private var deadline: TimerToken?
    /// Told once when the transfer ends: nil when every byte went, else why not.
    private let done: (String?) -> Void

    /// Starts writing; `fd` is ours from now on (closed when done).
    init(fd: Int32, bytes: [UInt8], watches: FDWatches, clock: Clock, done: @escaping (String?) -> Void) {
        self.fd = fd
        self.bytes = bytes
        self.watches = watches
        self.clock = clock
        self.done = done
        guard tt_set_nonblocking(fd) == 0 else {
            finish("fcntl: \(String(cString: strerror(errno)))")
            return
        }
        writeSome()
        if self.fd >= 0 {
            watch = watches.add(fd, events: Int16(POLLOUT)) { [unowned self] _ in self.writeSome() }
            armStallTimer()
            deadline = clock.schedule(at: clock.now + Limit.clipboardSendSeconds) { [weak self] in
                self?.finish("the reader did not take it all within \(Int(Limit.clipboardSendSeconds)) s")
            }
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Whether the transfer has ended (it may end within `init`).
    var isFinished: Bool { fd < 0 }

    private func writeSome() {
        while fd >= 0, written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, min($0.count - written, 1 << 16)) }
            if n > 0 {
                written += n
                armStallTimer()
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                // EPIPE: the reader closed its end (SIGPIPE is ignored, so it is only an error).
                finish("write: \(String(cString: strerror(errno)))")
                return
            }
        }
        if fd >= 0 { finish(nil) }
    }

    private func armStallTimer() {
        stallTimer?.cancel()
        stallTimer = clock.schedule(at: clock.now + Self.stallTimeout) { [weak self] in
            self?.finish("the reader took nothing for \(Int(Self.stallTimeout)) s")
        }
    }

    private func finish(_ problem: String?) {
        guard fd >= 0 else { return }
        if let watch { watches.remove(watch) }
        stallTimer?.cancel()
        deadline?.cancel()
        close(fd)
        fd = -1
        done(problem)
    }
}

/// Reads a pipe to its end, up to `maxBytes` and within `Limit.pasteSeconds` of starting, then
/// closes it.
final class PipeReader {
    /// The most read in one turn of the loop, so a huge paste leaves room for touches.
    static let bytesPerTurn = 1 << 20

    private var fd: Int32
    private let maxBytes: Int
    private var bytes: [UInt8] = []
    private let watches: FDWatches
    private let clock: Clock
    private var watch: FDWatches.Token?
    private var deadline: TimerToken?
    private let done: (PasteboardReadResult) -> Void

    /// Starts reading; `fd` is ours from now on (closed when done).
    init(fd: Int32, maxBytes: Int, watches: FDWatches, clock: Clock, done: @escaping (PasteboardReadResult) -> Void) {
        self.fd = fd
        self.maxBytes = maxBytes
        self.watches = watches
        self.clock = clock
        self.done = done
        watch = watches.add(fd, events: Int16(POLLIN)) { [unowned self] _ in self.readSome() }
        // One deadline for the whole paste: a sender trickling bytes cannot move it.
        deadline = clock.schedule(at: clock.now + Limit.pasteSeconds) { [weak self] in
            guard let self else { return }
            let seconds = Int(Limit.pasteSeconds)
            self.finish(.failed(self.bytes.isEmpty ? "the program holding the clipboard sent nothing for \(seconds) s"
                                                   : "the program holding the clipboard did not send it all within \(seconds) s"))
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    private func readSome() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var readThisTurn = 0
        while fd >= 0, readThisTurn < Self.bytesPerTurn {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                readThisTurn += n
                guard bytes.count + n <= maxBytes else {
                    finish(.tooLarge(maxBytes: maxBytes))
                    return
                }
                bytes.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                finish(.data(bytes))
                return
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                finish(.failed("reading the clipboard failed: \(String(cString: strerror(errno)))"))
                return
            }
        }
    }

    /// Ends the read now, telling `done` why; nothing more once it has ended.
    func cancel(_ reason: String) { finish(.failed(reason)) }

    private func finish(_ result: PasteboardReadResult) {
        guard fd >= 0 else { return }
        if let watch { watches.remove(watch) }
        deadline?.cancel()
        close(fd)
        fd = -1
        bytes = []
        done(result)
    }
}
