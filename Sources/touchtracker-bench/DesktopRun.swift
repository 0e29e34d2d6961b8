// The app under the other desktops' compositors: KWin 5.27 (Plasma) and GNOME Shell 43 (mutter),
// headless, with fingers injected the way the end-to-end tests inject them (KDE's fake input;
// mutter's remote-desktop API). No plugin stamps these compositors' events, so the figures are
// the app's own (`--latency`): the input event's timestamp (the compositor's, whole
// milliseconds) to the commit, the app's share (reading the input to the commit) and its CPU
// time, and, through wp_presentation, the input to the moment the frame was shown.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import KWinHarness

/// What the phase needs of a desktop session.
protocol BenchDesktop: AnyObject {
    var home: String { get }
    var runtimeDirectory: String { get }
    func launch(_ executable: String, _ arguments: [String], name: String?, environment: [String: String]) throws -> ChildProcess
    func appWindow(process: ChildProcess) throws -> (x: Double, y: Double, width: Double, height: Double)
    func touchDown(_ id: Int, x: Double, y: Double) throws
    func touchMotion(_ id: Int, x: Double, y: Double) throws
    func touchUp(_ id: Int) throws
    func stop()
}

extension KWinSession: BenchDesktop {
    func appWindow(process: ChildProcess) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let w = try waitForWindow(appID: "org.touchtracker.TouchTracker", process: process)
        return (w.x, w.y, w.width, w.height)
    }
}

extension GnomeSession: BenchDesktop {
    func appWindow(process: ChildProcess) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let w = try waitForWindow(appID: "org.touchtracker.TouchTracker", process: process)
        return (w.x, w.y, w.width, w.height)
    }
}

/// The app's `--latency` lines of one run, in ms.
struct DesktopLatencies {
    var toCommit = makeLatencies(), share = makeLatencies(), cpu = makeLatencies()
    var toPresented = makeLatencies(), commitToPresented = makeLatencies()
    var frames = 0, discarded = 0
    var refresh: Double?

    /// Reads lines such as "frame 12: input→commit 1.20 ms (read→commit 0.57 ms, 0.55 ms of it on
    /// the CPU), input→presented 9.10 ms, commit→presented 7.90 ms, refresh 16.67 ms".
    init(log: String) {
        func value(_ line: Substring, after key: String) -> Double? {
            guard let r = line.range(of: key) else { return nil }
            return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
        }
        func record(_ h: inout Latencies, _ ms: Double?) {
            if let ms { _ = h.record(UInt64(max(1, ms * 1000))) }
        }
        for line in log.split(separator: "\n") where line.contains("input→commit ") {
            frames += 1
            record(&toCommit, value(line, after: "input→commit "))
            record(&share, value(line, after: "read→commit "))
            record(&cpu, value(line, after: " ms, "))
            record(&toPresented, value(line, after: "input→presented "))
            record(&commitToPresented, value(line, after: "commit→presented "))
            if line.contains("discarded") { discarded += 1 }
            if let r = value(line, after: "refresh ") { refresh = r }
        }
    }
}

extension TouchTrackerBench {
    func desktopSweep(appPath: String, targets: inout Targets) throws {
        let seconds = quick ? 3.0 : 8.0
        say("\n## Under KWin 5.27 and GNOME Shell 43: ten fingers at 60 Hz for \(seconds) s, the app's own figures (--latency; ms)")
        say("input→commit starts at the compositor's event timestamp, which is in whole milliseconds: it reads up to 1 ms long.")
        say("desktop   drawing                          frames  input→commit p50  p99     app's share p50  p99     CPU p99   input→shown p50  p99      commit→shown p50  refresh")
        let desktops: [(String, () throws -> BenchDesktop)] = [
            ("KWin", { try KWinSession(KWinSession.Options(width: 1280, height: 960)) }),
            ("GNOME", { try GnomeSession(GnomeSession.Options(width: 1280, height: 960)) }),
        ]
        for (name, start) in desktops {
            let session: BenchDesktop
            do {
                session = try start()
            } catch {
                say("\(pad(name, 10))not measured: \(error)")
                targets.add(nil, "latency under \(name) (not measured: the session did not start)")
                continue
            }
            defer { session.stop() }
            for drawing in [CanvasDrawing.empty, .dense(denseLines)] {
                do {
                    let result = try measureOnDesktop(session, appPath: appPath, drawing: drawing, seconds: seconds)
                    func p(_ h: Latencies, _ q: Double) -> String { h.totalCount == 0 ? "-" : formatMs(Double(h.valueAtPercentile(q)) / 1000) }
                    say(pad(name, 10) + pad(drawing.name, 33) + pad("\(result.frames)", 8)
                        + pad(p(result.toCommit, 50), 18) + pad(p(result.toCommit, 99), 8)
                        + pad(p(result.share, 50), 17) + pad(p(result.share, 99), 8) + pad(p(result.cpu, 99), 10)
                        + pad(p(result.toPresented, 50), 17) + pad(p(result.toPresented, 99), 9)
                        + pad(p(result.commitToPresented, 50), 18) + (result.refresh.map { formatMs($0) } ?? "-")
                        + (result.discarded > 0 ? "  (\(result.discarded) frames replaced before shown)" : ""))
                    if result.cpu.totalCount > 0 {
                        let cpu = Double(result.cpu.valueAtPercentile(99)) / 1000, wall = Double(result.share.valueAtPercentile(99)) / 1000
                        let most = Double(result.cpu.max) / 1000
                        targets.add(cpu <= 4 && most <= 16, "under \(name), \(drawing.name): p99 CPU per frame \(formatMs(cpu)) ms, most \(formatMs(most)) ms (at most 4 ms, none over 16 ms)"
                                    + (wall > 2 * max(cpu, 0.5) ? "; the app's share p99 \(formatMs(wall)) ms was mostly spent waiting off the CPU" : ""))
                    }
                } catch {
                    say(pad(name, 10) + pad(drawing.name, 33) + "failed: \(error)")
                    targets.add(false, "under \(name), \(drawing.name): the run failed")
                }
            }
        }
    }

    private func measureOnDesktop(_ session: BenchDesktop, appPath: String, drawing: CanvasDrawing, seconds: Double) throws -> DesktopLatencies {
        let file = session.runtimeDirectory + "/bench-drawing-\(drawing.lines).json"
        unlink(file)
        let canvas = Area(x: 0, y: 0, width: 1024, height: 768 - 130)
        if drawing.lines > 0 { try Self.writeDrawing(drawing.strokes(in: canvas), to: file) }
        let child = try session.launch(appPath, ["--file", file, "--latency"], name: "touchtracker", environment: [:])
        defer { child.stop() }
        let window = try session.appWindow(process: child)
        // The fingers start once the app is idle: its drawing read and its line cache made.
        var last = cpuSeconds(pid: child.pid) ?? 0
        let idleBy = tt_monotonic_now() + 30
        repeat {
            usleep(300_000)
            let now = cpuSeconds(pid: child.pid) ?? 0
            if now - last < 0.01 { break }
            last = now
        } while tt_monotonic_now() < idleBy
        let logStart = child.standardError.utf8.count
        var fingers = Fingers(area: Area(x: window.x, y: window.y + 40, width: window.width, height: window.height - 40 - 130), seed: 42)
        let start = tt_monotonic_now()
        var frame = 0
        while tt_monotonic_now() - start < seconds {
            let due = start + Double(frame) / 60
            if due > tt_monotonic_now() { sleep(until: due) }
            for event in parseTouchCommand(fingers.frame(at: Double(frame) / 60)) {
                switch event {
                case .down(let id, let p): try session.touchDown(Int(id.number), x: p.x, y: p.y)
                case .motion(let id, let p): try session.touchMotion(Int(id.number), x: p.x, y: p.y)
                case .up(let id): try session.touchUp(Int(id.number))
                case .frame, .cancel: break
                }
            }
            frame += 1
        }
        if let lift = fingers.liftAll() {
            for case .up(let id) in parseTouchCommand(lift) { try session.touchUp(Int(id.number)) }
        }
        usleep(500_000)
        guard child.isRunning else { throw HarnessError("the app quit: \(child.standardError.suffix(500))") }
        let result = DesktopLatencies(log: String(decoding: child.standardError.utf8.dropFirst(logStart), as: UTF8.self))
        guard result.frames > 0 else { throw HarnessError("no input reached the app: \(child.standardError.suffix(300))") }
        return result
    }
}
