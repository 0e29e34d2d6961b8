// Drawing files on disk: where the default one lives, reading with a size limit, writing
// atomically (temporary file in the same folder, fsync, rename, fsync of the folder) and moving
// an unreadable file aside without ever overwriting anything. Plain POSIX calls, no Foundation:
// every failure keeps its errno text for the one-line messages users see.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import SafeFiles
import Synchronization

/// Where drawings live when no `--file` is given.
public enum DrawingLocation {
    /// The default drawing's file name.
    public static let defaultFileName = "drawing.json"

    /// `$XDG_DATA_HOME/touchtracker`, else `~/.local/share/touchtracker` (XDG Base Directory:
    /// an unset, empty or relative `XDG_DATA_HOME` is ignored).
    public static func defaultDirectory(environment: (String) -> String? = DrawingLocation.environment) -> String {
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return DrawingFile.join(data, "touchtracker")
        }
        return DrawingFile.join(homeDirectory(environment: environment), ".local/share/touchtracker")
    }

    /// The default drawing: `defaultDirectory()/drawing.json`.
    public static func defaultFile(environment: (String) -> String? = DrawingLocation.environment) -> String {
        DrawingFile.join(defaultDirectory(environment: environment), defaultFileName)
    }

    /// Where exports go: the user's pictures folder, `XDG_PICTURES_DIR` of
    /// `$XDG_CONFIG_HOME/user-dirs.dirs` (else `~/.config/user-dirs.dirs`), else `~/Pictures`.
    /// A pictures folder set to the home folder itself means "none" (xdg-user-dirs writes that
    /// for a folder the user removed): `~/Pictures` then.
    public static func picturesDirectory(environment: (String) -> String? = DrawingLocation.environment) -> String {
        let home = homeDirectory(environment: environment)
        let fallback = DrawingFile.join(home, "Pictures")
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? DrawingFile.join(home, ".config")
        guard case .bytes(let bytes)? = try? DrawingFile.read(DrawingFile.join(config, "user-dirs.dirs"), maxBytes: Limit.settingsFileBytes)
        else { return fallback }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
            var value = line.dropFirst("XDG_PICTURES_DIR=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            let path = value.hasPrefix("$HOME") ? home + value.dropFirst("$HOME".count) : String(value)
            guard path.hasPrefix("/"), path != home, path != home + "/" else { return fallback }
            return path
        }
        return fallback
    }

    /// `$HOME`, else the password database's home for this user, else `/tmp`.
    static func homeDirectory(environment: (String) -> String?) -> String {
        if let home = environment("HOME"), home.hasPrefix("/") { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/tmp"
    }

    /// The process environment.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// A file-system failure, with the path and the reason, in one line.
public struct FileIOError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The errno, or 0 when the problem is not the system's (a file too large to read).
    public var code: Int32
    /// What was being done: "write", "create a temporary file in", ...
    public var action: String
    public var path: String
    /// Why it failed, e.g. "No space left on device".
    public var reason: String
    /// "cannot write /a/drawing.json: No space left on device".
    public var message: String { "cannot \(action) \(path): \(reason)" }
    public var description: String { message }

    /// A failure of the last system call, from `errno`.
    init(_ action: String, _ path: String, code: Int32 = errno) {
        self.code = code
        self.action = action
        self.path = path
        reason = String(cString: strerror(code))
        // "File too large" alone does not tell a user what to do.
        if code == EFBIG { reason += " (a file-size limit was reached)" }
    }

    init(_ action: String, _ path: String, _ failure: SafeFile.Failure) {
        if failure.code != 0 {
            self.init(action, path, code: failure.code)
        } else {
            self.init(action, path, reason: failure.reason)
        }
    }

    init(_ action: String, _ path: String, reason: String) {
        code = 0
        self.action = action
        self.path = path
        self.reason = reason
    }
}

/// File operations on drawings.
public enum DrawingFile {
    // MARK: Paths

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part of a path ("." for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `path` as an absolute path (relative to the working directory), with symbolic links of an
    /// existing file resolved so that saving replaces the file and not the link; for a file not
    /// there yet, its folder's links are resolved. Every name of one drawing gives the same path,
    /// so its lock and its saves agree.
    public static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let name = name(of: path)
        if !name.isEmpty, name != ".", name != "..", let folder = realpath(folder(of: path), nil) {
            defer { free(folder) }
            return join(String(cString: folder), name)
        }
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return join(String(cString: cwd), path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// Creates `folder` and its missing parents (new folders get mode 0700: drawings are private).
    public static func createFolder(_ folder: String) throws(FileIOError) {
        var isFolder = stat()
        if stat(folder, &isFolder) == 0 {
            guard isFolder.st_mode & S_IFMT == S_IFDIR else {
                throw FileIOError("use", folder, reason: "it is not a folder")
            }
            return
        }
        let parent = DrawingFile.folder(of: folder)
        if parent != folder, parent != "." { try createFolder(parent) }
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw FileIOError("create the folder", folder) }
    }

    // MARK: Reading

    /// What reading found.
    public enum ReadResult: Sendable {
        case bytes([UInt8])
        case missing
    }

    /// Reads a whole regular file of at most `maxBytes`, without reading a larger one at all and
    /// without blocking on a named pipe (``SafeFile/read(_:maxBytes:)``).
    public static func read(_ path: String, maxBytes: Int) throws(FileIOError) -> ReadResult {
        switch SafeFile.read(path, maxBytes: maxBytes) {
        case .success(let bytes?): return .bytes(bytes)
        case .success(nil): return .missing
        case .failure(let failure): throw FileIOError(failure.code == 0 ? "read" : "open", path, failure)
        }
    }

    // MARK: Writing

    private static let temporaryCounter = Atomic<Int>(0)

    /// The prefix of temporary files for `path`, hidden: `.drawing.json.tmp-`.
    static func temporaryPrefix(for path: String) -> String { "." + name(of: path) + ".tmp-" }

    /// Writes every byte to `fd`, through short writes and interruptions; false (with `errno`
    /// set) when the system refuses.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool { SafeFile.writeAll(bytes, to: fd) }

    /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old file or
    /// the new one, complete: writes a temporary file in the same folder (created anew: a name
    /// planted there, as a link or a file, makes it fail rather than be written through), fsyncs
    /// it, renames it over `path` and fsyncs the folder. On failure the temporary file is removed
    /// and `path` is untouched. An existing file's permissions are kept; a new file is private
    /// (0600) unless `newMode` says otherwise.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, newMode: mode_t = 0o600) throws(FileIOError) {
        let folder = folder(of: path)
        let counter = temporaryCounter.wrappingAdd(1, ordering: .relaxed).newValue
        let temporary = join(folder, temporaryPrefix(for: path) + "\(getpid())-\(counter)")
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : newMode
        let fd: Int32
        switch SafeFile.createNew(temporary, mode: mode) {
        case .success(let created): fd = created
        case .failure(let failure): throw FileIOError("create a temporary file in", folder, failure)
        }
        func fail(_ action: String) -> FileIOError {
            let error = FileIOError(action, path)
            close(fd)
            unlink(temporary)
            return error
        }
        guard writeAll(bytes, to: fd) else { throw fail("write") }
        // The umask may have narrowed the mode of a new file; an existing file's mode is kept.
        if existing.st_mode != 0 { fchmod(fd, mode) }
        guard fsync(fd) == 0 else { throw fail("write (fsync)") }
        guard close(fd) == 0 else {
            let error = FileIOError("write (close)", path)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileIOError("replace", path)
            unlink(temporary)
            throw error
        }
        try syncFolder(folder)
    }

    /// The permission bits of `path`, or 0o600 when it does not exist (the journal gets those of
    /// its drawing: private drawings stay private).
    static func mode(of path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o600
    }

    /// Makes a rename in `folder` durable. Filesystems that cannot sync folders are tolerated.
    static func syncFolder(_ folder: String) throws(FileIOError) {
        let fd = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIOError("open the folder", folder) }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL, errno != EROFS { throw FileIOError("sync the folder", folder) }
    }

    /// Removes temporary files a killed TouchTracker left next to `path` (those of processes that
    /// no longer run).
    public static func removeStaleTemporaryFiles(for path: String) {
        let folder = folder(of: path)
        let prefix = temporaryPrefix(for: path)
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        var stale: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { stale.append(name) }
        }
        for name in stale { unlink(join(folder, name)) }
    }

    // MARK: Moving aside

    /// Renames an unreadable file to `<stem>.unreadable-<YYYYmmdd-HHMMSS>[-n].<ext>` in its folder,
    /// never replacing an existing file, and returns the new path.
    public static func moveAside(_ path: String, now: time_t = time(nil)) throws(FileIOError) -> String {
        let folder = folder(of: path)
        let name = name(of: path)
        let stem: Substring, ext: Substring
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            stem = name[..<dot]
            ext = name[dot...]
        } else {
            stem = name[...]
            ext = ""
        }
        let stamp = timestamp(now)
        for attempt in 1...100 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let target = join(folder, "\(stem).unreadable-\(stamp)\(suffix)\(ext)")
            // link() fails if the target exists: nothing is ever overwritten.
            if link(path, target) == 0 {
                unlink(path)
                return target
            }
            if errno == EEXIST { continue }
            // Filesystems without hard links, or a folder that is not a regular file's: rename
            // after checking that the name is free.
            var info = stat()
            if lstat(target, &info) == 0 { continue }
            guard rename(path, target) == 0 else { throw FileIOError("move aside", path) }
            return target
        }
        throw FileIOError("move aside", path, reason: "too many unreadable copies already")
    }

    /// Local time as `20250131-235959`, for file names.
    static func timestamp(_ now: time_t) -> String {
        var t = now
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
