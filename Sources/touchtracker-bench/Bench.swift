// touchtracker-bench: how fast TouchTracker answers touches, measured in process (CPU time and
// callgrind instruction counts of the real TouchKit and TouchTrackerKit code) and on the
// compositor's side: a private headless Weston (1920x1080, pixman, our plugin) runs the app while
// the benchmark injects touches; the plugin stamps each injected touch frame, the app's next
// damaged commit and the end of the output repaint that shows it (CLOCK_MONOTONIC). The same run
// measures weston-simple-touch the same way. docs/performance.md describes every phase.
//
//   swift run -c release touchtracker-bench                 # the default phases, under 10 minutes
//   swift run -c release touchtracker-bench --quick         # a few minutes
//   swift run -c release touchtracker-bench --callgrind     # adds instruction counts
//   swift run -c release touchtracker-bench --only soak --soak 10
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CShims
import Foundation
import TouchTrackerKit
import CompositorHarness

/// The parts of a run, in the order they run.
enum BenchPhase: String, CaseIterable, ExpressibleByArgument {
    /// Hit-testing, memory per line, canvas changes, one touch frame: no compositor.
    case inProcess = "in-process"
    /// CPU per turn of the event loop for ten fingers and each gesture, in process.
    case gestures
    /// Pinch-zoom and two-finger pan on big drawings, in process: CPU per turn, time to sharp, memory.
    case zoom
    /// The same gestures as touch under Weston: the app's CPU per frame, its last commit, VmRSS.
    case zoomWeston = "zoom-weston"
    /// The same gestures as touch under KWin (fractional scales, llvmpipe): the app's own figures.
    case zoomKWin = "zoom-kwin"
    /// Instruction counts of the same, under callgrind.
    case callgrind
    /// Drawing sizes at 60 and 120 Hz under Weston.
    case sizes
    /// 30 to 240 Hz on the benchmark's clock, events one per command, under Weston.
    case cadences
    /// Ten fingers at 60 and 120 Hz on a matrix of screens (1080p, HiDPI, 4K), under Weston.
    case screens
    /// Ten fingers at 60 and 120 Hz with the canvas at 50, 200 and 800 %, under Weston.
    case zoomDrawing = "zoom-drawing"
    /// A rising rate of random multi-finger input until the client falls behind.
    case ramp
    /// A rising rate of short lines one after another (each its own down, motion and up).
    case shortLines = "short-lines"
    /// The same short lines under KWin: a second compositor beside Weston's figures.
    case shortLinesKWin = "short-lines-kwin"
    /// Ten fingers under KWin and GNOME Shell: the app's own latency figures.
    case desktops
    /// Minutes of mixed gestures: disconnects, stuck touches, memory growth.
    case soak
    /// Touch predictors over scripted paths, in process: how the app's estimator was chosen.
    case predictors
    /// Lag at presentation from the compositor's pixels, prediction on and off, under Weston.
    case prediction
    /// A recording or touchscreen trace played at its own pace (`--recording FILE`).
    case recording

    static let defaults: [BenchPhase] = [.inProcess, .gestures, .zoom, .sizes, .cadences, .screens, .zoomDrawing, .ramp, .shortLines,
                                         .shortLinesKWin, .desktops]
}

@main
struct TouchTrackerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker-bench",
        abstract: "Latency, CPU, instruction counts, throughput and memory of TouchTracker, in process and under headless Weston against weston-simple-touch.",
        discussion: "Phases (--only, --skip): \(BenchPhase.allCases.map(\.rawValue).joined(separator: ", ")). By default: \(BenchPhase.defaults.map(\.rawValue).joined(separator: ", ")); --callgrind and --soak add theirs. docs/performance.md explains each.")

    @Flag(help: "A short run: shorter phases, fewer queries.")
    var quick = false

    @Option(parsing: .upToNextOption, help: "Run only these phases.")
    var only: [BenchPhase] = []

    @Option(parsing: .upToNextOption, help: "Leave out these phases.")
    var skip: [BenchPhase] = []

    @Option(parsing: .upToNextOption, help: "Canvas sizes in finished lines (sizes phase).")
    var sizes: [Int] = [0, 1_000, 10_000, 100_000]

    @Option(help: "Seconds of finger motion per rate in the sizes phase (default 8, or 2.5 with --quick).")
    var seconds: Double?

    @Option(parsing: .upToNextOption, help: "Finger frame rates of the cadence sweep, in Hz.")
    var cadences: [Double] = [30, 45, 60, 90, 120, 144, 240]

    @Option(help: "Seconds per cadence, at least 1,000 frames (default 4, or 1.5 with --quick, without the minimum).")
    var cadenceSeconds: Double?

    @Option(help: "Each cadence frame's time moves at random within this fraction of the period.")
    var jitter: Double = 0.5

    @Option(help: "Lines of the dense drawing (long lines, ends anywhere on the canvas).")
    var denseLines: Int = 10_000

    @Option(help: "Seconds per rate while the ramp rises (default 3, or 1.5 with --quick).")
    var rampStep: Double?

    @Option(help: "Seconds the ramp's highest rate must hold (default 30, or 5 with --quick).")
    var rampHold: Double?

    @Option(parsing: .upToNextOption, help: "The ramp's rates, in touch events per second (default 250 to 50,000).")
    var rampRates: [Double] = []

    @Flag(help: "Add the callgrind phase: instructions per frame, event and gesture (needs valgrind).")
    var callgrind = false

    @Option(help: "Add the soak phase, this many minutes (--soak alone: 10).")
    var soak: Double?

    @Option(help: "The touchtracker executable (default: the one built beside this benchmark).")
    var app: String?

    @Flag(help: "Skip weston-simple-touch.")
    var noReference = false

    @Flag(help: "Keep each session's runtime folder (logs, the app's stderr).")
    var keepFiles = false

    @Flag(help: "Only the phases that need no compositor (in-process, gestures, and callgrind when asked for).")
    var inProcessOnly = false

    @Flag(help: "Preload the canvas by injecting the lines as touches instead of opening a drawing file.")
    var injectPreload = false

    @Flag(help: "Also run the app with --latency and report its share of each frame (from reading the input to the commit) and the CPU time of that share: a frame slow on the CPU ran slowly, one slow only on the clock waited. Adds a presentation feedback per frame.")
    var breakdown = false

    @Option(help: "A recording (touchtracker --record) or an evtest / libinput record trace of a touchscreen, played into Weston at its own pace as a latency scenario (adds the recording phase).")
    var recording: String?

    @Flag(help: .hidden)
    var callgrindWorker = false

    @Option(help: .hidden)
    var callgrindFrames: Int = 60

    @Option(help: "The output's width in pixels (every phase: Weston's output, the in-process window).")
    var width = 1920

    @Option(help: "The output's height in pixels.")
    var height = 1080

    @Option(help: "The output's scale (HiDPI): the window is width/scale x height/scale points, its buffers width x height pixels. Weston takes whole scales; a fractional one (1.25, 1.5) runs the in-process phases and KWin's.")
    var scale = 1.0

    /// The screen every phase runs on.
    var screen: BenchScreen { BenchScreen(width: width, height: height, scale: scale) }

    /// `--soak` without a number means 10 minutes.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let i = arguments.firstIndex(of: "--soak"), i + 1 == arguments.count || Double(arguments[i + 1]) == nil {
            arguments.insert("10", at: i + 1)
        }
        main(arguments)
    }

    var phases: [BenchPhase] {
        var chosen = only.isEmpty
            ? BenchPhase.defaults + (callgrind ? [.callgrind] : []) + (soak != nil ? [.soak] : []) + (recording != nil ? [.recording] : [])
            : only
        if inProcessOnly { chosen = chosen.filter { [.inProcess, .gestures, .zoom, .callgrind, .predictors].contains($0) } }
        return BenchPhase.allCases.filter { chosen.contains($0) && !skip.contains($0) }
    }

    func run() throws {
        if callgrindWorker {
            runCallgrindWorker(width: screen.points.width, height: screen.points.height, scale: scale, frames: callgrindFrames, denseLines: denseLines)
            return
        }
        let phases = self.phases
        let onTheRunsWeston: [BenchPhase] = [.zoomWeston, .sizes, .cadences, .zoomDrawing, .ramp, .shortLines, .soak, .recording]
        if screen.wholeScale == nil, let phase = phases.first(where: onTheRunsWeston.contains) {
            throw ValidationError("--scale \(scale): Weston 10's outputs take whole scales, and the \(phase.rawValue) phase runs on one; a fractional scale measures the in-process phases (in-process, gestures, zoom, callgrind) and KWin's (zoom-kwin, short-lines-kwin)")
        }
        let underWeston = phases.contains { [.zoomWeston, .zoomKWin, .sizes, .cadences, .screens, .zoomDrawing, .ramp, .shortLines, .shortLinesKWin, .desktops, .soak, .recording, .prediction].contains($0) }
        let started = tt_monotonic_now()
        let appPath = underWeston ? try app ?? locateApp() : "(not needed)"
        say("touchtracker-bench: \(phases.map(\.rawValue).joined(separator: ", ")); headless Weston \(screen) (pixman, 60 Hz); \(ProcessInfo.processInfo.activeProcessorCount) CPUs" + (quick ? "; quick" : ""))
        say("app: \(appPath)")
        var targets = Targets()
        if phases.contains(.inProcess) { inProcessTables() }
        if phases.contains(.gestures) {
            gestureTable(targets: &targets)
            predictionCostTable(targets: &targets)
        }
        if phases.contains(.zoom) { zoomTable(targets: &targets) }
        if phases.contains(.zoomWeston) { try zoomWestonTable(appPath: appPath, targets: &targets) }
        if phases.contains(.zoomKWin) { try zoomKWinTable(appPath: appPath, targets: &targets) }
        if phases.contains(.callgrind) { try callgrindTable() }
        if phases.contains(.predictors) { predictorTable() }
        if phases.contains(.sizes) { try sizeSweep(appPath: appPath, targets: &targets) }
        if phases.contains(.cadences) { try cadenceSweep(appPath: appPath, targets: &targets) }
        if phases.contains(.screens) { try screenSweep(appPath: appPath, targets: &targets) }
        if phases.contains(.zoomDrawing) { try zoomDrawingSweep(appPath: appPath, targets: &targets) }
        if phases.contains(.ramp) { try ramp(appPath: appPath, targets: &targets) }
        if phases.contains(.shortLines) { try shortLinesRamp(appPath: appPath, targets: &targets) }
        if phases.contains(.shortLinesKWin) { try shortLinesUnderKWin(appPath: appPath, targets: &targets) }
        if phases.contains(.desktops) { try desktopSweep(appPath: appPath, targets: &targets) }
        if phases.contains(.prediction) { try predictionPhase(appPath: appPath, targets: &targets) }
        if phases.contains(.soak) {
            try soak(.app(path: appPath, drawing: .dense(denseLines)), minutes: soak ?? 10, targets: &targets)
        }
        if phases.contains(.recording) {
            guard let recording else { throw ValidationError("the recording phase needs --recording FILE") }
            try recordingScenario(recording, appPath: appPath, targets: &targets)
        }
        targets.print()
        say(String(format: "\n(total %.0f s)", tt_monotonic_now() - started))
    }

    func inProcessTables() {
        let canvas = Area(x: 0, y: 0, width: Double(screen.points.width), height: Double(screen.points.height))
        say("\n## Hit-testing (Drawing.stroke(near:within: 20)), in process")
        say("lines     index build   per query (index)   per query (scan all)   per change   mismatches")
        for size in sizes where size > 0 {
            let r = measureHitTesting(count: size, queries: quick ? 5_000 : 20_000, area: canvas)
            say(pad("\(size)", 9) + pad(String(format: "%.1f ms", r.indexBuildMs), 14)
                + pad(String(format: "%.2f µs", r.indexQueryUs), 20) + pad(String(format: "%.1f µs", r.scanQueryUs), 23)
                + pad(String(format: "%.2f µs", r.changeUs), 13) + "\(r.mismatches)")
        }
        say("\n## Memory per finished line (heap: strokes, id table, hit-test index), in process")
        for size in sizes where size > 0 {
            say(pad("\(size)", 9) + String(format: "%.0f bytes", measureDrawingMemory(count: size, area: canvas)))
        }
        say("\n## Canvas changes (DrawView, window-sized raster), in process")
        say("lines     add a finished line   select and deselect a line   remove a line   resize and back")
        for size in sizes {
            let r = measureCanvasChanges(count: size, area: canvas)
            say(pad("\(size)", 9) + pad(String(format: "%.3f ms", r.addMs), 22) + pad(String(format: "%.2f ms", r.selectMs), 29)
                + pad(String(format: "%.2f ms", r.removeMs), 16) + String(format: "%.1f ms", r.resizeMs))
        }

        say("\n## One touch frame, in process (ten fingers through TouchInput, painted as the host does; µs)")
        say("lines       input p50   p99      paint p50   p99      max      pixels/frame")
        let drawingArea = Area(x: 0, y: 0, width: Double(screen.points.width), height: Double(screen.points.height - 130))
        for drawing in sizes.map({ CanvasDrawing.short($0) }) + [.dense(denseLines)] {
            let r = measureFramePainting(strokes: drawing.strokes(in: drawingArea), width: screen.points.width, height: screen.points.height, scale: scale,
                                         frames: quick ? 300 : 1_200)
            say(pad(drawing == .dense(denseLines) ? "\(denseLines) long" : "\(drawing.lines)", 11) + pad("\(r.input.valueAtPercentile(50))", 12) + pad("\(r.input.valueAtPercentile(99))", 9)
                + pad("\(r.paint.valueAtPercentile(50))", 12) + pad("\(r.paint.valueAtPercentile(99))", 9) + pad("\(r.paint.max)", 9) + "\(r.pixels / max(r.frames, 1))")
        }
    }

    func sizeSweep(appPath: String, targets: inout Targets) throws {
        let seconds = self.seconds ?? (quick ? 2.5 : 8)
        say("\n## Under Weston: drawing sizes and the dense drawing, ten fingers at 60 and 120 Hz, \(seconds) s each")
        var reference: ClientResult?
        if !noReference {
            reference = try measureClient(.reference, seconds: seconds)
        }
        var results: [ClientResult] = []
        for drawing in sizes.map({ CanvasDrawing.short($0) }) + [.dense(denseLines)] {
            results.append(try measureClient(.app(path: appPath, drawing: drawing), seconds: seconds))
        }
        report(results, reference: reference, targets: &targets)
    }

    /// Frames per cadence at least. Input→repaint is mostly where a frame falls in the
    /// compositor's repaint cycle, so a median of 500 frames moved by ±0.4 ms between runs of one
    /// client (±3 %, as much as the app's real difference to weston-simple-touch).
    static let cadenceFrames = 1000

    func cadenceSweep(appPath: String, targets: inout Targets) throws {
        let seconds = cadenceSeconds ?? (quick ? 1.5 : 4)
        say("\n## Cadence sweep under Weston: ten fingers on the benchmark's clock, jitter ±\(Int(jitter * 50))% of the period, each event its own command; \(seconds) s per cadence\(quick ? "" : " and at least \(Self.cadenceFrames) frames")")
        let reference = noReference ? nil : try measureCadences(.reference, cadences: cadences, seconds: seconds, minimumFrames: quick ? 0 : Self.cadenceFrames, jitter: jitter)
        var runs: [CadenceRun] = []
        for drawing in [CanvasDrawing.empty, .dense(denseLines)] {
            runs.append(try measureCadences(.app(path: appPath, drawing: drawing), cadences: cadences, seconds: seconds, minimumFrames: quick ? 0 : Self.cadenceFrames, jitter: jitter))
        }
        reportCadences(runs, reference: reference, cadences: cadences, targets: &targets)
    }

    func ramp(appPath: String, targets: inout Targets) throws {
        let step = rampStep ?? (quick ? 1.5 : 3), hold = rampHold ?? (quick ? 5 : 30)
        say("\n## Ramp under Weston: a random multi-finger stream at rising rates, \(step) s a step; the highest rate that held, held \(hold) s")
        var runs: [RampRun] = []
        if !noReference {
            runs.append(try measureRamp(.reference, rates: rampRates.isEmpty ? Self.rampRates : rampRates, stepSeconds: step, holdSeconds: hold) {
                RandomStream(area: $0, seed: 77)
            })
        }
        let dense = Client.app(path: appPath, drawing: .dense(denseLines))
        runs.append(try measureRamp(dense, rates: rampRates.isEmpty ? Self.rampRates : rampRates, stepSeconds: step, holdSeconds: hold) {
            RandomStream(area: $0, seed: 77)
        })
        reportRamp(runs, targets: &targets, denseName: dense.name)
    }

    func shortLinesRamp(appPath: String, targets: inout Targets) throws {
        let step = rampStep ?? (quick ? 1.5 : 3), hold = rampHold ?? (quick ? 5 : 30)
        say("\n## Short-lines ramp under Weston (\(screen)): lines one after another, each its own down, motion and up, at rising rates, \(step) s a step; the highest rate that held, held \(hold) s")
        var runs: [RampRun] = []
        let rates = Self.shortLineRates.map { $0 * ShortLinesStream.eventsPerLine }
        func measure(_ client: Client) throws -> RampRun {
            try measureRamp(client, rates: rates, stepSeconds: step, holdSeconds: hold) { ShortLinesStream(area: $0, seed: 91) }
        }
        if !noReference { runs.append(try measure(.reference)) }
        let app = Client.app(path: appPath, drawing: .empty)
        runs.append(try measure(app))
        reportShortLines(runs, targets: &targets, appName: app.name)
    }

    func gestureTable(targets: inout Targets) {
        let frames = quick ? 60 : 240
        say("\n## CPU per turn of the event loop, in process, \(screen) (ten fingers: \(frames) frames at 60 Hz; gestures on the dense drawing of \(denseLines) long lines; CPU of every thread, ms)")
        say("step                                          turns   CPU per frame/gesture   per turn p50   p99     max   wall per frame/gesture")
        let steps = measureGestureCPU(width: screen.points.width, height: screen.points.height, scale: scale, frames: frames,
                                      denseLines: denseLines)
        for step in steps {
            var h = makeLatencies()
            for t in step.turnTimes { _ = h.record(UInt64(max(1, t * 1e6))) }
            let total = step.turnTimes.reduce(0, +) * 1000 / Double(max(step.units, 1))
            let wall = step.turnWallTimes.reduce(0, +) * 1000 / Double(max(step.units, 1))
            say(pad(step.name, 46) + pad("\(step.turnTimes.count)", 8) + pad(String(format: "%.3f", total), 24)
                + pad(formatMs(h.p50), 15) + pad(formatMs(h.p99), 8) + pad(formatMs(h.maxMilliseconds), 6) + String(format: "%.3f", wall))
            guard !step.name.contains("empty canvas") else { continue }
            targets.add(h.p99 <= 4 && h.maxMilliseconds <= 16,
                        "CPU per turn in process, \(step.name.contains("dense drawing") ? step.name : step.name + " on the dense drawing"): p99 \(formatMs(h.p99)) ms, max \(formatMs(h.maxMilliseconds)) ms (p99 at most 4 ms, none over 16 ms)")
        }
    }

    func callgrindTable() throws {
        let frames = quick ? 30 : callgrindFrames
        say("\n## Instructions under callgrind, in process (ten fingers: \(frames) frames; gestures on the dense drawing of \(denseLines) long lines)")
        let started = tt_monotonic_now()
        let steps = try runCallgrind(frames: frames, denseLines: denseLines, screen: screen, keepFiles: keepFiles)
        say("step                                          instructions      per frame/gesture         per touch event")
        for s in steps {
            let perUnit = s.instructions / UInt64(max(s.step.units, 1))
            say(pad(s.step.name, 46) + pad(grouped(s.instructions), 18) + pad(grouped(perUnit) + " /\(s.step.unit)", 26)
                + (s.step.unit != "gesture" && s.step.events > 0 ? grouped(s.instructions / UInt64(s.step.events)) : "-"))
        }
        say(String(format: "(callgrind took %.0f s)", tt_monotonic_now() - started))
    }

    // MARK: The app

    /// The touchtracker built beside this benchmark, (re)built first when missing or older than the
    /// sources, so that `swift run -c release touchtracker-bench` measures the current app.
    func locateApp() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let directory = me.deletingLastPathComponent()
        let path = directory.appendingPathComponent("touchtracker").path
        if FileManager.default.isExecutableFile(atPath: path), !isStale(path) { return path }
        let configuration = directory.lastPathComponent  // release or debug
        let scratch = directory.deletingLastPathComponent().deletingLastPathComponent().path
        say("touchtracker-bench: building touchtracker (\(configuration)) first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "-c", configuration, "--product", "touchtracker", "--scratch-path", scratch]
        process.currentDirectoryURL = URL(fileURLWithPath: HarnessPaths.packageRoot)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("could not build touchtracker; run: swift build -c \(configuration) --product touchtracker")
        }
        return path
    }

    /// Whether any source file is newer than the executable at `path`.
    func isStale(_ path: String) -> Bool {
        guard let built = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        else { return true }
        let root = HarnessPaths.packageRoot
        guard let files = FileManager.default.enumerator(atPath: root + "/Sources") else { return false }
        for case let file as String in files where file.hasSuffix(".swift") && !file.hasPrefix("touchtracker-bench") {
            if let date = (try? FileManager.default.attributesOfItem(atPath: root + "/Sources/" + file))?[.modificationDate] as? Date,
               date > built { return true }
        }
        return false
    }
}
