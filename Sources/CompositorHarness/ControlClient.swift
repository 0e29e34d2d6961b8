// The client side of our Weston plugin's control socket (meson-helpers/README.md has the protocol):
// one text command per line, one reply line per command.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A harness failure: the message says what went wrong and where to look.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A connection to the plugin's UNIX control socket.
public final class ControlClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    public let path: String

    /// Connects to the socket at `path`, retrying until `timeout` seconds have passed (Weston creates
    /// it while starting up).
    public init(path: String, timeout: Double = 10) throws {
        self.path = path
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw HarnessError("socket(): \(String(cString: strerror(errno)))") }
            if ControlClient.connect(fd, to: path) {
                self.fd = fd
                return
            }
            close(fd)
            if Date() > deadline {
                throw HarnessError("no harness control socket at \(path) after \(timeout) s")
            }
            usleep(20_000)
        }
    }

    deinit { close(fd) }

    private static func connect(_ fd: Int32, to path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Sends one command and returns the data after `ok` (empty when there is none).
    /// An `error ...` reply throws.
    @discardableResult
    public func send(_ command: String, timeout: Double = 20) throws -> String {
        let line = Array((command + "\n").utf8)
        var sent = 0
        while sent < line.count {
            let n = line[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("harness socket closed while sending '\(command)'")
            }
            sent += n
        }
        let reply = try readLine(timeout: timeout, command: command)
        if reply == "ok" { return "" }
        if reply.hasPrefix("ok ") { return String(reply.dropFirst(3)) }
        throw HarnessError("harness: '\(command)' -> \(reply)")
    }

    /// Sends several commands in one write, so the plugin runs them in one go and Weston delivers
    /// their events to clients together (as one burst from a real device would be); then reads
    /// every reply. The first `error` reply throws.
    public func sendAll(_ commands: [String], timeout: Double = 20) throws {
        let bytes = Array(commands.map { $0 + "\n" }.joined().utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("harness socket closed while sending \(commands)")
            }
            sent += n
        }
        for command in commands {
            let reply = try readLine(timeout: timeout, command: command)
            guard reply == "ok" || reply.hasPrefix("ok ") else { throw HarnessError("harness: '\(command)' -> \(reply)") }
        }
    }

    private func readLine(timeout: Double, command: String) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw HarnessError("harness: no reply to '\(command)' in \(timeout) s") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { throw HarnessError("poll(): \(String(cString: strerror(errno)))") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw HarnessError("harness socket closed (did Weston exit?) waiting for '\(command)'") }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw HarnessError("recv(): \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
