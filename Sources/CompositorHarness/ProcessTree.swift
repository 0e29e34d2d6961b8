// Finding and ending every process a session started, also those it did not start directly: a
// desktop session's D-Bus daemon starts services on demand (at-spi, calendar servers, ...), and
// they outlive it once reparented to init unless they are found while the tree is still whole.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A process as identified in `/proc`: its pid and its start time (which tells a live process
/// from a later one that reused the pid).
public struct ProcessIdentity: Hashable, Sendable, CustomStringConvertible {
    public let pid: Int32
    public let startTime: UInt64
    public let parent: Int32
    public let command: String

    public var description: String { "\(pid) (\(command))" }

    /// Reads `/proc/PID/stat`; nil if the process is gone.
    public init?(pid: Int32) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command: state, ppid, ... starttime is field 22 of the whole line.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let parent = Int32(fields[1]), let start = UInt64(fields[19]) else { return nil }
        self.pid = pid
        self.parent = parent
        self.startTime = start
        self.command = String(text[text.index(after: open)..<close])
    }

    /// Whether this very process still exists (and is not a zombie waiting to be reaped).
    public var isAlive: Bool {
        guard let now = ProcessIdentity(pid: pid), now.startTime == startTime else { return false }
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
            .split(separator: ")").last?.split(separator: " ").first
        return state != "Z"
    }
}

/// The process table at one moment.
public enum ProcessTree {
    public static func all() -> [ProcessIdentity] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { Int32($0) }.compactMap { ProcessIdentity(pid: $0) }
    }

    /// Every descendant of the given processes (children, their children, ...), not the roots.
    public static func descendants(of roots: [Int32]) -> [ProcessIdentity] {
        let table = all()
        var children: [Int32: [ProcessIdentity]] = [:]
        for process in table { children[process.parent, default: []].append(process) }
        var found: [ProcessIdentity] = []
        var queue = roots
        while let pid = queue.popLast() {
            for child in children[pid] ?? [] {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }

    /// Sends SIGTERM to those still alive, waits up to `grace` seconds, then SIGKILLs the rest.
    /// Returns the processes that had to be killed.
    @discardableResult
    public static func end(_ processes: [ProcessIdentity], grace: Double = 2) -> [ProcessIdentity] {
        var alive = processes.filter(\.isAlive)
        for process in alive { kill(process.pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while !alive.isEmpty, Date() < deadline {
            usleep(20_000)
            alive = alive.filter(\.isAlive)
        }
        for process in alive { kill(process.pid, SIGKILL) }
        return alive
    }
}

/// Starting a program as a desktop session would: no signal blocked, none ignored.
///
/// A test runner starts children from threads that block nearly every signal (libdispatch's
/// worker threads do), and a child inherits its parent thread's mask across exec. Started that
/// way, a session dbus-daemon never sees SIGCHLD, so the babysitter of a service it activates
/// waits forever for the service's exit and the whole bus hangs (seen with gnome-shell's calendar
/// server); gnome-shell and others never see SIGTERM. Foundation's `Process` cannot set a child's
/// mask, so the child goes through a one-line exec shim that clears it first.
public enum CleanExec {
    static let python = "/usr/bin/python3"
    static let shim = """
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        for s in (signal.SIGPIPE, signal.SIGXFSZ): signal.signal(s, signal.SIG_DFL)
        os.execv(sys.argv[1], sys.argv[1:])
        """

    /// The command line that runs `executable` with `arguments` through the shim (Debian's
    /// python3, isolated from the caller's Python settings); the same pid ends up running
    /// `executable`. Without /usr/bin/python3, the program itself.
    public static func command(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        guard FileManager.default.isExecutableFile(atPath: python) else { return (executable, arguments) }
        return (python, ["-I", "-S", "-c", shim, executable] + arguments)
    }
}
