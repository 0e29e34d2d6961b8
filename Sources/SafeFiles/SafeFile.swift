// The one way the app opens files it did not make this moment: drawings, journals, locks,
// preferences, exports, recordings, cursors. A folder the user shares or unpacked from an archive
// may hold a symbolic link where the app expects its own file, a named pipe (which blocks open(2)
// forever) or a device; a file the app creates or truncates must never be reached through a link,
// and reading must never block. docs/security.md lists what each caller relies on.
#if canImport(Glibc)
import Glibc
#endif

public enum SafeFile {
    /// Why a file could not be opened: the errno, or a reason of our own with code 0.
    public struct Failure: Error, Equatable, Sendable {
        public var code: Int32
        public var reason: String

        init(code: Int32 = errno) {
            self.code = code
            reason = String(cString: strerror(code))
        }

        init(reason: String) {
            code = 0
            self.reason = reason
        }

        /// The file is there but is not a regular file (a folder, a pipe, a device, a socket).
        public static let notRegular = Failure(reason: "it is not a regular file")
        /// The name is a symbolic link where the app writes.
        public static let symbolicLink = Failure(reason: "it is a symbolic link, which TouchTracker does not write through")
        /// The file has other names (a hard link): writing it would change them too.
        public static let otherNames = Failure(reason: "it has other names (hard links), which TouchTracker does not write through")
        /// The file belongs to another user.
        public static let notOwned = Failure(reason: "it belongs to another user")
    }

    /// Opens an existing regular file with `flags` (O_RDONLY, or O_WRONLY|O_APPEND and the like,
    /// never O_CREAT or O_TRUNC). O_NONBLOCK during the open keeps a named pipe from blocking it;
    /// the file type is checked on the open file, so nothing can be swapped in between.
    /// `followLinks` false refuses a symbolic link as the last component (for files the app writes).
    /// Returns the descriptor, in blocking mode, close-on-exec.
    public static func openRegular(_ path: String, flags: Int32, followLinks: Bool = true) -> Result<Int32, Failure> {
        let fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return .failure(errno == ELOOP && !followLinks ? .symbolicLink : Failure()) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = Failure()
            close(fd)
            return .failure(failure)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(.notRegular)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// Creates `path`, which must not exist (not even as a dangling link: O_EXCL never follows
    /// one), for writing, with `mode` less the umask.
    public static func createNew(_ path: String, mode: mode_t, flags: Int32 = O_WRONLY) -> Result<Int32, Failure> {
        let fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode)
        return fd >= 0 ? .success(fd) : .failure(Failure())
    }

    /// Creates a new file that takes the name `path` at once (a recording the user named): made
    /// under a temporary name with ``createNew(_:mode:flags:)`` and renamed over `path`, so what
    /// was there (a file, a link, a name of a file with several) is replaced, never written into.
    public static func createReplacing(_ path: String, mode: mode_t, flags: Int32 = O_WRONLY) -> Result<Int32, Failure> {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        switch createNew(temporary, mode: mode, flags: flags) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let fd):
            guard rename(temporary, path) == 0 else {
                let failure = Failure()
                close(fd)
                unlink(temporary)
                return .failure(failure)
            }
            return .success(fd)
        }
    }

    /// Opens or creates a file the app owns and rewrites in place (a lock file): never through a
    /// link, only a regular file of this user with no other name, so truncating it cannot reach
    /// anyone else's file.
    public static func openOwn(_ path: String, mode: mode_t) -> Result<Int32, Failure> {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode)
        guard fd >= 0 else { return .failure(errno == ELOOP ? .symbolicLink : Failure()) }
        var info = stat()
        let problem: Failure?
        if fstat(fd, &info) != 0 {
            problem = Failure()
        } else if info.st_mode & S_IFMT != S_IFREG {
            problem = .notRegular
        } else if info.st_nlink != 1 {
            problem = .otherNames
        } else if info.st_uid != geteuid() {
            problem = .notOwned
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            return .failure(problem)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// Reads a whole regular file of at most `maxBytes` (checked with fstat before reading a
    /// byte, and again while reading, for a file that grows). Nil for a missing file.
    public static func read(_ path: String, maxBytes: Int) -> Result<[UInt8]?, Failure> {
        let fd: Int32
        switch openRegular(path, flags: O_RDONLY) {
        case .success(let opened): fd = opened
        case .failure(let failure): return failure.code == ENOENT ? .success(nil) : .failure(failure)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure()) }
        let size = Int(info.st_size)
        guard size <= maxBytes else { return .failure(tooLarge(size, limit: maxBytes)) }
        // One byte more than the size, to notice a file that grew while being read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure())
            }
            if n == 0 { break }
            filled += n
            if filled == bytes.count, filled <= maxBytes {
                // It grew: read on, up to the limit.
                bytes += [UInt8](repeating: 0, count: min(maxBytes + 1, max(bytes.count * 2, 4096)) - bytes.count)
            }
        }
        guard filled <= maxBytes else {
            return .failure(Failure(reason: "the file grew past the \(byteCount(maxBytes)) limit while being read"))
        }
        bytes.removeLast(bytes.count - filled)
        return .success(bytes)
    }

    /// Writes every byte to `fd`, through short writes and interruptions; false (with `errno`
    /// set) when the system refuses.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += n
        }
        return true
    }

    static func tooLarge(_ size: Int, limit: Int) -> Failure {
        Failure(reason: "the file is \(byteCount(size)), more than the \(byteCount(limit)) limit")
    }

    /// "300 MB", "128 MiB", "12 KB": sizes for one-line messages (binary units for round limits).
    public static func byteCount(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1_000_000 { return "\(n / 1_000_000) MB" }
        if n >= 1000 { return "\(n / 1000) KB" }
        return "\(n) bytes"
    }
}
