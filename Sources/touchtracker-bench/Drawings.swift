// The drawings the benchmark loads: random short lines (as a hand adds them over time), and the
// dense drawing, long lines with both ends anywhere on the canvas, so that every point of the
// canvas lies under many lines: a tap there finds lines, every rectangle of the line cache that
// is re-made draws many of them, and a finger's band of the screen crosses hundreds.
#if canImport(Glibc)
import Glibc
#endif
import TouchKit
import TouchTrackerKit
import CompositorHarness

enum CanvasDrawing: Equatable {
    /// `count` random lines 20 to 150 points long.
    case short(Int)
    /// `count` lines with random ends anywhere on the canvas.
    case dense(Int)
    /// `count` random short lines in a box of ``sketchSize`` points in the canvas's middle, paper
    /// around it: a drawing as most are, a doodle or a note in part of the window.
    case sketch(Int)

    static let empty = CanvasDrawing.short(0)
    static let sketchSize = (width: 480.0, height: 320.0)

    var lines: Int {
        switch self {
        case .short(let n), .dense(let n), .sketch(let n): n
        }
    }

    var name: String {
        switch self {
        case .short(0): "empty canvas"
        case .short(let n): "\(n) lines"
        case .dense(let n): "dense drawing (\(n) long lines)"
        case .sketch(let n): "a sketch (\(n) lines in \(Int(Self.sketchSize.width))x\(Int(Self.sketchSize.height)) pt)"
        }
    }

    /// The lines, in global coordinates of `area`, ends on the 1/256 pt grid of touch coordinates.
    func segments(in area: Area) -> [(x1: Double, y1: Double, x2: Double, y2: Double)] {
        switch self {
        case .short(let n): return randomLines(count: n, in: area, seed: 7)
        case .dense(let n): return denseLines(count: n, in: area, seed: 11)
        case .sketch(let n):
            let (width, height) = (min(Self.sketchSize.width, area.width), min(Self.sketchSize.height, area.height))
            return randomLines(count: n, in: Area(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                                                  width: width, height: height), seed: 5)
        }
    }

    func strokes(in area: Area) -> [Stroke] { benchStrokes(segments(in: area)) }
}

/// `count` lines whose two ends are random points anywhere in `area`.
func denseLines(count: Int, in area: Area, seed: UInt64) -> [(x1: Double, y1: Double, x2: Double, y2: Double)] {
    var rng = SeededRandom(seed: seed)
    func fixed(_ v: Double) -> Double { (v * 256).rounded() / 256 }
    return (0..<count).map { _ in
        let (x1, y1) = area.randomPoint(inset: 8, using: &rng)
        let (x2, y2) = area.randomPoint(inset: 8, using: &rng)
        return (fixed(x1), fixed(y1), fixed(x2), fixed(y2))
    }
}

private func benchStrokes(_ lines: [(x1: Double, y1: Double, x2: Double, y2: Double)]) -> [Stroke] { strokes(lines) }

extension TouchTrackerBench {
    /// Writes `strokes` as a drawing file with the app's own writer (docs/file-format.md).
    static func writeDrawing(_ strokes: [Stroke], to path: String) throws {
        let encoded = DrawingFormat.encode(strokes)
        guard encoded.omitted.isEmpty else {
            throw HarnessError("the drawing writer left out \(encoded.omitted.count) lines: \(encoded.omitted.first!.reason)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HarnessError("cannot create \(path)") }
        defer { close(fd) }
        var offset = 0
        while offset < encoded.bytes.count {
            let n = encoded.bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw HarnessError("cannot write \(path)") }
            offset += n
        }
    }
}
