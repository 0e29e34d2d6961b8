// The stroke's end to a fraction of a pixel. The plugin's `capture` given a background colour
// keeps how much of each pixel the stroke's colour covers (meson-helpers/README.md), so the
// antialiased edge places the stroke where a mask of pure-colour pixels only says "this pixel or
// the next". For the app's straight line (a capsule of known radius from where the finger landed)
// the end is found from the coverage around it: the coverage beyond a cut across the line, less
// the round cap's area, over the line's width, is how far the line goes on past the cut.
import CompositorHarness
import Foundation
import TouchKit

/// A capture of one colour's coverage at every repaint (`tt-capture 2`), or of its mask
/// (`tt-capture 1`, read as full coverage).
struct CoverageCapture {
    var x = 0, y = 0, width = 0, height = 0
    /// CLOCK_MONOTONIC seconds; `presented` as in RepaintCapture. `coverage`: a byte per pixel.
    var frames: [(repaint: Double, presented: Double?, coverage: [UInt8])] = []

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path).map([UInt8].init),
              let newline = data.firstIndex(of: 10) else { throw HarnessError("no capture at \(path)") }
        let fields = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 7, fields[0] == "tt-capture", let version = Int(fields[1]), version == 1 || version == 2,
              let x = Int(fields[2]), let y = Int(fields[3]), let w = Int(fields[4]), let h = Int(fields[5]),
              let n = Int(fields[6]) else { throw HarnessError("bad capture header in \(path)") }
        (self.x, self.y, width, height) = (x, y, w, h)
        let maskBytes = version == 2 ? w * h : (w * h + 7) / 8
        var raw: [(repaint: Double, latest: Double, coverage: [UInt8])] = []
        var at = newline + 1
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[o + $1]) << (8 * UInt64($1)) } }
        for _ in 0..<n where at + 16 + maskBytes <= data.count {
            let bytes = data[(at + 16)..<(at + 16 + maskBytes)]
            let coverage = version == 2 ? Array(bytes) : (0..<(w * h)).map { i in bytes[bytes.startIndex + i / 8] & (1 << (i % 8)) != 0 ? 255 : 0 }
            raw.append((Double(u64(at)) / 1e9, Double(u64(at + 8)) / 1e9, coverage))
            at += 16 + maskBytes
        }
        frames = raw.enumerated().map { i, frame in
            (frame.repaint, raw[(i + 1)...].first { $0.latest > frame.repaint }?.latest, frame.coverage)
        }
    }

    /// The covered pixels of a frame: centre in global coordinates and coverage from 0 to 1.
    func pixels(_ coverage: [UInt8]) -> [(point: Point, weight: Double)] {
        var result: [(point: Point, weight: Double)] = []
        for (i, c) in coverage.enumerated() where c != 0 {
            result.append((Point(x: Double(x + i % width) + 0.5, y: Double(y + i / width) + 0.5), Double(c) / 255))
        }
        return result
    }
}

extension WestonSession {
    /// Starts keeping the coverage of `rgb` over `background` (both 0xRRGGBB) at every repaint.
    func startCoverageCapture(x: Int, y: Int, width: Int, height: Int, rgb: UInt32, background: UInt32) throws {
        try control.send("capture start \(x) \(y) \(width) \(height) \(hex(rgb)) \(hex(background))")
    }

    /// Stops capturing and reads what was kept (written to `path`).
    func stopCoverageCapture(writingTo path: String) throws -> CoverageCapture {
        try control.send("capture stop")
        try control.send("capture write \(path)", timeout: 60)
        return try CoverageCapture(path: path)
    }

    private func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb, radix: 16)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}

/// The end of a straight stroke of round caps and `radius` from `start`, from its pixels'
/// coverage; nil when too little is drawn to say.
func subpixelLineEnd(_ pixels: [(point: Point, weight: Double)], from start: Point, radius r: Double) -> Point? {
    let solid = pixels.filter { $0.weight > 0.5 }
    guard let far = solid.max(by: { $0.point.distance(to: start) < $1.point.distance(to: start) })?.point else { return nil }
    let reach = far.distance(to: start)
    guard reach > r else { return nil }
    var d = Point(x: (far.x - start.x) / reach, y: (far.y - start.y) / reach)
    var end: Point?
    // Twice: the direction from the landing point through the middle of the end's coverage
    // (the line passes through both) is finer than through one pixel.
    for _ in 0..<2 {
        let front = pixels.map { ($0.point.x - start.x) * d.x + ($0.point.y - start.y) * d.y }.max() ?? 0
        // The cut: three radii behind the front, but past the start's cap; short lines are read
        // whole (their area is the body and both caps).
        let cut = front - 3 * r
        let whole = cut < r
        var area = 0.0, cx = 0.0, cy = 0.0
        for (p, w) in pixels {
            let s = (p.x - start.x) * d.x + (p.y - start.y) * d.y
            guard whole || s > cut else { continue }
            area += w
            cx += w * p.x
            cy += w * p.y
        }
        guard area > 0 else { return nil }
        let length = whole ? (area - Double.pi * r * r) / (2 * r) : cut + (area - Double.pi * r * r / 2) / (2 * r)
        let centre = Point(x: cx / area, y: cy / area)
        let toCentre = centre.distance(to: start)
        if toCentre > 0.5 { d = Point(x: (centre.x - start.x) / toCentre, y: (centre.y - start.y) / toCentre) }
        end = Point(x: start.x + d.x * max(length, 0), y: start.y + d.y * max(length, 0))
    }
    return end
}

/// The pixels that belong to `path`'s stroke among several fingers' straight strokes: those
/// nearer its line than any other finger's (all of them when there is one finger).
func nearest(_ pixels: [(point: Point, weight: Double)], to path: SampledPath,
             among fingers: [SampledPath]) -> [(point: Point, weight: Double)] {
    guard fingers.count > 1 else { return pixels }
    func line(_ p: SampledPath) -> (Point, Point) {
        let a = p.points[p.index(0)], b = p.points[p.index(p.path.duration)]
        let d = max(a.distance(to: b), 1e-9)
        return (a, Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d))
    }
    let lines = fingers.map(line), mine = line(path)
    func distance(_ q: Point, _ l: (Point, Point)) -> Double { abs((q.x - l.0.x) * -l.1.y + (q.y - l.0.y) * l.1.x) }
    return pixels.filter { pixel in
        let own = distance(pixel.point, mine)
        return lines.allSatisfy { distance(pixel.point, $0) >= own }
    }
}
