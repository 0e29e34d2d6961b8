// The lines under fingers, and who draws them: the canvas through bands it marks dirty, or the
// window's painter as live lines (TouchKit's LiveLines) with the line cache as their backdrop.
// Straight live lines, while the line cache is all the canvas shows beneath them, go to the window:
// it draws them as rows of pixels and erases them by copying the cache back along those rows,
// instead of the canvas repainting bands along each line where it was and where it is. Fingers
// moving, ten or a flood, then cost the lines' own pixels. This type is the one place that
// decides which, so every change to a line in progress is shown the same way.
import TouchKit

final class LinesInProgress {
    private unowned let canvas: DrawView

    /// One stroke per finger on the glass (a line, or a freehand stroke), keyed by its touch (T1:
    /// the touch object is the identity).
    private(set) var strokes: [ObjectIdentifier: Stroke] = [:]
    /// Live lines are drafted (drawn unsmoothed) in frames that would cost too much otherwise.
    private var quality = LiveLineQuality()
    /// Whether the last frame's live lines went to the window.
    private(set) var windowDrawsThem = false
    /// The finished lines that were waiting to go into the line cache at the last frame.
    private var pendingAtLastFrame: Set<StrokeID> = []
    /// Lines fingers finished while the window drew the live lines, drawn into the cache at once:
    /// the next frame's settled lines, or marked dirty if the window stops drawing them first.
    private var settled: [Stroke] = []
    /// Lines a finger finished that go into the cache as settled lines when the drawing adds them
    /// (a paste of thousands of lines goes into the cache in one batch on the next turn instead).
    private var settling: Set<StrokeID> = []

    init(canvas: DrawView) {
        self.canvas = canvas
    }

    subscript(touch: ObjectIdentifier) -> Stroke? { strokes[touch] }
    var isEmpty: Bool { strokes.isEmpty }

    /// A finger landed: its line starts, shown by the canvas until the next frame hands it over.
    func begin(_ stroke: Stroke, for touch: ObjectIdentifier) {
        strokes[touch] = stroke
        canvas.setNeedsDisplay(stroke.bounds)
    }

    /// A straight line's finger moved.
    func move(_ touch: ObjectIdentifier, to stroke: Stroke) {
        guard let old = strokes.updateValue(stroke, forKey: touch) else { return }
        show { canvas.setNeedsDisplay(along: old, and: stroke) }
    }

    /// A freehand stroke grew by its `added` newest points (or widened under a pen).
    func extend(_ touch: ObjectIdentifier, to stroke: Stroke, added: Int) {
        guard let old = strokes.updateValue(stroke, forKey: touch) else { return }
        // Only the newest segments need repainting, unless the pen widened the whole stroke.
        if stroke.width == old.width {
            canvas.setNeedsDisplay(along: Stroke(id: stroke.id, kind: .freehand, points: Array(stroke.points.suffix(added + 1)),
                                                 width: stroke.width))
        } else {
            canvas.setNeedsDisplay(stroke.bounds)
        }
    }

    /// The finger lifted: its line leaves the lines in progress (the caller adds it to the
    /// drawing); returns it.
    func end(_ touch: ObjectIdentifier) -> Stroke? {
        guard let line = strokes.removeValue(forKey: touch) else { return nil }
        show { canvas.setNeedsDisplay(along: line) }
        return line
    }

    /// The touch was cancelled: its line goes (A2).
    func cancel(_ touch: ObjectIdentifier) {
        guard let line = strokes.removeValue(forKey: touch) else { return }
        show { canvas.setNeedsDisplay(line.bounds) }
    }

    /// Every line goes (a tool change).
    func cancelAll() {
        show { for line in strokes.values { canvas.setNeedsDisplay(line.bounds) } }
        strokes.removeAll()
    }

    /// Every line goes, its box repainted (a clear, a long press that picked a line up).
    func removeAll() {
        for line in strokes.values { canvas.setNeedsDisplay(line.bounds) }
        strokes.removeAll()
    }

    /// Shows a change to the lines: the window redraws them when it draws them, else `mark`
    /// marks what the canvas must repaint.
    private func show(_ mark: () -> Void) {
        if windowDrawsThem { canvas.setNeedsLiveLines() } else { mark() }
    }

    /// A line moved at `time`: drafted frames wait for the lines to rest before they are
    /// smoothed.
    func lineMoved(at time: Double) { quality.lineMoved(at: time) }

    // MARK: Finished lines

    /// `stroke`, finished by a finger, is about to be added to the drawing: while the window draws
    /// the live lines, a straight one goes into the cache at once and is shown by the window
    /// copying the cache along it into each buffer (no band repainted, none copied between
    /// buffers).
    func willAdd(_ stroke: Stroke) {
        if windowDrawsThem, stroke.kind == .line, canvas.cache.currentImage != nil { settling.insert(stroke.id) }
    }

    /// The drawing added `stroke`; true when it was settled into the cache here.
    func settle(_ stroke: Stroke) -> Bool {
        guard settling.remove(stroke.id) != nil else { return false }
        canvas.cache.drawOnTop(stroke)
        settled.append(stroke)
        canvas.setNeedsLiveLines()
        return true
    }

    // MARK: Frames

    /// The live lines for this frame, when the window may draw them: straight, opaque, with the
    /// line cache all the canvas shows beneath them (`cacheAlone`: no selection, no lifted line,
    /// no circle; no line cache build; finished lines still waiting to go into the cache only if
    /// they were finished since the last frame, so that the frame painting them covers them).
    /// Their edges are smoothed unless the frame drafts them (LiveLineQuality). They go on, empty,
    /// once every finger has lifted: the next finger to land then needs no repaint to start, and
    /// each buffer still erases what it holds.
    func liveLines(cacheAlone: Bool, clock: Clock?) -> LiveLines? {
        let cache = canvas.cache
        let pending = cache.pending.isEmpty ? [] : Set(cache.pending.map(\.id))
        defer { pendingAtLastFrame = pending }
        guard !strokes.isEmpty || windowDrawsThem else { return nil }
        let lines = strokes.values
        if lines.allSatisfy({ $0.kind == .line && $0.color.alpha >= 1 }), cacheAlone,
           pending.isDisjoint(with: pendingAtLastFrame),
           let backdrop = cache.currentImage, let clock {
            let cost = lines.reduce(0) { $0 + LiveLineQuality.cost(of: $1, scale: backdrop.scale) }
            let drafted = quality.antialiasing(cost: cost, at: clock.now) == .draft
            // Lines the canvas drew itself (some since they last moved) are repainted without
            // them in this frame.
            if !windowDrawsThem { for line in lines { canvas.setNeedsDisplay(along: line) } }
            windowDrawsThem = true
            if drafted { schedulePolish(on: clock) }
            defer { settled.removeAll() }
            let ink = canvas.screenInk
            return LiveLines(lines: lines.map { StrokeRenderer.polyline($0, ink: ink) }, smooth: !drafted, backdrop: backdrop,
                             settled: settled.map { StrokeRenderer.polyline($0, ink: ink) })
        }
        if windowDrawsThem {
            // Back to the canvas: the lines are drawn where they are now (where they were is
            // the window's to repaint), and so are lines finished since the last frame.
            windowDrawsThem = false
            for line in lines { canvas.setNeedsDisplay(along: line) }
            for line in settled { canvas.setNeedsDisplay(along: line) }
            settled.removeAll()
        }
        return nil
    }

    /// Draws the lines the window does not draw this frame into `context` (the canvas's `draw`).
    func draw(_ rect: Rect, in context: GraphicsContext, clock: Clock?) {
        let live = context.omitsLiveLines(of: canvas) ? [] : strokes.values.filter { $0.bounds.intersects(rect) }
        let scale = context.deviceScale
        let cost = live.reduce(0) { $0 + LiveLineQuality.cost(of: $1, scale: scale) }
        let antialiasing = clock.map { quality.antialiasing(cost: cost, at: $0.now) } ?? .fast
        context.setAntialiasing(antialiasing)
        // Drafted lines go in as rows of pixels: a fraction of the cost of smoothed long lines.
        StrokeRenderer.draw(live, in: context, ink: canvas.screenInk)
        if antialiasing == .draft, let clock { schedulePolish(on: clock) }
    }

    private func schedulePolish(on clock: Clock) {
        quality.schedulePolish(on: clock) { [weak self] in self?.polish() }
    }

    /// Redraws drafted lines smooth once the fingers have rested (or waits on if they moved).
    private func polish() {
        guard let clock = canvas.window?.application?.clock else { return quality.reset() }
        if quality.polishFired(at: clock.now) {
            // Live lines the window draws are smoothed by its next frame.
            show { for line in strokes.values { canvas.setNeedsDisplay(along: line) } }
        } else {
            schedulePolish(on: clock)
        }
    }
}
