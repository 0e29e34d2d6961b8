// `touchtracker measure-file` (hidden): how long saving and loading a drawing of N lines takes on
// this machine, through the same code as autosave and start-up: the whole file, then one more line
// appended to the journal, then opening both. For docs/file-format.md and for checking that a
// change did not make saving slow.
#if canImport(Glibc)
import Glibc
#endif
import AppCommandLine
import CShims
import TouchKit
import TouchTrackerKit

struct MeasureFile {
    let options: MeasureFileOptions

    func run() throws {
        // Coordinates like Weston's: multiples of 1/256 inside a 1024x768 window.
        var random = SystemRandomNumberGenerator()
        func coordinate(_ limit: Int) -> Double { Double(Int.random(in: 0..<(limit * 256), using: &random)) / 256 }
        let strokes = (1...max(1, options.lines)).map { id in
            Stroke.line(StrokeID(id), from: Point(x: coordinate(1024), y: coordinate(768)),
                        to: Point(x: coordinate(1024), y: coordinate(768)))
        }
        let path = options.folder + "/touchtracker-measure-\(getpid()).json"
        defer { unlink(path) }
        var best = (encode: Double.infinity, write: Double.infinity, read: Double.infinity, decode: Double.infinity)
        var bytes = 0
        for _ in 0..<max(1, options.runs) {
            let report = Autosaver.save(strokes, to: path)
            if case .failure(let error) = report.result {
                printError("touchtracker: \(error.message)")
                throw ExitStatus(1)
            }
            bytes = report.bytes
            best.encode = min(best.encode, report.encodeSeconds)
            best.write = min(best.write, report.writeSeconds)
            let start = tt_monotonic_now()
            guard case .bytes(let data) = try DrawingFile.read(path, maxBytes: DrawingFormat.Limits.standard.maxFileBytes) else {
                throw ExitStatus(1)
            }
            let readAt = tt_monotonic_now()
            let loaded = try DrawingFormat.decode(data)
            best.read = min(best.read, readAt - start)
            best.decode = min(best.decode, tt_monotonic_now() - readAt)
            guard loaded == strokes else {
                printError("touchtracker: the drawing did not read back the same")
                throw ExitStatus(1)
            }
        }
        func ms(_ s: Double) -> String {
            if s < 0.001 { return String(Int((s * 1_000_000).rounded())) + " µs" }
            return s < 0.01 ? "\(Double(Int(s * 100_000)) / 100) ms" : String(Int((s * 1000).rounded())) + " ms"
        }
        print("\(strokes.count) lines, \(bytes) bytes: encode \(ms(best.encode)), write+fsync+rename \(ms(best.write)), read \(ms(best.read)), decode \(ms(best.decode))")
        try measureAppend(strokes, path: path, ms: ms)
    }

    /// One new line after another, as autosave saves them when the file is large enough for a
    /// journal, then opening the file with the journal those lines made.
    private func measureAppend(_ strokes: [Stroke], path: String, ms: (Double) -> String) throws {
        let journal = DrawingJournal.path(for: path)
        defer { unlink(journal) }
        let drawing = Drawing(strokes: strokes)
        let clock = ManualClock()
        let saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 0, inBackground: false)
        saver.setNeedsSave()
        clock.advance(by: 0)
        let appends = 100
        var best = (encode: Double.infinity, write: Double.infinity)
        var bytes = 0
        for n in 0..<appends {
            drawing.add(.line(drawing.makeID(), from: Point(x: 10, y: Double(n)), to: Point(x: 500.25, y: Double(n) + 0.5)))
            clock.advance(by: 0)
            guard let report = saver.lastReport, case .success = report.result, saver.status == .saved else {
                printError("touchtracker: appending failed: \(saver.status)")
                throw ExitStatus(1)
            }
            guard report.kind == .append else {
                print("\(strokes.count) lines: below the journal threshold, every save writes the whole file")
                return
            }
            bytes = report.bytes
            best.encode = min(best.encode, report.encodeSeconds)
            best.write = min(best.write, report.writeSeconds)
        }
        let start = tt_monotonic_now()
        let opened = try DrawingFile.load(path)
        let openSeconds = tt_monotonic_now() - start
        guard opened == drawing.strokes else {
            printError("touchtracker: the drawing and its journal did not read back the same")
            throw ExitStatus(1)
        }
        print("one more line: \(bytes) bytes appended, encode \(ms(best.encode)), write+fsync \(ms(best.write)); opening with \(appends) lines in the journal: \(ms(openSeconds))")
    }
}
