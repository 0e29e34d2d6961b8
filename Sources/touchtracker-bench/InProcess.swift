// Measurements that need no compositor: hit-testing through the spatial index against a scan of
// every stroke, and what a change to the drawing costs the canvas (cache updates and rebuilds).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import Graphics
import TouchKit
import TouchTrackerKit
import CompositorHarness

struct HitTestResult {
    var lines: Int
    var indexBuildMs: Double
    var indexQueryUs: Double
    var scanQueryUs: Double
    var changeUs: Double
    var mismatches: Int
}

struct CanvasChangeResult {
    var lines: Int
    /// Adding a finished line: drawn into the cache, then the damaged rectangle repainted.
    var addMs: Double
    /// Selecting a line and letting it go again.
    var selectMs: Double
    /// Shrinking the canvas by 100 points each way and growing it back.
    var resizeMs: Double
    /// Removing one: its rectangle of the cache is re-made from the lines there.
    var removeMs: Double
}

func strokes(_ lines: [(x1: Double, y1: Double, x2: Double, y2: Double)]) -> [Stroke] {
    lines.enumerated().map { i, l in
        .line(StrokeID(i + 1), from: Point(x: l.x1, y: l.y1), to: Point(x: l.x2, y: l.y2), width: DrawView.lineWidth)
    }
}

/// Hit-testing at `count` lines: index build time, time per query (20 pt radius, as a finger)
/// through the index and by scanning every stroke, time per change kept up to date, and how often
/// the two answers differ (must be 0).
func measureHitTesting(count: Int, queries: Int, area: Area) -> HitTestResult {
    let drawing = Drawing(strokes: strokes(randomLines(count: count, in: area, seed: 7)))
    var rng = SeededRandom(seed: 99)
    let points = (0..<queries).map { _ in area.randomPoint(inset: 0, using: &rng) }.map { Point(x: $0.0, y: $0.1) }

    var start = tt_monotonic_now()
    _ = drawing.stroke(near: .zero, within: 20)  // builds the index
    let build = tt_monotonic_now() - start

    var found = 0
    start = tt_monotonic_now()
    for p in points where drawing.stroke(near: p, within: 20) != nil { found += 1 }
    let indexTime = (tt_monotonic_now() - start) / Double(points.count)

    let scanned = Array(points.prefix(max(50, min(points.count, 2_000_000 / max(count, 1)))))
    var mismatches = 0
    start = tt_monotonic_now()
    var answers: [StrokeID?] = []
    answers.reserveCapacity(scanned.count)
    for p in scanned { answers.append(SpatialIndex.nearest(in: drawing.strokes, to: p, within: 20)?.id) }
    let scanTime = (tt_monotonic_now() - start) / Double(scanned.count)
    for (p, answer) in zip(scanned, answers) where drawing.stroke(near: p, within: 20)?.id != answer { mismatches += 1 }

    // Changes: add a line, move it, remove it (each updates the index through the observer).
    let changes = 300
    start = tt_monotonic_now()
    for i in 0..<changes {
        let p = points[i % points.count]
        let stroke = drawing.add(.line(drawing.makeID(), from: p, to: p.offsetBy(dx: 40, dy: 15)))
        drawing.update(stroke.id) { $0 = $0.translated(dx: 5, dy: 5) }
        drawing.remove(stroke.id)
    }
    let changeTime = (tt_monotonic_now() - start) / Double(changes * 3)
    _ = found
    return HitTestResult(lines: count, indexBuildMs: build * 1000, indexQueryUs: indexTime * 1e6,
                         scanQueryUs: scanTime * 1e6, changeUs: changeTime * 1e6, mismatches: mismatches)
}

/// What the canvas spends when the drawing changes at `count` lines, rendering as the window
/// does (the damaged rectangle into a window-sized image).
func measureCanvasChanges(count: Int, area: Area) -> CanvasChangeResult {
    let drawing = Drawing(strokes: strokes(randomLines(count: count, in: area, seed: 7)))
    let frame = Rect(x: 0, y: 0, width: area.width, height: area.height)
    let view = DrawView(frame: frame, drawing: drawing)
    let target = ImageSurface(width: Int(area.width), height: Int(area.height))
    func render(_ rect: Rect) {
        let context = CairoContext(surface: target)
        context.clip(to: rect)
        view.draw(rect, in: context)
        target.flush()
    }
    render(frame)  // builds the cache

    let rounds = 20
    var start = tt_monotonic_now()
    var added: [Stroke] = []
    for i in 0..<rounds {
        let p = Point(x: 100 + Double(i * 37 % 1500), y: 100 + Double(i * 53 % 800))
        let stroke = drawing.add(.line(drawing.makeID(), from: p, to: p.offsetBy(dx: 80, dy: 30), width: DrawView.lineWidth))
        added.append(stroke)
        render(stroke.bounds.integral)
    }
    let add = (tt_monotonic_now() - start) / Double(rounds)

    // Selecting a line (a tap) and letting it go: its rectangle of the cache is re-made twice.
    start = tt_monotonic_now()
    for stroke in added.prefix(5) {
        view.select(stroke.id)
        render(stroke.bounds.integral)
        view.select(nil)
        render(stroke.bounds.integral)
    }
    let select = (tt_monotonic_now() - start) / 5

    // A window resize: 100 points narrower and shorter, then back (the cache is kept; only the
    // strips shown again are drawn).
    start = tt_monotonic_now()
    view.frame = Rect(x: 0, y: 0, width: area.width - 100, height: area.height - 100)
    render(view.bounds)
    view.frame = frame
    render(frame)
    let resize = tt_monotonic_now() - start

    let removals = count >= 100_000 ? 3 : 10
    start = tt_monotonic_now()
    for stroke in added.prefix(removals) {
        drawing.remove(stroke.id)
        render(stroke.bounds.integral)
    }
    let remove = (tt_monotonic_now() - start) / Double(removals)
    return CanvasChangeResult(lines: count, addMs: add * 1000, selectMs: select * 1000, resizeMs: resize * 1000,
                              removeMs: remove * 1000)
}

/// Heap bytes per finished line held by a drawing of `count` lines, with its id table and its
/// hit-test index built.
func measureDrawingMemory(count: Int, area: Area) -> Double {
    let before = tt_heap_bytes_in_use()
    let drawing = Drawing(strokes: strokes(randomLines(count: count, in: area, seed: 7)))
    _ = drawing.stroke(near: .zero, within: 20)  // builds the index
    let after = tt_heap_bytes_in_use()
    withExtendedLifetime(drawing) {}
    return Double(after - before) / Double(max(count, 1))
}
