// One app per drawing. A second TouchTracker on the same file would interleave its saves and
// journal appends with the first's, and the last to quit would silently win. The lock is an
// flock(2) on a small file beside the drawing (the drawing itself is replaced by renames, so it
// cannot carry a lock); the kernel drops it when the process ends, however it ends, so a crash
// never leaves a stale lock behind.
#if canImport(Glibc)
import Glibc
#endif
import SafeFiles

public final class DrawingLock {
    /// What trying to lock a drawing found.
    public enum Outcome {
        /// This process now has the drawing to itself until the lock is released.
        case acquired(DrawingLock)
        /// Another process has the drawing open (its pid, when the lock file names one).
        case held(by: Int32?)
        /// No lock could be taken (a read-only folder, say): opening goes on unlocked, since
        /// saving there fails anyway and says so.
        case unavailable(FileIOError)
    }

    /// The lock file: `.NAME.lock` beside the drawing, there while the drawing is open (a crash
    /// leaves it, unlocked and harmless; the next start takes it over).
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Removes the lock file while still holding it, then lets go: whoever waits on the old file
    /// sees it was unlinked and tries again (``acquire(for:)``), so no two holders can coexist.
    deinit {
        unlink(path)
        close(fd)
    }

    /// The lock file for the drawing at `drawingPath`.
    public static func lockPath(for drawingPath: String) -> String {
        DrawingFile.join(DrawingFile.folder(of: drawingPath), "." + DrawingFile.name(of: drawingPath) + ".lock")
    }

    /// Tries to lock the drawing at `drawingPath` without waiting, creating its folder if needed.
    public static func acquire(for drawingPath: String) -> Outcome {
        let path = lockPath(for: drawingPath)
        do {
            try DrawingFile.createFolder(DrawingFile.folder(of: drawingPath))
        } catch {
            return .unavailable(error)
        }
        var attempts = 0
        while true {
            // Never through a link or into a file with other names: the pid is written over the
            // file's content, which must be nobody else's (a folder unpacked from an archive may
            // hold `.NAME.lock -> somewhere`).
            let fd: Int32
            switch SafeFile.openOwn(path, mode: 0o600) {
            case .success(let opened): fd = opened
            case .failure(let failure): return .unavailable(FileIOError("create the lock file", path, failure))
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                defer { close(fd) }
                if code == EWOULDBLOCK { return .held(by: readPID(fd)) }
                return .unavailable(FileIOError("lock", path, code: code))
            }
            // The holder we raced with may have unlinked this file before letting go: then the
            // lock is on a file nobody else will ever open. Only the file at `path` counts.
            if isStillAtPath(fd, path) { return finish(fd, path) }
            close(fd)
            attempts += 1
            if attempts == 8 { return .unavailable(FileIOError("lock", path, reason: "the lock file keeps being replaced")) }
        }
    }

    private static func isStillAtPath(_ fd: Int32, _ path: String) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    private static func finish(_ fd: Int32, _ path: String) -> Outcome {
        // Our pid, for the message another instance shows.
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return .acquired(DrawingLock(path: path, fd: fd))
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let digits = buffer.prefix(n).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int32(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil }
    }
}
