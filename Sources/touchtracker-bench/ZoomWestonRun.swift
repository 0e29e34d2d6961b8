// The zoom phase under Weston (`zoom-weston`): the real app, Fingers off from its preferences
// file, the in-process phase's six gestures and a pinch past 10 % that springs back (S12),
// injected as touch at 60 Hz (one `touch batch` a frame). The app's own figures, from
// `--latency`: the CPU of its share of each touch frame (reading the input to the commit: it
// spans the turns between, so a rebuild's slices run then count in it), and the turns of the
// event loop that took over 2 ms of CPU (`slow turn`), the per-turn figure: their count and the
// largest. Sharp: the app's last commit after the fingers stop, or after the spring back ends (a
// finished rebuild is shown in a commit of its own; nothing is committed once it is whole), found
// by watching the compositor's commit count. VmRSS 2.5 s after the lift, at 800 % and at 10 %,
// beside the drawing's when just opened.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import TouchTrackerKit

struct ZoomWestonStep {
    var drawing: String
    var gesture: String
    var frameCPU: Latencies
    /// CPU of the turns over 2 ms, from the app's log (all turns, with input or without).
    var slowTurns: [Double]
    var sharpAfter: Double
    /// For a pinch past a limit: the last commit after its spring back ended, the gesture's end.
    var sharpAfterSpringBack: Double?
    var rssKiB: Int
}

extension ZoomWestonStep {
    /// The gesture that ends past a limit, judged from its spring back's end.
    static let springingBack = "pinch past 10 %, springing back"
    /// How long a zoom past a limit springs back once the fingers lift (S12: a quarter of a second).
    static let springBackSeconds = 0.25
}

extension TouchTrackerBench {
    func measureZoomUnderWeston(appPath: String, drawing: CanvasDrawing) throws -> [ZoomWestonStep] {
        // Opened at 100 % from the drawing's origin, as the gestures' names say and as the
        // in-process phase starts: a drawing a line's width wider than a phone's window would
        // open fitted (88 %), and the pinch to 10 % would end past the limit and spring back.
        let running = try start(.app(path: appPath, drawing: drawing), extraArguments: ["--latency"],
                                preferences: "fingers-draw = false\n", view: CanvasViewport(origin: .zero, zoom: 1))
        defer { finish(running) }
        let session = running.session, window = running.window, pid = running.pid
        let hz = 60.0, frames = quick ? 30 : 60
        let gestures = Self.zoomTouchGestures(window: (window.x, window.y, window.width, window.height))
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        var steps: [ZoomWestonStep] = [
            ZoomWestonStep(drawing: drawing.name, gesture: "opened, at 100 %", frameCPU: makeLatencies(), slowTurns: [], sharpAfter: 0,
                           rssKiB: statusKiB(pid: pid, "VmRSS") ?? 0),
        ]
        for (name, path) in gestures {
            let began = tt_monotonic_now()
            let logStart = running.child.standardError.utf8.count
            var next = began
            func send(_ command: String) throws {
                sleep(until: next)
                try session.control.send(command)
                next += 1 / hz
            }
            let (a0, b0) = path(0)
            try send("touch batch d 0 \(f(a0.0)) \(f(a0.1)) d 1 \(f(b0.0)) \(f(b0.1)) f")
            for n in 1...frames {
                let (a, b) = path(Double(n) / Double(frames))
                try send("touch batch m 0 \(f(a.0)) \(f(a.1)) m 1 \(f(b.0)) \(f(b.1)) f")
            }
            let stopped = next - 1 / hz
            // Still for a tenth of a second, watching the commits: a rebuild done meanwhile is
            // shown in a commit of its own (nothing else moves then).
            var commits = try session.commitCount(), lastChange = stopped
            func watch(until end: Double) throws {
                while tt_monotonic_now() < end {
                    usleep(2_000)
                    let now = try session.commitCount()
                    if now != commits { commits = now; lastChange = tt_monotonic_now() }
                }
            }
            try watch(until: stopped + 0.1)
            next = stopped + 0.1
            try send("touch batch u 0 u 1 f")
            let lifted = tt_monotonic_now()
            // Then until no commit has come for half a second. Lifting navigating fingers shows
            // nothing new, so a commit after the lift is work still going on (a rebuild, a zoom
            // springing back from past a limit).
            while tt_monotonic_now() - lastChange < 0.5, tt_monotonic_now() - stopped < 10 {
                usleep(2_000)
                let now = try session.commitCount()
                if now != commits { commits = now; lastChange = tt_monotonic_now() }
            }
            let sharp = lastChange
            // Spare buffers made while input outran the compositor are given back 2 s after their
            // last use: memory is read 2.5 s after the lift, as the sizes phase reads it.
            sleep(until: lifted + 2.5)
            let log = running.child.standardError
            let share = appShare(inLog: log, readSince: began)
            let slow = slowTurns(inLog: String(decoding: log.utf8.dropFirst(logStart), as: UTF8.self))
            let springsBack = name == ZoomWestonStep.springingBack
            steps.append(ZoomWestonStep(drawing: drawing.name, gesture: name, frameCPU: share.cpu, slowTurns: slow,
                                        sharpAfter: max(sharp - stopped, 0),
                                        sharpAfterSpringBack: springsBack ? max(sharp - (lifted + ZoomWestonStep.springBackSeconds), 0) : nil,
                                        rssKiB: statusKiB(pid: pid, "VmRSS") ?? 0))
        }
        return steps
    }

    /// Two fingers' paths in global points, each from `t` 0 to 1.
    typealias TwoFingerTouchPath = (Double) -> ((Double, Double), (Double, Double))

    /// The in-process phase's gestures as touch in a window at (x, y) of width x height points,
    /// and one more past 10 % that springs back, for the phases under a compositor.
    static func zoomTouchGestures(window: (x: Double, y: Double, width: Double, height: Double)) -> [(String, TwoFingerTouchPath)] {
        let canvasHeight = window.height - 130
        let centre = (x: window.x + window.width / 2, y: window.y + canvasHeight / 2)
        let span = min(window.width - 40, 800)
        func eased(_ t: Double) -> Double { t < 0.75 ? t / 0.875 : (t - 2 * (t - 0.75) * (t - 0.75)) / 0.875 }
        func pinch(from: Double, to: Double) -> TwoFingerTouchPath {
            { t in let half = (from + (to - from) * eased(t)) / 2; return ((centre.x - half, centre.y), (centre.x + half, centre.y)) }
        }
        let (reach, spread) = panFit(width: window.width, height: canvasHeight)
        func pan(_ dx: Double, _ dy: Double) -> TwoFingerTouchPath {
            let (dx, dy) = (dx * reach.x, dy * reach.y)
            return { t in
                let x = centre.x - dx / 2 + dx * eased(t), y = centre.y - dy / 2 + dy * eased(t)
                return ((x - spread, y), (x + spread, y))
            }
        }
        return [
            ("two-finger pan at 100 %", pan(-600, -200)),
            ("pinch in, 100 % to 800 %", pinch(from: span / 8, to: span)),
            ("two-finger pan at 800 %", pan(600, 200)),
            ("pinch out, 800 % to 100 %", pinch(from: span, to: span / 8)),
            // Two points short of 10 %: where a pinch ends depends on where the recognizer took
            // the fingers' first distance and on the zoom the pinch back left (100 % give or take
            // 1 %), and a pinch that ends past the limit springs back for a quarter of a second
            // (S12) before the raster is made at 10 %: a bounce, not a rebuild.
            ("pinch out, 100 % to 10 %", pinch(from: span, to: span / 10 + 2)),
            // Fingers closing on at the limit, as a user pinching out as far as it goes does: the
            // zoom follows them less and less, and springs back to 10 % when they lift (S12).
            (ZoomWestonStep.springingBack, pinch(from: span, to: span * 0.7)),
            ("two-finger pan at 10 %", pan(600, 200)),
        ]
    }

    /// The CPU of the `slow turn` lines in `log`, the app's log from a gesture's first event on.
    /// Each line follows its turn, before the frame line the turn committed: counted from the first
    /// frame read after the gesture began instead, the turn that read its first touches (the
    /// first query of a drawing's hit-test index, a spare buffer's pages) went uncounted.
    func slowTurns(inLog log: String) -> [Double] {
        var found: [Double] = []
        for line in log.split(separator: "\n") {
            guard let r = line.range(of: "slow turn: ") else { continue }
            if let ms = Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." }) { found.append(ms) }
        }
        return found
    }

    func zoomWestonTable(appPath: String, targets: inout Targets) throws {
        say("\n## Zoom and pan under Weston, \(screen) (Fingers off; the in-process phase's gestures as touch at 60 Hz; the app's --latency figures, ms)")
        say(Self.zoomStepsHeader)
        for drawing in [CanvasDrawing.empty, .sketch(60), .short(100_000), .dense(denseLines)] {
            let steps = try measureZoomUnderWeston(appPath: appPath, drawing: drawing)
            reportZoomSteps(steps, drawing: drawing, under: "Weston", bufferKiB: screen.width * 4 * screen.height / 1024, targets: &targets)
        }
    }

    static let zoomStepsHeader = "drawing / gesture                          frames  app's share CPU p50   turns >2 ms  >4 ms  largest   sharp after   VmRSS (MiB)"

    /// One drawing's rows of a zoom phase under a compositor, and their targets (the big
    /// drawings'; the empty canvas and the sketch show what paper costs). `bufferKiB`: one of the
    /// window's buffers.
    func reportZoomSteps(_ steps: [ZoomWestonStep], drawing: CanvasDrawing, under compositor: String, bufferKiB: Int,
                         targets: inout Targets) {
        let limitKiB = 3 * bufferKiB + 20 * 1024
        say(drawing.name)
        for step in steps {
            guard step.frameCPU.totalCount > 0 else {
                // Opened, or a gesture over paper alone: nothing on screen changed, nothing committed.
                let opened = step.gesture.hasPrefix("opened")
                say("  " + pad(step.gesture, 41) + (opened ? pad("", 77) : pad("0", 8) + pad("(nothing shown changed: no commit)", 69))
                    + formatMiB(step.rssKiB))
                continue
            }
            let largest = step.slowTurns.max() ?? 0
            say("  " + pad(step.gesture, 41) + pad("\(step.frameCPU.totalCount)", 8) + pad(formatMs(step.frameCPU.p50), 22)
                + pad("\(step.slowTurns.count)", 13) + pad("\(step.slowTurns.count { $0 > 4 })", 7) + pad(formatMs(largest), 10)
                + pad(String(format: "%.0f ms", step.sharpAfter * 1000)
                      + (step.sharpAfterSpringBack.map { String(format: " (%.0f ms after the spring back)", $0 * 1000) } ?? ""), 14)
                + " " + formatMiB(step.rssKiB))
            guard drawing != .empty, drawing != .sketch(60) else { continue }
            let what = "under \(compositor), \(step.gesture), \(drawing.name)"
            targets.add(largest <= 8, "zoom \(what): largest turn \(formatMs(largest)) ms of CPU (none over 8 ms)")
            if let after = step.sharpAfterSpringBack {
                // The gesture ends as its spring back does, a quarter of a second after the lift.
                targets.add(after <= 0.1, "zoom \(what): last commit \(String(format: "%.0f", after * 1000)) ms after the spring back ended (sharp within 100 ms)")
            } else {
                targets.add(step.sharpAfter <= 0.1, "zoom \(what): last commit \(String(format: "%.0f", step.sharpAfter * 1000)) ms after the fingers stopped (sharp within 100 ms)")
            }
            if step.gesture.contains("pinch in") || step.gesture.contains("to 10 %") {
                // A big drawing's own memory (its strokes, and the hit-test index its first pan
                // builds) is over the window's target by itself: the zoom must add nothing to
                // what the app holds at 100 % once that pan is done (1 MiB for the allocator).
                let atFull = steps.first { $0.gesture.contains("pan at 100 %") }?.rssKiB ?? 0
                let allowed = max(limitKiB, atFull + 1024)
                targets.add(step.rssKiB <= allowed, "zoom \(what): VmRSS once sharp \(formatMiB(step.rssKiB)) MiB (at most \(formatMiB(limitKiB)) MiB, or the \(formatMiB(atFull)) MiB after the pan at 100 % + 1 MiB; \(formatMiB(steps[0].rssKiB)) MiB when opened)")
            }
        }
    }
}
