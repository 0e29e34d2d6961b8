// The line cache's whole build: every stroke that shows drawn into a fresh raster a slice a turn
// within the turn's budget, progress shown ten times a second (unless the raster of an older zoom
// stands in meanwhile), the finished raster shown in a turn of its own.
//
// The raster is cut into bands of rows, one per core (up to four), drawn at once on threads of
// their own: each band goes through every stroke in paint order, clipped to its rows, so the
// picture is the one a single pass makes. A whole build is the cache's one long job (every line a
// window shows, at 100,000 lines a few hundred milliseconds on one core), and the bands share it
// out. Within a band the strokes are drawn a strip of rows at a time (BuildSlice.swift).
import CShims
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import TouchKit

extension LineCache {
    /// A whole build in progress: the next stroke each band draws, and the number of strokes the
    /// build covers (the drawing's count when it began; strokes added since are drawn live by the
    /// canvas).
    struct WholeBuild {
        /// Where each band stands, in the order of `buildBands`.
        var bands: [BandProgress]
        var end: Int
    }

    /// One band of the raster a build draws: a view of its rows, where they are in the raster's
    /// points, and the part of the drawing they show. Sendable: during a slice only its own
    /// thread draws on its rows.
    struct BuildBand: @unchecked Sendable {
        let rows: ImageSurface
        /// The raster, and the row of it the band begins at.
        let raster: ImageSurface
        let top: Int
        let shown: Rect
        let area: Rect
    }

    /// How many bands a build cuts the raster into: one per core the process may use (its
    /// affinity, which `taskset` and a container's cpuset narrow), at most four (the compositor and
    /// the app's own turns want a core too).
    static let buildThreads = max(1, min(Int(tt_usable_cpus()), 4))

    /// The bands of `raster` (showing the drawing through `viewport`) for a build of `strokes`,
    /// cut where each holds about as much work: a drawing often fills only part of the window
    /// (all of it in a few rows at 10 %), and bands of equal height would leave a core idle. The
    /// work is estimated from a sample of the strokes, each weighed by the rows it spans.
    static func bands(of raster: ImageSurface, viewport: CanvasViewport, strokes: [Stroke]) -> [BuildBand] {
        let height = raster.height
        let cuts = workCuts(strokes, rows: height, count: max(1, min(buildThreads, height / 16)),
                            rowOf: { y in (y - viewport.origin.y) * viewport.zoom * raster.scale })
        return zip(cuts, cuts.dropFirst()).filter { $0 < $1 }.map { top, bottom in
            let points = Rect(x: 0, y: Double(top) / raster.scale, width: Double(raster.width) / raster.scale,
                              height: Double(bottom - top) / raster.scale)
            return BuildBand(rows: raster.rows(top..<bottom), raster: raster, top: top, shown: points,
                             area: viewport.drawingRect(points))
        }
    }

    /// Row boundaries (from 0 to `rows`) cutting the sampled strokes' work into `count` parts
    /// about equal: a histogram of strips, each stroke's weight (a constant plus its rows) put in
    /// the strip of its middle.
    static func workCuts(_ strokes: [Stroke], rows: Int, count: Int, rowOf: (Double) -> Double) -> [Int] {
        guard count > 1 else { return [0, rows] }
        let strips = min(rows, 128)
        var work = [Double](repeating: 0, count: strips)
        let step = max(1, strokes.count / 1024)
        for i in stride(from: 0, to: strokes.count, by: step) {
            let box = strokes[i].bounds
            let top = rowOf(box.minY), bottom = rowOf(box.maxY)
            guard bottom >= 0, top < Double(rows) else { continue }
            let middle = (max(top, 0) + min(bottom, Double(rows))) / 2
            work[min(strips - 1, max(0, Int(middle * Double(strips) / Double(rows))))] += 8 + min(bottom, Double(rows)) - max(top, 0)
        }
        let total = work.reduce(0, +)
        // Nothing sampled shows: equal heights.
        guard total > 0 else { return (0...count).map { rows * $0 / count } }
        var cuts = [0], sum = 0.0
        for (strip, w) in work.enumerated() where cuts.count < count {
            sum += w
            if sum >= total * Double(cuts.count) / Double(count) { cuts.append(rows * (strip + 1) / strips) }
        }
        // Fewer cuts than bands (the work in one strip): the rest end at the bottom, empty, and
        // are left out.
        while cuts.count < count { cuts.append(rows) }
        cuts.append(rows)
        return cuts
    }

    /// The rest of a whole build, a slice a turn. Progress is shown ten times a second, in a turn
    /// of its own: a showing repaints the whole canvas, which with a slice in the same turn cost
    /// twice what either does. The first slice comes at `time` (now by default).
    func scheduleBuild(on clock: Clock, at time: Double? = nil) {
        buildTimer = clock.schedule(at: time ?? clock.now) { [unowned self, unowned clock] in
            self.buildTimer = nil
            // A raster of an older zoom on screen meanwhile: nothing to show until the end.
            if self.stale == nil, clock.now - self.lastProgressShown >= 0.1 {
                self.lastProgressShown = clock.now
                self.onProgress()
                return self.scheduleBuild(on: clock)
            }
            self.continueBuild()
            // The finished raster is shown in the next turn, for the same reason.
            if self.build == nil {
                self.finishedUnshown = true
                self.buildTimer = clock.schedule(at: clock.now) { [unowned self] in
                    self.buildTimer = nil
                    self.finishedUnshown = false
                    if !self.holdsStale { self.stale = nil }
                    self.onProgress()
                }
            }
        }
    }

    /// The bands' threads drew in heaps of their own, which keep what the build freed until they
    /// happen to shrink (VmRSS under Weston at 4K stayed up to a megabyte higher): a second after
    /// the last build, when the window is likely at rest, it goes back to the system. Not at once:
    /// pinches and pans end builds one after another, and a trim takes its turn's time.
    func releaseFreedMemorySoon() {
        guard let clock = clock() else { return }
        trimTimer?.cancel()
        trimTimer = clock.schedule(at: clock.now + 1) { [unowned self] in
            self.trimTimer = nil
            _ = tt_release_free_memory()
        }
    }

    /// Draws the next slice of every band at once; schedules the next turn, or ends the build
    /// with the strokes added since it began.
    func continueBuild() {
        guard var current = build, let image else { return }
        // Any change but an addition restarts the build, so the strokes it covers are still there;
        // the bounds are clamped all the same.
        current.end = min(current.end, drawing.strokes.count)
        let slice = BuildSlice(strokes: buildStrokes, boxes: buildBoxes, widest: drawing.widestStroke, left: excluded(), ink: ink,
                               viewport: viewport, paper: paper, most: max(slice, 1), clock: clock().map(TurnClock.init),
                               budget: Self.turnBudget / Double(buildBands.count))
        let bands = buildBands
        let progress = current.bands
        if bands.count == 1 {
            slice.draw(bands[0], progress[0])
        } else {
            DispatchQueue.concurrentPerform(iterations: bands.count) { i in slice.draw(bands[i], progress[i]) }
        }
        image.markDirty()
        build = current
        guard progress.allSatisfy(\.isDone) else {
            guard let clock = clock() else { return continueBuild() }
            scheduleBuild(on: clock)
            return
        }
        let left = excluded()
        let context = Self.strokeContext(image, viewport: viewport)
        StrokeRenderer.draw(drawing.strokes[current.end...].lazy.filter { $0.id != left }, in: context, ink: ink)
        // Paper laid wherever older lines were: the lines shown now are all there is.
        inked = inkPixels(in: image)
        build = nil
        buildStrokes = []
        buildBoxes = []
        buildBands = []
        releaseFreedMemorySoon()
        // Without a clock the build is done before anything is shown: nothing older to show.
        if clock() == nil { stale = nil }
    }
}
