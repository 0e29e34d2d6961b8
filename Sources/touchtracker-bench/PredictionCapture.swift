// What the compositor showed of a stroke, read from the plugin's `capture` (the stroke colour's
// coverage at every repaint): where the stroke ends in each composed picture, measured
// along the finger's scripted path, against where the finger truly was when that picture was
// shown (CoverageCapture, PredictionCoverage.swift). Used by the prediction
// phase for the app and weston-simple-touch alike.
import Foundation
import CompositorHarness
import TouchKit

/// A path sampled every millisecond, with the distance along it, for reading pixels against it.
struct SampledPath {
    let path: ScriptedPath
    let origin: Point
    let step = 0.001
    let start = -0.3
    var points: [Point] = []
    var arc: [Double] = []

    init(_ path: ScriptedPath, placedAt origin: Point) {
        self.path = path
        self.origin = origin
        var t = start, length = 0.0
        var last: Point?
        while t <= path.duration + 0.6 {
            let p = path.position(t)
            let placed = Point(x: p.x + origin.x, y: p.y + origin.y)
            if let last { length += last.distance(to: placed) }
            points.append(placed)
            arc.append(length)
            last = placed
            t += step
        }
    }

    func index(_ t: Double) -> Int { min(max(Int(((t - start) / step).rounded()), 0), points.count - 1) }
    func time(_ i: Int) -> Double { start + Double(i) * step }

    /// The nearest point of the path between `from` and `to` to `p`: its time and distance, on
    /// the segments between the millisecond samples (a millisecond is 3 pt at 3,000 pt/s).
    func nearest(_ p: Point, from: Double, to: Double) -> (time: Double, distance: Double) {
        var best = (index: index(from), distance: Double.infinity)
        for i in index(from)...index(to) {
            let q = points[i]
            let d = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)
            if d < best.distance { best = (i, d) }
        }
        var result = (time: time(best.index), distance: best.distance.squareRoot())
        for j in [best.index - 1, best.index] where j >= 0 && j + 1 < points.count {
            let a = points[j], b = points[j + 1]
            let ab = Point(x: b.x - a.x, y: b.y - a.y), length2 = ab.x * ab.x + ab.y * ab.y
            guard length2 > 1e-12 else { continue }
            let u = min(max(((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / length2, 0), 1)
            let q = Point(x: a.x + u * ab.x, y: a.y + u * ab.y)
            let d = q.distance(to: p)
            if d < result.distance { result = (time(j) + u * step, d) }
        }
        return result
    }

    /// The distance along the path at `t`, between its millisecond samples.
    func arcLength(at t: Double) -> Double {
        let x = (t - start) / step
        let i = min(max(Int(x.rounded(.down)), 0), arc.count - 2)
        let u = min(max(x - Double(i), 0), 1)
        return arc[i] + u * (arc[i + 1] - arc[i])
    }
}

/// One shown frame read against the path.
struct ShownTip {
    /// When the frame was shown, seconds from the path's start.
    var shown: Double
    /// The stroke's end: the path time nearest to it, and how far off the path it lies (signed:
    /// positive to the left of the path's direction).
    var tipTime: Double
    var offPath: Double
}

/// What each client draws, and so how its end is found.
enum StrokeShape {
    /// A straight line from where the finger landed, with round caps of this radius (the app's
    /// line tool): its end is read from the coverage around it (subpixelLineEnd).
    case line(from: Point, radius: Double)
    /// A dot of this radius at every sample (weston-simple-touch): its end is the newest dot, the
    /// pixel on the path at the latest time, less the dot's radius.
    case dots(radius: Double)
}

/// Where the stroke of `shape` ends in `pixels` (centre and coverage), read against the part of
/// the path around `shown` (a quarter of a second before to a little after).
func readTip(_ pixels: [(point: Point, weight: Double)], on path: SampledPath, shown: Double, shape: StrokeShape) -> ShownTip? {
    let from = shown - 0.25, to = shown + 0.12
    switch shape {
    case .line(let start, let radius):
        guard let end = subpixelLineEnd(pixels, from: start, radius: radius) else { return nil }
        let n = path.nearest(end, from: from, to: to)
        return ShownTip(shown: shown, tipTime: n.time, offPath: side(end, of: path, at: n.time) * n.distance)
    case .dots(let radius):
        let window = path.points[path.index(from)...path.index(to)]
        guard let minX = window.map(\.x).min(), let maxX = window.map(\.x).max(),
              let minY = window.map(\.y).min(), let maxY = window.map(\.y).max() else { return nil }
        var tip = -Double.infinity
        for (p, w) in pixels where w > 0.5 && p.x >= minX - 4 && p.x <= maxX + 4 && p.y >= minY - 4 && p.y <= maxY + 4 {
            let n = path.nearest(p, from: from, to: to)
            if n.distance <= radius + 1 { tip = max(tip, n.time) }
        }
        guard tip > -Double.infinity else { return nil }
        // The newest dot's centre lies its radius behind its front pixel.
        let speed = max(path.path.speed(at: tip), 1)
        return ShownTip(shown: shown, tipTime: tip - (radius + 0.5) / speed, offPath: 0)
    }
}

/// +1 when `p` lies to the left of the path's direction at `t`, else -1.
private func side(_ p: Point, of path: SampledPath, at t: Double) -> Double {
    let a = path.points[path.index(t - 0.002)], b = path.points[path.index(t + 0.002)]
    let q = path.points[path.index(t)]
    return (b.x - a.x) * (p.y - q.y) - (b.y - a.y) * (p.x - q.x) >= 0 ? 1 : -1
}
