// Instruction counts of the in-process sequence (Gestures.swift) under valgrind's callgrind:
// counts do not depend on the machine's other work, so two runs (or two branches) compare to the
// instruction. The benchmark starts itself under callgrind as a worker; every measured part runs
// inside the function `ttbench_measured`, and callgrind is told to count only inside it
// (--collect-atstart=no --toggle-collect) and to write a dump after each call (--dump-after), so
// dump N holds exactly the instructions of measured part N. Setting up (the drawing, its line
// cache) is run but not counted.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CompositorHarness
import CShims

nonisolated(unsafe) private var measuredBody: () -> Void = {}

/// Everything callgrind counts runs inside this function (its symbol is what the
/// --toggle-collect and --dump-after options name).
@_silgen_name("ttbench_measured")
@inline(never)
func ttbenchMeasured() {
    measuredBody()
}

/// The worker's side: runs the sequence and prints one line per measured part, in order.
func runCallgrindWorker(width: Int, height: Int, scale: Double, frames: Int, denseLines: Int) {
    // One CPU, so the line cache builds in one band: valgrind runs threads one at a time anyway,
    // and a thread waiting for another's band spins, which it would count at random.
    _ = tt_use_one_cpu()
    // The app's clock moves only as the sequence moves it: on real time, how fast the code ran
    // under valgrind (some 50 times slower) would decide what it did (a live line drafted or
    // smoothed, how much of a cache build a turn's budget takes), and so what was counted.
    runGestureSequence(width: width, height: height, scale: scale, frames: frames, denseLines: denseLines, realTime: false, measure: { step, body in
        withoutActuallyEscaping(body) { body in
            measuredBody = body
            ttbenchMeasured()
            measuredBody = {}
        }
        say("step\t\(step.name)\t\(step.unit)\t\(step.units)\t\(step.events)")
    })
}

struct CallgrindStep {
    var step: GestureStep
    var instructions: UInt64
}

/// Runs this executable under callgrind as a worker and returns each measured part's count.
func runCallgrind(frames: Int, denseLines: Int, screen: BenchScreen, keepFiles: Bool) throws -> [CallgrindStep] {
    guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw HarnessError("valgrind is not installed (apt-get install valgrind)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-bench-callgrind-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { if !keepFiles { try? FileManager.default.removeItem(atPath: directory) } else { say("  (callgrind files: \(directory))") } }
    // Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes: the worker is
    // a copy of this executable without debug information (its symbol table stays, and with it
    // the function names callgrind is told about).
    let me = directory + "/touchtracker-bench-worker"
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
    strip.arguments = ["--strip-debug", URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, me]
    try strip.run()
    strip.waitUntilExit()
    guard strip.terminationStatus == 0 else { throw HarnessError("objcopy --strip-debug failed (binutils)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    // Names written out in full in every dump: compressed, a dump names a function by a number
    // that an earlier dump defined, and callgrind_annotate then reads one dump as all `main`.
    process.arguments = ["--tool=callgrind", "--collect-atstart=no", "--toggle-collect=ttbench_measured",
                         "--dump-after=ttbench_measured", "--compress-strings=no", "--compress-pos=no",
                         "--callgrind-out-file=\(directory)/callgrind.out",
                         me, "--callgrind-worker", "--callgrind-frames", "\(frames)", "--dense-lines", "\(denseLines)",
                         "--width", "\(screen.width)", "--height", "\(screen.height)", "--scale", "\(screen.scale)"]
    if keepFiles { say("  (worker: \(valgrind) \(process.arguments!.joined(separator: " ")))") }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw HarnessError("the callgrind worker failed (\(process.terminationStatus)):\n\(log.suffix(3000))")
    }
    let steps: [GestureStep] = text.split(separator: "\n").compactMap { line in
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count == 5, f[0] == "step", let units = Int(f[3]), let events = Int(f[4]) else { return nil }
        return GestureStep(name: String(f[1]), unit: String(f[2]), units: units, events: events)
    }
    for line in text.split(separator: "\n") where !line.hasPrefix("step\t") { say("  " + line) }
    // Dumps are numbered in the order they were made: callgrind.out.1, .2, ...
    var counts: [UInt64] = []
    for n in 1... {
        guard let dump = try? String(contentsOfFile: "\(directory)/callgrind.out.\(n)", encoding: .utf8) else { break }
        counts.append(totalInstructions(dump))
    }
    guard counts.count == steps.count else {
        throw HarnessError("callgrind wrote \(counts.count) dumps for \(steps.count) measured parts (in \(directory))")
    }
    return zip(steps, counts).map { CallgrindStep(step: $0, instructions: $1) }
}

/// The `summary:` (or `totals:`) line of a callgrind dump: instructions, the first event.
func totalInstructions(_ dump: String) -> UInt64 {
    for line in dump.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
        if let n = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) { return n }
    }
    return 0
}
