// What the benchmark measures: the plugin's latency records (input frame -> commit -> repaint) in
// HdrHistograms, and a client's CPU time and resident memory from /proc.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import Graphics
import Histogram
import CompositorHarness

/// Latencies in microseconds, 1 µs to 10 s at 3 significant digits.
typealias Latencies = Histogram<UInt64>

func makeLatencies() -> Latencies {
    Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
}

extension Histogram where Count == UInt64 {
    var p50: Double { Double(valueAtPercentile(50)) / 1000 }
    var p99: Double { Double(valueAtPercentile(99)) / 1000 }
    var maxMilliseconds: Double { Double(max) / 1000 }

    /// How many recorded values are above `microseconds`.
    func count(above microseconds: UInt64) -> UInt64 {
        count(within: (microseconds + 1)...Swift.max(max, microseconds + 1))
    }
}

/// The plugin's `latency report`, turned into histograms.
struct LatencyReport {
    /// Damaged commits of the measured client while recording.
    var commits = 0
    /// Output repaints while recording.
    var repaints = 0
    /// Of them, repaints of the whole output (its damage covered it).
    var wholeRepaints = 0
    var frames = 0
    var toCommit = makeLatencies()
    var toRepaint = makeLatencies()
    /// Frames with no commit (or no repaint) by the end of the recording.
    var withoutCommit = 0
    var withoutRepaint = 0
    /// Each frame's input and commit times (CLOCK_MONOTONIC, ns; commit 0 for none).
    var records: [(input: UInt64, commit: UInt64)] = []

    init(_ reply: String) throws {
        let fields = reply.split(separator: " ")
        guard fields.count >= 4, let c = Int(fields[0]), let r = Int(fields[1]), let w = Int(fields[2]),
              let n = Int(fields[3]), fields.count == 4 + n else { throw HarnessError("bad latency report: \(reply.prefix(200))") }
        commits = c
        repaints = r
        wholeRepaints = w
        frames = n
        for record in fields.dropFirst(4) {
            let t = record.split(separator: ":").compactMap { UInt64($0) }
            guard t.count == 3 else { throw HarnessError("bad latency record \(record)") }
            records.append((t[0], t[1]))
            if t[1] < t[0] || t[1] == 0 { withoutCommit += 1 }
            if t[2] >= t[0], t[2] > 0 {
                _ = toRepaint.record(max(1, (t[2] - t[0]) / 1000))
            } else {
                withoutRepaint += 1
            }
        }
        toCommit = commitLatencies { _ in true }
    }

    /// Input→commit (µs) of the frames `keep` chooses by their place in ``records``; frames
    /// without a commit are left out (``withoutCommit`` counts them).
    func commitLatencies(of keep: (Int) -> Bool) -> Latencies {
        var latencies = makeLatencies()
        for (n, record) in records.enumerated() where keep(n) && record.commit >= record.input && record.commit > 0 {
            _ = latencies.record(max(1, (record.commit - record.input) / 1000))
        }
        return latencies
    }
}

/// Waits (at most 30 s) until process `pid` uses no CPU for 0.3 s: a client that has read its
/// drawing and made its line cache.
func waitForIdle(_ pid: Int32) {
    var last = cpuSeconds(pid: pid) ?? 0
    let idleBy = tt_monotonic_now() + 30
    repeat {
        usleep(300_000)
        let now = cpuSeconds(pid: pid) ?? 0
        if now - last < 0.01 { return }
        last = now
    } while tt_monotonic_now() < idleBy
}

/// A process's CPU time (user + system, all threads) in seconds, from /proc/PID/stat; with
/// `thread`, that thread's alone (/proc/PID/task/TID/stat).
func cpuSeconds(pid: Int32, thread: Int32? = nil) -> Double? {
    let path = thread.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
    guard let text = readWholeFile(path), let close = text.lastIndex(of: ")") else { return nil }
    // Fields after "pid (comm) ": state is field 3, utime 14, stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// A field of /proc/PID/status in KiB (VmRSS, VmHWM).
func statusKiB(pid: Int32, _ field: String) -> Int? {
    guard let text = readWholeFile("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
    }
    return nil
}

/// Where a process's resident memory lies, in KiB, from /proc/PID/smaps.
struct ResidentMemory {
    /// Shared-memory files the process mapped: its window buffers and cursor images.
    var sharedMemory = 0
    /// The line cache's rasters, shared memory a scroll moves without copying (ImageSurface's
    /// scrollable images).
    var rasters = 0
    /// Anonymous memory: heaps, stacks, offscreen images other than the line cache's.
    var anonymous = 0
    /// The executable, shared libraries, fonts and other files mapped from disk.
    var files = 0
    var largestAnonymous = 0

    init?(pid: Int32) {
        guard let text = readWholeFile("/proc/\(pid)/smaps") else { return nil }
        var name = ""
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                name = fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
            } else if line.hasPrefix("Rss:") {
                let kib = Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) ?? 0
                if name.hasPrefix("/memfd:\(ImageSurface.scrollableFileName)") {
                    rasters += kib
                } else if name.hasPrefix("/memfd:") || name.hasPrefix("/dev/shm") {
                    sharedMemory += kib
                } else if name.isEmpty || name.hasPrefix("[") {
                    anonymous += kib
                    if name.isEmpty { largestAnonymous = max(largestAnonymous, kib) }
                } else {
                    files += kib
                }
            }
        }
    }

    var summary: String {
        "shared memory \(formatMiB(sharedMemory)) (window buffers, cursors), line cache \(formatMiB(rasters)), anonymous \(formatMiB(anonymous)) (largest block \(formatMiB(largestAnonymous))), files \(formatMiB(files)) (code, libraries, fonts) MiB"
    }
}

/// A whole /proc file: they report size 0, so read until the end rather than by size.
func readWholeFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Sleeps until the CLOCK_MONOTONIC time `deadline` (seconds).
func sleep(until deadline: Double) {
    var ts = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

func formatMs(_ v: Double) -> String { String(format: "%.2f", v) }
func formatMiB(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }

/// One line to standard output, written at once (the run is long; a pipe should see progress).
func say(_ text: String = "") {
    let bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        offset += n
    }
}

/// The screen a run measures: an output of `width` x `height` pixels at `scale` buffer pixels per
/// point. Weston 10's outputs take whole scales; a fractional one (a laptop at 125 % or 150 %) is
/// measured in process and under KWin.
struct BenchScreen: CustomStringConvertible {
    var width: Int
    var height: Int
    var scale: Double

    /// The window's size in points (at 125 %, 1280x960 pixels are 1024x768 points).
    var points: (width: Int, height: Int) {
        let s = max(scale, 1)
        return (Int((Double(width) / s).rounded()), Int((Double(height) / s).rounded()))
    }
    /// The scale as Weston's output takes it, nil for a fractional one.
    var wholeScale: Int? { scale.rounded() == scale ? Int(scale) : nil }
    /// The scale as people write it: 2, 1.25.
    var scaleName: String { wholeScale.map(String.init) ?? String(scale) }
    var description: String { "\(width)x\(height) at scale \(scaleName)" }
}
