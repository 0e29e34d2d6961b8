// The screens people touch: the cadence sweep's ten fingers at 60 and 120 Hz on a standard matrix
// of Weston outputs (a 1080p monitor, a 2560x1600 laptop panel at 200 %, a 4K monitor at 200 % and
// at 100 %), the app on the empty canvas beside weston-simple-touch on each, in the same run.
import Foundation
import CompositorHarness

extension TouchTrackerBench {
    static let screenMatrix = [
        BenchScreen(width: 1920, height: 1080, scale: 1), BenchScreen(width: 2560, height: 1600, scale: 2),
        BenchScreen(width: 3840, height: 2160, scale: 2), BenchScreen(width: 3840, height: 2160, scale: 1),
    ]
    static let screenCadences: [Double] = [60, 120]

    func screenSweep(appPath: String, targets: inout Targets) throws {
        let seconds = cadenceSeconds ?? (quick ? 1.5 : 4)
        let minimum = quick ? 0 : Self.cadenceFrames
        say("\n## Screens under Weston: ten fingers at \(Self.screenCadences.map { "\(Int($0))" }.joined(separator: " and ")) Hz on each screen, the app on the empty canvas and weston-simple-touch (ms)")
        say("screen                      Hz    app input→commit p50  p99     input→repaint median app / simple-touch   p99 app / simple-touch")
        for screen in Self.screenMatrix {
            let app = try measureCadences(.app(path: appPath, drawing: .empty), cadences: Self.screenCadences, seconds: seconds,
                                          minimumFrames: minimum, jitter: jitter, on: screen)
            let reference = noReference ? nil : try measureCadences(.reference, cadences: Self.screenCadences, seconds: seconds,
                                                                    minimumFrames: minimum, jitter: jitter, on: screen)
            if let failure = app.failure {
                say(pad("\(screen)", 28) + "the app failed: \(failure)")
                targets.add(false, "ten fingers at \(screen): the app failed (\(failure))")
                continue
            }
            for hz in Self.screenCadences {
                guard let mine = app.at(hz)?.latency else { continue }
                reportAgainstReference(mine, reference?.at(hz)?.latency, row: pad("\(screen)", 28) + pad("\(Int(hz))", 6),
                                       what: "ten fingers at \(Int(hz)) Hz, \(screen)", targets: &targets)
            }
        }
    }

    /// One row of the app's latency beside weston-simple-touch's (`row` leads it), and the
    /// screens' targets for it: p99 input→commit at most 2 ms, input→repaint median and p99 at
    /// most 1.1x weston-simple-touch's.
    func reportAgainstReference(_ mine: LatencyReport, _ theirs: LatencyReport?, row: String, what: String,
                                targets: inout Targets) {
        func versus(_ a: Double, _ b: Double?) -> String {
            let other: String = b.map { formatMs($0) } ?? "-"
            let ratio: String = b.map { $0 > 0 ? String(format: "%.2fx", a / $0) : "-" } ?? "-"
            return "\(formatMs(a)) / \(other) (\(ratio))"
        }
        let commit: String = pad(formatMs(mine.toCommit.p50), 22) + pad(formatMs(mine.toCommit.p99), 8)
        say(row + commit + pad(versus(mine.toRepaint.p50, theirs?.toRepaint.p50), 42) + versus(mine.toRepaint.p99, theirs?.toRepaint.p99))
        targets.add(mine.toCommit.p99 <= 2, "\(what): p99 input→commit \(formatMs(mine.toCommit.p99)) ms (at most 2 ms)")
        if let theirs, theirs.toRepaint.p50 > 0, theirs.toRepaint.p99 > 0 {
            let median = mine.toRepaint.p50 / theirs.toRepaint.p50, tail = mine.toRepaint.p99 / theirs.toRepaint.p99
            targets.add(median <= 1.1 && tail <= 1.1, "\(what): input→repaint median \(String(format: "%.2f", median))x and p99 \(String(format: "%.2f", tail))x weston-simple-touch's (at most 1.1x)")
        }
    }
}
