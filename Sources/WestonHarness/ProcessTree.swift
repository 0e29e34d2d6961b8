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
