// A process started inside a compositor session, its output captured to files.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A process started inside a session, with its output captured to files.
public final class ChildProcess {
    public let process: Process
    public let name: String
    public let stdoutPath: String
    public let stderrPath: String

    package init(name: String, executable: String, arguments: [String], environment: [String: String],
         directory: String) throws {
        self.name = name
        stdoutPath = directory + "/\(name).stdout"
        stderrPath = directory + "/\(name).stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        // A child inherits the spawning thread's signal mask, and the test runner's threads block
        // most signals: unblock them for the spawn, or SIGTERM would never reach the child.
        var unblocked = sigset_t(), previous = sigset_t()
        sigemptyset(&unblocked)
        pthread_sigmask(SIG_SETMASK, &unblocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        do { try process.run() } catch {
            throw HarnessError("cannot start \(executable): \(error)")
        }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Waits up to `timeout` seconds; returns the exit status, or nil if it is still running.
    /// A process ended by a signal reports 128 + the signal number, as a shell would.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    public func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Ends the process: SIGTERM, then SIGKILL if it lingers.
    public func stop() {
        guard process.isRunning else { return }
        signal(SIGTERM)
        if waitForExit(timeout: 3) == nil {
            signal(SIGKILL)
            _ = waitForExit(timeout: 3)
        }
    }

    public var standardOutput: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

extension ChildProcess {
    /// A client of a compositor session, named after its executable (or `name`) and `number`,
    /// started through ``CleanExec`` (default signal handling, whatever the test runner set) with
    /// the session's environment, in the session's folder.
    public static func client(_ executable: String, _ arguments: [String], name: String?, number: Int,
                              environment: [String: String], directory: String) throws -> ChildProcess {
        let base = name ?? URL(fileURLWithPath: executable).lastPathComponent
        let command = CleanExec.command(executable, arguments)
        return try ChildProcess(name: "\(base)-\(number)", executable: command.executable, arguments: command.arguments,
                                environment: environment, directory: directory)
    }
}
