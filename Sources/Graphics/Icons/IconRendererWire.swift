// What the app and its icon renderer say to each other over a pair of pipes. Both ends are the
// same executable, so integers go in the machine's own byte order.
//
// - The renderer starts by saying its process id (a UInt32), so the app can stop it when it hangs.
// - A request: the size in pixels (UInt32), the SVG's length in bytes (UInt32), the SVG.
// - An answer: 1 and then pixels x pixels bytes of coverage, row after row; or 0 when librsvg is
//   missing or cannot read the SVG.
#if canImport(Glibc)
import Glibc
#endif

enum IconRendererWire {
    /// The argument that starts the executable as an icon renderer instead of the app.
    static let argument = "--icon-renderer"
    static let drawn: UInt32 = 1
    static let notDrawn: UInt32 = 0

    static func request(svg: [UInt8], pixels: Int) -> [UInt8] {
        var bytes = word(UInt32(pixels)) + word(UInt32(svg.count))
        bytes += svg
        return bytes
    }

    static func word(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    static func value(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// Writes all of `bytes` to `fd`; false when the other end has gone.
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Reads exactly `count` bytes from `fd`, waiting at most until `deadline` (CLOCK_MONOTONIC
    /// nanoseconds; nil waits as long as it takes). Nil at the end of the stream, on an error or
    /// when the deadline passes.
    static func read(_ count: Int, from fd: Int32, deadline: UInt64?) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            if let deadline {
                let now = monotonicNanoseconds()
                guard now < deadline else { return nil }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { if ready == 0 { continue } else { return nil } }
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            offset += n
        }
        return bytes
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
