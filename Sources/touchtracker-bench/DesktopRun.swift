// The app under the other desktops' compositors: KWin 5.27 (Plasma), GNOME Shell 43 (mutter) and
// Sway 1.7 (wlroots), headless, with input injected the way the end-to-end tests inject it (KDE's
// fake input; mutter's remote-desktop API; under Sway, which has no touch injection, a virtual
// mouse following one finger). No plugin stamps these compositors' events, so the figures are
// the app's own (`--latency`): the input event's timestamp (the compositor's, whole
// milliseconds) to the commit, the app's share (reading the input to the commit) and its CPU
// time, and, through wp_presentation, the input to the moment the frame was shown. Beside it,
// weston-simple-touch under the same fingers, its figures read from its protocol log.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import CompositorHarness
import SwayHarness
import KWinHarness

/// What the phase needs of a desktop session.
protocol BenchDesktop: AnyObject {
    var home: String { get }
    var runtimeDirectory: String { get }
    func launch(_ executable: String, _ arguments: [String], name: String?, environment: [String: String]) throws -> ChildProcess
    func appWindow(process: ChildProcess, appID: String) throws -> (x: Double, y: Double, width: Double, height: Double)
    func touchDown(_ id: Int, x: Double, y: Double) throws
    func touchMotion(_ id: Int, x: Double, y: Double) throws
    func touchUp(_ id: Int) throws
    /// Readies the session for many fingers at once, before the first run.
    func prepareForFingers() throws
    /// Whether the fingers are touches (else a mouse follows one of them, and weston-simple-touch,
    /// which takes only touch, has nothing to answer).
    var injectsTouch: Bool { get }
    func stop()
}

extension BenchDesktop {
    var injectsTouch: Bool { true }
}

/// Sway injects no touch: the mouse draws instead, following finger 0 with the left button held,
/// through a wlroots virtual pointer. The other fingers are dropped.
final class SwayMouseDesktop: BenchDesktop {
    let session: SwaySession
    private let pointer: SwayVirtualPointer

    init(width: Int, height: Int) throws {
        session = try SwaySession(SwaySession.Options(width: width, height: height))
        do {
            // The virtual pointer first: the seat gets its pointer capability before the app binds it.
            pointer = try SwayVirtualPointer(session)
            try pointer.move(x: 5, y: 5)
        } catch {
            session.stop()
            throw error
        }
    }

    var home: String { session.runtimeDirectory }
    var runtimeDirectory: String { session.runtimeDirectory }
    var injectsTouch: Bool { false }

    func launch(_ executable: String, _ arguments: [String], name: String?, environment: [String: String]) throws -> ChildProcess {
        try session.launch(executable, arguments, name: name, environment: environment)
    }

    func appWindow(process: ChildProcess, appID: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        // Sway shows a new view undecorated for a moment before it tiles and decorates it.
        let w = try session.waitForWindow(appID: appID, process: process) { $0.border != "none" }
        return (w.content.x, w.content.y, w.content.width, w.content.height)
    }

    func touchDown(_ id: Int, x: Double, y: Double) throws {
        guard id == 0 else { return }
        try pointer.move(x: x, y: y)
        try pointer.button(down: true)
    }

    func touchMotion(_ id: Int, x: Double, y: Double) throws {
        guard id == 0 else { return }
        try pointer.move(x: x, y: y)
    }

    func touchUp(_ id: Int) throws {
        guard id == 0 else { return }
        try pointer.button(down: false)
    }

    func prepareForFingers() throws {}
    func stop() { session.stop() }
}

extension KWinSession: BenchDesktop {
    /// Nothing: KWin 5.27 has touchscreen swipes of its own, but no run here has lost its fingers
    /// to them, and no test client should switch off what users have without need.
    func prepareForFingers() throws {}

    func appWindow(process: ChildProcess, appID: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let w = try waitForWindow(appID: appID, process: process)
        return (w.x, w.y, w.width, w.height)
    }
}

extension GnomeSession: BenchDesktop {
    /// Without this the shell now and then takes three of the ten fingers as its swipe to the
    /// Overview, and every later run's touches go there ("no input reached the app").
    func prepareForFingers() throws {
        let swipes = try disableShellTouchSwipes()
        guard swipes > 0 else { throw HarnessError("gnome-shell has no three-finger touch swipe to turn off") }
    }

    func appWindow(process: ChildProcess, appID: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let w = try waitForWindow(appID: appID, process: process)
        return (w.x, w.y, w.width, w.height)
    }
}

/// The app's `--latency` lines of one run, in ms.
struct DesktopLatencies {
    var toCommit = makeLatencies(), share = makeLatencies(), cpu = makeLatencies()
    var toPresented = makeLatencies(), commitToPresented = makeLatencies()
    var frames = 0, discarded = 0
    var refresh: Double?
    /// The last frame's commit, on the monotonic clock (s).
    var lastCommit: Double?

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
            if let us = value(line, after: "committed at ") { lastCommit = max(lastCommit ?? 0, us / 1e6) }
        }
    }
}

/// weston-simple-touch's figures under a desktop, read from its own protocol log
/// (`WAYLAND_DEBUG=client`): each `wl_surface.commit` against the oldest touch event received
/// since the commit before, as the app's `--latency` counts. input→commit starts at the event's
/// timestamp, the share at the moment libwayland dispatched the event. Logging every message costs
/// the peer a few microseconds each, so its figures read a little long.
struct PeerLatencies {
    var toCommit = makeLatencies(), share = makeLatencies()
    var frames = 0
    /// The last commit, on the monotonic clock (s).
    var lastCommit: Double?

    /// The realtime clock (µs) and the monotonic clock (s) read together, for ``init(log:clock:)``.
    static func clocksNow() -> (realtimeMicros: UInt64, monotonic: Double) {
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        return (UInt64(realtime.tv_sec) * 1_000_000 + UInt64(realtime.tv_nsec / 1000), tt_monotonic_now())
    }

    /// `clock` is the realtime clock (µs) and the monotonic clock (s) read together: libwayland
    /// stamps its log with the low 32 bits of realtime microseconds.
    init(log: String, clock: (realtimeMicros: UInt64, monotonic: Double)) {
        func monotonic(_ stamp: Substring) -> Double? {
            let parts = stamp.trimmingCharacters(in: .whitespaces).split(separator: ".")
            guard parts.count == 2, let ms = UInt64(parts[0]), let us = UInt64(parts[1]) else { return nil }
            let micros = UInt32(truncatingIfNeeded: ms * 1000 + us)
            let delta = Int32(bitPattern: micros &- UInt32(truncatingIfNeeded: clock.realtimeMicros))
            return clock.monotonic + Double(delta) / 1e6
        }
        var pending: (event: Double, read: Double)?
        for line in log.split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                  let at = monotonic(line[line.index(after: line.startIndex)..<close]) else { continue }
            let message = line[line.index(after: close)...]
            if message.contains(" -> wl_surface@"), message.contains(".commit(") {
                guard let input = pending else { continue }
                pending = nil
                frames += 1
                lastCommit = at
                _ = toCommit.record(UInt64(max(1, (at - input.event) * 1e6)))
                _ = share.record(UInt64(max(1, (at - input.read) * 1e6)))
                continue
            }
            // down(serial, time, ...), up(serial, time, id), motion(time, ...)
            guard pending == nil, message.contains("wl_touch@"), let open = message.firstIndex(of: "(") else { continue }
            let arguments = message[message.index(after: open)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let index: Int
            if message.contains(".motion(") { index = 0 } else if message.contains(".down(") || message.contains(".up(") { index = 1 } else { continue }
            guard arguments.count > index, let time = UInt32(arguments[index]) else { continue }
            // The timestamp is the low 32 bits of the monotonic clock in ms: its age, modulo 2^32.
            let age = UInt32(truncatingIfNeeded: UInt64(at * 1000)) &- time
            pending = (age < 10_000 ? at - Double(age) / 1000 : at, at)
        }
    }
}

extension TouchTrackerBench {
    func desktopSweep(appPath: String, targets: inout Targets) throws {
        let seconds = quick ? 3.0 : 8.0
        say("\n## Under KWin 5.27, GNOME Shell 43 and Sway 1.7: ten fingers at 60 Hz for \(seconds) s (under Sway, which injects no touch, the mouse follows one of them), the app's own figures (--latency; ms), and weston-simple-touch's from its protocol log (WAYLAND_DEBUG)")
        say("input→commit starts at the compositor's event timestamp, which is in whole milliseconds: it reads up to 1 ms long.")
        say("desktop   drawing                          frames  input→commit p50  p99     app's share p50  p99     CPU p99   input→shown p50  p99      commit→shown p50  refresh")
        let desktops: [(String, () throws -> BenchDesktop)] = [
            ("KWin", { try KWinSession(KWinSession.Options(width: 1280, height: 960)) }),
            // Fractional scales, as touch laptops run them: KWin offers wp_fractional_scale_v1 and
            // the app draws at the scale itself.
            ("KWin 1.25", { try KWinSession(KWinSession.Options(width: 1280, height: 960, scale: 1.25)) }),
            ("KWin 1.5", { try KWinSession(KWinSession.Options(width: 1280, height: 960, scale: 1.5)) }),
            ("GNOME", { try GnomeSession(GnomeSession.Options(width: 1280, height: 960)) }),
            ("Sway", { try SwayMouseDesktop(width: 1280, height: 960) }),
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
            do {
                try session.prepareForFingers()
            } catch {
                say("\(pad(name, 10))not measured: \(error)")
                targets.add(nil, "latency under \(name) (not measured: \(error))")
                continue
            }
            // The app's figures, then weston-simple-touch's (after the app's, so that no run of
            // the peer can leave the session in a state that costs the app's figures) and the ratios.
            var apps: [(CanvasDrawing, DesktopLatencies)] = []
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
                    apps.append((drawing, result))
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
            guard !noReference, session.injectsTouch else { continue }
            let peer: PeerLatencies
            do {
                peer = try measurePeerOnDesktop(session, seconds: seconds)
            } catch {
                say(pad(name, 10) + pad("weston-simple-touch", 33) + "failed: \(error)")
                continue
            }
            func p(_ h: Latencies, _ q: Double) -> String { formatMs(Double(h.valueAtPercentile(q)) / 1000) }
            say(pad(name, 10) + pad("weston-simple-touch", 33) + pad("\(peer.frames)", 8)
                + pad(p(peer.toCommit, 50), 18) + pad(p(peer.toCommit, 99), 8)
                + pad(p(peer.share, 50), 17) + pad(p(peer.share, 99), 8) + "(from its protocol log)")
            func ratio(_ a: Latencies, _ b: Latencies, _ q: Double) -> String {
                String(format: "%.1fx", Double(a.valueAtPercentile(q)) / Double(max(1, b.valueAtPercentile(q))))
            }
            for (drawing, app) in apps where app.toCommit.totalCount > 0 {
                say(pad("", 10) + "\(drawing.name) against weston-simple-touch: input→commit p50 \(ratio(app.toCommit, peer.toCommit, 50)), p99 \(ratio(app.toCommit, peer.toCommit, 99));"
                    + " share p50 \(ratio(app.share, peer.share, 50)), p99 \(ratio(app.share, peer.share, 99))")
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
        let window = try session.appWindow(process: child, appID: "org.touchtracker.TouchTracker")
        // The fingers start once the app is idle: its drawing read and its line cache made.
        waitForIdle(child.pid)
        let logStart = child.standardError.utf8.count
        try playFingers(on: session, in: Area(x: window.x, y: window.y + 40, width: window.width, height: window.height - 40 - 130), seconds: seconds)
        usleep(500_000)
        guard child.isRunning else { throw HarnessError("the app quit: \(child.standardError.suffix(500))") }
        let result = DesktopLatencies(log: String(decoding: child.standardError.utf8.dropFirst(logStart), as: UTF8.self))
        guard result.frames > 0 else { throw HarnessError("no input reached the app: \(child.standardError.suffix(300))") }
        return result
    }

    /// weston-simple-touch under the same fingers, its figures from its protocol log.
    private func measurePeerOnDesktop(_ session: BenchDesktop, seconds: Double) throws -> PeerLatencies {
        let child = try session.launch("/usr/bin/weston-simple-touch", [], name: "weston-simple-touch", environment: ["WAYLAND_DEBUG": "client"])
        defer { child.stop() }
        let window = try session.appWindow(process: child, appID: "simple-touch")
        let clock = PeerLatencies.clocksNow()
        try playFingers(on: session, in: Area(x: window.x, y: window.y, width: window.width, height: window.height), seconds: seconds)
        usleep(500_000)
        guard child.isRunning else { throw HarnessError("weston-simple-touch quit: \(child.standardError.suffix(500))") }
        let result = PeerLatencies(log: child.standardError, clock: clock)
        guard result.frames > 0 else { throw HarnessError("no input reached weston-simple-touch") }
        return result
    }

    /// Ten fingers circling in `area` at 60 Hz for `seconds`, then lifted.
    private func playFingers(on session: BenchDesktop, in area: Area, seconds: Double) throws {
        var fingers = Fingers(area: area, seed: 42)
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
    }
}
