// The line cache's whole build: every stroke that shows drawn into a fresh raster a slice a turn
// within the turn's budget, progress shown ten times a second (unless the raster of an older zoom
// stands in meanwhile), the finished raster shown in a turn of its own.
import Graphics
import TouchKit

extension LineCache {
    /// The rest of a whole build, a slice a turn. Progress is shown ten times a second, in a turn
    /// of its own: a showing repaints the whole canvas, which with a slice in the same turn cost
    /// twice what either does.
    func scheduleBuild(on clock: Clock) {
        buildTimer = clock.schedule(at: clock.now) { [weak self, unowned clock] in
            guard let self else { return }
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
                self.buildTimer = clock.schedule(at: clock.now) { [weak self] in
                    self?.buildTimer = nil
                    self?.finishedUnshown = false
                    self?.stale = nil
                    self?.onProgress()
                }
            }
        }
    }

    /// Draws the next slice; schedules the next turn, or ends the build with the strokes added
    /// since it began.
    func continueBuild() {
        guard var current = build, let image else { return }
        if paperPending {
            paperPending = false
            CairoContext(surface: image).replace(Rect(x: 0, y: 0, width: Double(image.width) / image.scale,
                                                      height: Double(image.height) / image.scale), with: paper)
        }
        let context = Self.strokeContext(image, viewport: viewport)
        let strokes = buildStrokes
        let left = excluded()
        // Any change but an addition restarts the build, so the strokes it covers are still there;
        // the bounds are clamped all the same.
        current.end = min(current.end, drawing.strokes.count)
        // A slice ends after `slice` strokes or when the turn's budget is spent (long lines across
        // a big canvas cost many times what short ones do).
        let turnClock = clock(), start = turnClock?.now ?? 0
        let area = buildArea
        var stop = current.next, drawn = 0
        var batch: [Stroke] = []
        batch.reserveCapacity(Self.buildBatch)
        while stop < strokes.count, drawn < max(slice, 1) {
            let stroke = strokes[stop]
            stop += 1
            // Strokes outside the raster cost a glance each.
            guard stroke.id != left, stroke.mayPaint(into: area) else { continue }
            batch.append(stroke)
            guard batch.count == Self.buildBatch || stop == strokes.count || drawn + batch.count >= slice else { continue }
            StrokeRenderer.draw(batch, in: context, ink: ink)
            drawn += batch.count
            batch.removeAll(keepingCapacity: true)
            // After every batch: a line across a big canvas takes a tenth of a millisecond or
            // more, so batches stay small (sixteen lines a look overran the budget by more than
            // the budget).
            if let turnClock, turnClock.now - start >= Self.turnBudget { break }
        }
        StrokeRenderer.draw(batch, in: context, ink: ink)
        current.next = stop
        build = current
        guard stop == strokes.count else {
            guard let clock = clock() else { return continueBuild() }
            scheduleBuild(on: clock)
            return
        }
        StrokeRenderer.draw(drawing.strokes[current.end...].lazy.filter { $0.id != left }, in: context, ink: ink)
        build = nil
        buildStrokes = []
        // Without a clock the build is done before anything is shown: nothing older to show.
        if clock() == nil { stale = nil }
    }
}
