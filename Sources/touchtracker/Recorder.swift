// `touchtracker --record FILE`: every recording entry written to the file the moment it happens,
// a line per write, so whatever ends the app (quitting, a lost compositor, a crash) leaves every
// entry before it in the file.
#if canImport(Glibc)
import Glibc
#endif
import InputReplay
import Logging
import SafeFiles

final class Recorder {
    private var fd: Int32
    private let path: String
    private let logger: Logger

    /// Creates `path` anew (replacing what was there) and writes the header. Private (0600): a
    /// recording holds everything typed and pasted.
    init(path: String, logger: Logger) throws {
        switch SafeFile.createReplacing(path, mode: 0o600, flags: O_WRONLY | O_APPEND) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw RecorderError("cannot record to \(path): \(failure.reason)")
        }
        self.path = path
        self.logger = logger
        write(RecordingFormat.header)
    }

    deinit { if fd >= 0 { close(fd) } }

    func record(_ entry: RecordingEntry) { write(RecordingFormat.line(entry)) }

    /// One line in one write. A failed write (a full disk) stops the recording with one message;
    /// the app goes on.
    private func write(_ line: String) {
        guard fd >= 0 else { return }
        var bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                logger.error("recording to \(path) stopped: \(String(cString: strerror(errno)))")
                close(fd)
                fd = -1
                return
            }
            written += n
        }
    }
}

struct RecorderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
