// The size sweep's printed report and every target line (PASS/FAIL), and small formatting helpers.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TouchTrackerKit
import CompositorHarness

extension TouchTrackerBench {
    // MARK: Output

    func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    func printRow(_ r: ClientResult) {
        let a = r.at60.latency, b = r.at120.latency
        say("\(r.name)" + (r.preloadSeconds > 0 ? String(format: " (preloaded in %.1f s)", r.preloadSeconds) : ""))
        say("  60 Hz:  input→commit p50/p99/max \(formatMs(a.toCommit.p50))/\(formatMs(a.toCommit.p99))/\(formatMs(a.toCommit.maxMilliseconds)) ms"
            + "  input→repaint \(formatMs(a.toRepaint.p50))/\(formatMs(a.toRepaint.p99))/\(formatMs(a.toRepaint.maxMilliseconds)) ms"
            + "  frames \(a.frames) commits \(a.commits) repaints \(a.repaints) missed \(a.withoutCommit)/\(a.withoutRepaint)"
            + String(format: "  CPU %.3f ms/frame (main thread %.3f)", r.at60.cpuPerFrameMs, r.at60.mainThreadPerFrameMs))
        say("  120 Hz: input→commit p50/p99/max \(formatMs(b.toCommit.p50))/\(formatMs(b.toCommit.p99))/\(formatMs(b.toCommit.maxMilliseconds)) ms"
            + "  input→repaint \(formatMs(b.toRepaint.p50))/\(formatMs(b.toRepaint.p99))/\(formatMs(b.toRepaint.maxMilliseconds)) ms"
            + "  frames \(b.frames) commits \(b.commits) repaints \(b.repaints) missed \(b.withoutCommit)/\(b.withoutRepaint)"
            + String(format: "  CPU %.3f ms/frame (main thread %.3f)", r.at120.cpuPerFrameMs, r.at120.mainThreadPerFrameMs))
        for phase in [r.at60, r.at120] {
            guard let share = phase.appShare else { continue }
            say("  \(Int(phase.rate)) Hz, in the app (read→commit): p50/p99/max \(formatMs(share.wall.p50))/\(formatMs(share.wall.p99))/\(formatMs(share.wall.maxMilliseconds)) ms"
                + ", CPU time of it \(formatMs(share.cpu.p50))/\(formatMs(share.cpu.p99))/\(formatMs(share.cpu.maxMilliseconds)) ms, \(share.wall.totalCount) frames")
        }
        say("  memory: VmRSS \(formatMiB(r.rssKiB)) MiB" + (r.resident.map { " (" + $0.summary + ")" } ?? "")
            + ", \(formatMiB(r.idleKiB)) MiB after 2.5 s idle, VmHWM \(formatMiB(r.peakKiB)) MiB")
    }

    func report(_ results: [ClientResult], reference: ClientResult?, targets: inout Targets) {
        say("\n## Summary (ms; input→commit with fingers at 60 Hz, input→repaint with fingers at 120 Hz; CPU per frame of the whole process at 120 Hz)")
        say("client                                          commit p50  p99    max     repaint p50  p99    max     CPU/frame  VmRSS MiB")
        for r in (reference.map { [$0] } ?? []) + results {
            let c = r.at60.latency.toCommit, p = r.at120.latency.toRepaint
            say(pad(r.name, 48) + pad(formatMs(c.p50), 12) + pad(formatMs(c.p99), 7) + pad(formatMs(c.maxMilliseconds), 8)
                + pad(formatMs(p.p50), 13) + pad(formatMs(p.p99), 7) + pad(formatMs(p.maxMilliseconds), 8)
                + pad(String(format: "%.3f", r.at120.cpuPerFrameMs), 11) + formatMiB(r.rssKiB))
        }
        if let reference {
            say("\nratios to weston-simple-touch (touchtracker / simple-touch)")
            let rc = reference.at60.latency.toCommit, rp = reference.at120.latency.toRepaint
            for r in results {
                let c = r.at60.latency.toCommit, p = r.at120.latency.toRepaint
                say(pad(r.name, 48) + "commit p50 " + ratio(c.p50, rc.p50) + "  p99 " + ratio(c.p99, rc.p99)
                    + "  repaint p50 " + ratio(p.p50, rp.p50) + "  p99 " + ratio(p.p99, rp.p99)
                    + "  CPU/frame " + ratio(r.at120.cpuPerFrameMs, reference.at120.cpuPerFrameMs)
                    + "  VmRSS " + ratio(Double(r.rssKiB), Double(reference.rssKiB)))
            }
        }

        func line(_ pass: Bool?, _ text: String) { targets.add(pass, text) }
        let bySize = Dictionary(results.filter { $0.drawing == .short($0.lines) }.map { ($0.lines, $0) }, uniquingKeysWith: { a, _ in a })
        if let r = bySize[10_000] {
            let p99 = r.at60.latency.toCommit.p99
            line(p99 <= 2 && r.at60.latency.withoutCommit == 0,
                 "p99 input-to-commit at 10,000 lines: \(formatMs(p99)) ms (at most 2 ms)")
        } else {
            line(nil, "p99 input-to-commit at 10,000 lines (not measured)")
        }
        if let big = bySize[100_000], let empty = bySize[0] {
            let a = big.at60.latency.toCommit.p99, b = empty.at60.latency.toCommit.p99
            line(a <= 1.5 * b, "p99 input-to-commit at 100,000 lines \(formatMs(a)) ms vs 0 lines \(formatMs(b)) ms: \(ratio(a, b)) (at most 1.5x)")
        } else {
            line(nil, "p99 input-to-commit at 100,000 vs 0 lines (not measured)")
        }
        for r in results {
            if let reference {
                let a = r.at120.latency.toRepaint.p50, b = reference.at120.latency.toRepaint.p50
                line(a <= 1.1 * b, "input-to-repaint median \(r.at) \(formatMs(a)) ms vs weston-simple-touch \(formatMs(b)) ms: \(ratio(a, b)) (at most 1.1x)")
            } else {
                line(nil, "input-to-repaint median \(r.at) vs weston-simple-touch (not measured)")
            }
        }
        let bufferKiB = width * 4 * height / 1024
        let limitKiB = 3 * bufferKiB + 20 * 1024
        // Once input stops: spare buffers made while input outran the compositor are given back
        // 2 s after their last use, so the figure 2.5 s after the last input is the one that stays.
        for r in results {
            line(r.idleKiB <= limitKiB, "resident memory \(r.at) once input stops \(formatMiB(r.idleKiB)) MiB, \(formatMiB(r.rssKiB)) MiB while fingers moved (at most 3 buffers of \(formatMiB(bufferKiB)) MiB + 20 MiB = \(formatMiB(limitKiB)) MiB once input stops)")
        }
    }

    func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2fx", a / b) : "n/a" }

}

/// The target lines of every phase, printed together at the end of the report.
struct Targets {
    private(set) var lines: [(pass: Bool?, text: String)] = []

    mutating func add(_ pass: Bool?, _ text: String) { lines.append((pass, text)) }

    func print() {
        say("\n## Targets")
        for line in lines {
            say((line.pass == nil ? "SKIP " : line.pass! ? "PASS " : "FAIL ") + line.text)
        }
    }
}

/// 12345678 as "12,345,678".
func grouped(_ n: UInt64) -> String {
    var digits = Array(String(n))
    var i = digits.count - 3
    while i > 0 {
        digits.insert(",", at: i)
        i -= 3
    }
    return String(digits)
}
