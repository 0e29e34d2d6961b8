// The zoom phase under KWin (`zoom-kwin`): the Weston phase's gestures through KDE's fake input,
// in the window KWin gives the app, on the run's screen at its scale and at 125 %. KWin offers
// wp_fractional_scale_v1 and draws with Mesa's llvmpipe on the machine's own cores, so it tells
// what Weston's pixman and whole scales do not. No plugin counts KWin's commits: the app's own
// log (`--latency`) gives every commit's time, with input or without (a rebuild finished, a
// spring back's step), and so when the picture last changed after the fingers stopped. KWin's
// fake input frames each finger's event on its own, so a pinch's frame is two of the app's.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import KWinHarness
import TouchTrackerKit

extension TouchTrackerBench {
    func zoomKWinTable(appPath: String, targets: inout Targets) throws {
        // The run's scale, and a fractional one as touch laptops use (wp_fractional_scale_v1).
        for scale in screen.scale == 1.25 ? [1.25] : [screen.scale, 1.25] {
            try zoomKWinTable(appPath: appPath, scale: scale, targets: &targets)
        }
    }

    private func zoomKWinTable(appPath: String, scale: Double, targets: inout Targets) throws {
        let points = screen.points
        let output = "\(points.width)x\(points.height) points at scale \(scale)"
        say("\n## Zoom and pan under KWin 5.27, \(output) (Fingers off; the Weston phase's gestures through fake input at 60 Hz; the app's --latency figures, ms)")
        let session: KWinSession
        do {
            session = try KWinSession(KWinSession.Options(width: points.width, height: points.height, scale: scale))
        } catch {
            say("not measured: \(error)")
            targets.add(nil, "zoom under KWin at \(output) (not measured: the session did not start)")
            return
        }
        defer { session.stop() }
        say(Self.zoomStepsHeader)
        for drawing in [CanvasDrawing.empty, .sketch(60), .short(100_000), .dense(denseLines)] {
            do {
                let (steps, bufferKiB) = try measureZoomUnderKWin(session, appPath: appPath, drawing: drawing, scale: scale)
                reportZoomSteps(steps, drawing: drawing, under: "KWin at scale \(scale)", bufferKiB: bufferKiB, targets: &targets)
            } catch {
                say("\(drawing.name): not measured: \(error)")
                targets.add(nil, "zoom under KWin at scale \(scale), \(drawing.name) (not measured: \(error))")
            }
            try? session.reset()
        }
    }

    /// The gestures on one drawing, in a new app; with one of the window's buffers in KiB.
    private func measureZoomUnderKWin(_ session: KWinSession, appPath: String, drawing: CanvasDrawing, scale: Double) throws -> ([ZoomWestonStep], Int) {
        // The app's files in the session's home: its preferences (Fingers off), the drawing, and
        // where it was left in view (100 % from its origin, as the other phases start).
        let config = session.home + "/.config/touchtracker", state = session.home + "/.local/state/touchtracker"
        for folder in [config, state] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try "fingers-draw = false\n".write(toFile: config + "/preferences", atomically: true, encoding: .utf8)
        let file = session.runtimeDirectory + "/zoom-drawing.json"
        unlink(file)
        // KWin opens the app at 1024x768 points whatever the screen: the drawing fills that canvas.
        if drawing.lines > 0 {
            try Self.writeDrawing(drawing.strokes(in: Area(x: 0, y: 0, width: 1024, height: 768 - 130)), to: file)
        }
        var views = DrawingViews()
        views.set(CanvasViewport(origin: .zero, zoom: 1), for: file)
        try views.save(to: state + "/views")
        let child = try session.launch(appPath, ["--file", file, "--latency"], name: "touchtracker", environment: [:])
        defer { child.stop() }
        let window = try session.appWindow(process: child, appID: "org.touchtracker.TouchTracker")
        waitForIdle(child.pid)
        let pid = child.pid
        // KWin's window holds the title bar the app draws: the canvas starts below it.
        let canvasWindow = (x: window.x, y: window.y + 40, width: window.width, height: window.height - 40)
        let bufferKiB = Int((window.width * scale).rounded()) * 4 * Int((window.height * scale).rounded()) / 1024
        let hz = 60.0, frames = quick ? 30 : 60
        var steps: [ZoomWestonStep] = [
            ZoomWestonStep(drawing: drawing.name, gesture: "opened, at 100 %", frameCPU: makeLatencies(), slowTurns: [], sharpAfter: 0,
                           rssKiB: statusKiB(pid: pid, "VmRSS") ?? 0),
        ]
        for (name, path) in Self.zoomTouchGestures(window: canvasWindow) {
            let began = tt_monotonic_now()
            let logStart = child.standardError.utf8.count
            var next = began
            func send(_ events: [FakeTouch]) throws {
                sleep(until: next)
                try session.touchFrames(events)
                next += 1 / hz
            }
            let (a0, b0) = path(0)
            try send([.down(id: 0, x: a0.0, y: a0.1), .down(id: 1, x: b0.0, y: b0.1)])
            for n in 1...frames {
                let (a, b) = path(Double(n) / Double(frames))
                try send([.motion(id: 0, x: a.0, y: a.1), .motion(id: 1, x: b.0, y: b.1)])
            }
            let stopped = next - 1 / hz
            // Still for a tenth of a second, then lifted; then until no commit has come for half a
            // second (lifting navigating fingers shows nothing new: a later commit is work still
            // going on), as under Weston.
            next = stopped + 0.1
            try send([.up(id: 0), .up(id: 1)])
            let lifted = tt_monotonic_now()
            var last = stopped
            while tt_monotonic_now() - stopped < 10 {
                usleep(50_000)
                let since = String(decoding: child.standardError.utf8.dropFirst(logStart), as: UTF8.self)
                last = max(stopped, lastCommit(inLog: since) ?? stopped)
                if tt_monotonic_now() - max(last, lifted) >= 0.5 { break }
            }
            sleep(until: lifted + 2.5)
            let log = child.standardError
            guard child.isRunning else { throw HarnessError("the app exited during \(name):\n\(log.suffix(2000))") }
            let share = appShare(inLog: log, readSince: began)
            let springsBack = name == ZoomWestonStep.springingBack
            steps.append(ZoomWestonStep(drawing: drawing.name, gesture: name, frameCPU: share.cpu, slowTurns: slowTurns(inLog: String(decoding: log.utf8.dropFirst(logStart), as: UTF8.self)),
                                        sharpAfter: max(last - stopped, 0),
                                        sharpAfterSpringBack: springsBack ? max(last - (lifted + ZoomWestonStep.springBackSeconds), 0) : nil,
                                        rssKiB: statusKiB(pid: pid, "VmRSS") ?? 0))
        }
        return (steps, bufferKiB)
    }

    /// The time of the app's last commit in its `--latency` log (CLOCK_MONOTONIC seconds), with
    /// input ("committed at") or without.
    func lastCommit(inLog log: String) -> Double? {
        var last: Double?
        for key in ["committed at ", "commit without input at "] {
            var rest = log[...]
            while let r = rest.range(of: key) {
                rest = rest[r.upperBound...]
                if let µs = Double(rest.prefix { $0.isNumber }) { last = max(last ?? 0, µs / 1e6) }
            }
        }
        return last
    }
}
