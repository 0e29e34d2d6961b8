// The lines under fingers, and who draws them: the canvas through bands it marks dirty, or the
// window's painter as live lines (TouchKit's LiveLines) with the line cache as their backdrop.
// Straight live lines, while the line cache is all the canvas shows beneath them, go to the window:
// it draws them as rows of pixels and erases them by copying the cache back along those rows,
// instead of the canvas repainting bands along each line where it was and where it is. Fingers
// moving, ten or a flood, then cost the lines' own pixels. This type is the one place that
// decides which, so every change to a line in progress is shown the same way.
//
// A line in progress may be shown longer than the finger has drawn it: its predicted extension
// (Event.predictedTouches, A13) reaches where the finger is expected when the frame is shown.
// The extension is part of what is shown only, replaced by the next frame's; `strokes` holds the
// real samples alone, and only they become the drawing.
import TouchKit

final class LinesInProgress {
    private unowned let canvas: DrawView

    /// One stroke per finger on the glass (a line, or a freehand stroke), keyed by its touch (T1:
    /// the touch object is the identity).
    private(set) var strokes: [ObjectIdentifier: Stroke] = [:]
    /// Each line's predicted extension, in the canvas's coordinates (A13).
    private var predictions: [ObjectIdentifier: Prediction] = [:]
    private var expiry: TimerToken?
    private var expiryAt: Double?
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

    // Its timers hold it unowned, as the line cache's do: none outlives it.
    deinit {
        expiry?.cancel()
        quality.reset()
    }

    subscript(touch: ObjectIdentifier) -> Stroke? { strokes[touch] }
    var isEmpty: Bool { strokes.isEmpty }

    /// A finger landed: its line starts, shown by the canvas until the next frame hands it over.
    func begin(_ stroke: Stroke, for touch: ObjectIdentifier) {
        strokes[touch] = stroke
        canvas.setNeedsDisplay(drawingRect: stroke.bounds)
    }

    /// A line's guessed extension and when it goes stale.
    struct Prediction {
        var points: [Point]
        /// The canvas clock's time after which no new sample came when one was due: the finger
        /// stopped, and the guess is taken back.
        var expires: Double
    }

    /// The line of `touch` as shown: its real samples and their predicted extension.
    func shown(_ touch: ObjectIdentifier) -> Stroke? {
        guard var line = strokes[touch] else { return nil }
        guard let ahead = predictions[touch]?.points.last else { return line }
        if line.kind == .line {
            line.points[1] = ahead
        } else if let predicted = predictions[touch]?.points {
            line.points += predicted
        }
        return line
    }

    /// Every line in progress as shown.
    private var shownLines: [Stroke] { strokes.keys.compactMap(shown) }

    /// A straight line's finger moved; `predicted`: where it is expected next (A13).
    func move(_ touch: ObjectIdentifier, to stroke: Stroke, predicted: Prediction? = nil) {
        guard let old = shown(touch) else { return }
        strokes[touch] = stroke
        setPrediction(predicted, for: touch)
        guard let new = shown(touch) else { return }
        show { canvas.setNeedsDisplay(along: old, and: new) }
    }

    /// A freehand stroke grew by its `added` newest points (or widened under a pen); `predicted`:
    /// where it is expected next (A13).
    func extend(_ touch: ObjectIdentifier, to stroke: Stroke, added: Int, predicted: Prediction? = nil) {
        guard let old = strokes.updateValue(stroke, forKey: touch) else { return }
        let oldGuess = predictions[touch]?.points ?? []
        setPrediction(predicted, for: touch)
        let newGuess = predictions[touch]?.points ?? []
        // Only the newest segments need repainting, and the old guess beyond them, unless the pen
        // widened the whole stroke.
        if stroke.width == old.width {
            canvas.setNeedsDisplay(along: Stroke(id: stroke.id, kind: .freehand, points: Array(stroke.points.suffix(added + 1)) + newGuess,
                                                 width: stroke.width))
            if let last = old.points.last, !oldGuess.isEmpty {
                canvas.setNeedsDisplay(along: Stroke(id: stroke.id, kind: .freehand, points: [last] + oldGuess, width: stroke.width))
            }
        } else {
            canvas.setNeedsDisplay(drawingRect: stroke.bounds.union(shown(touch)?.bounds ?? stroke.bounds))
            if let last = old.points.last, !oldGuess.isEmpty {
                canvas.setNeedsDisplay(drawingRect: Stroke(id: stroke.id, kind: .freehand, points: [last] + oldGuess, width: old.width).bounds)
            }
        }
    }

    /// The finger lifted: its line leaves the lines in progress (the caller adds it to the
    /// drawing); returns it, its real samples only.
    func end(_ touch: ObjectIdentifier) -> Stroke? {
        let wasShown = shown(touch)
        guard let line = strokes.removeValue(forKey: touch) else { return nil }
        predictions[touch] = nil
        show { canvas.setNeedsDisplay(along: wasShown ?? line) }
        return line
    }

    /// The touch was cancelled: its line goes (A2).
    func cancel(_ touch: ObjectIdentifier) {
        guard let line = shown(touch) else { return }
        strokes[touch] = nil
        predictions[touch] = nil
        show { canvas.setNeedsDisplay(drawingRect: line.bounds) }
    }

    /// Every line goes (a tool change).
    func cancelAll() {
        let lines = shownLines
        show { for line in lines { canvas.setNeedsDisplay(drawingRect: line.bounds) } }
        strokes.removeAll()
        predictions.removeAll()
    }

    /// Every line goes, its box repainted (a clear, a long press that picked a line up).
    func removeAll() {
        for line in shownLines { canvas.setNeedsDisplay(drawingRect: line.bounds) }
        strokes.removeAll()
        predictions.removeAll()
    }

    // MARK: Predicted extensions (A13)

    private func setPrediction(_ prediction: Prediction?, for touch: ObjectIdentifier) {
        guard let prediction, !prediction.points.isEmpty else {
            predictions[touch] = nil
            return
        }
        predictions[touch] = prediction
        scheduleExpiry()
    }

    /// Takes back guesses whose finger sent no sample when one was due.
    private func scheduleExpiry() {
        guard let clock = canvas.window?.application?.clock,
              let next = predictions.values.map(\.expires).min() else { return }
        // A move only puts its line's deadline later: a timer already set as early stays, and
        // when it fires the next is set from the deadlines then (not one timer per move).
        if expiry != nil, let at = expiryAt, at <= next { return }
        expiry?.cancel()
        expiryAt = next
        expiry = clock.schedule(at: next) { [unowned self] in self.expire() }
    }

    private func expire() {
        expiry = nil
        expiryAt = nil
        guard let now = canvas.window?.application?.clock.now else { return }
        for (touch, prediction) in predictions where prediction.expires <= now {
            guard let before = shown(touch) else { continue }
            predictions[touch] = nil
            guard let after = shown(touch) else { continue }
            show { canvas.setNeedsDisplay(along: before, and: after) }
        }
        scheduleExpiry()
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
        let lines = shownLines
        if lines.allSatisfy({ $0.kind == .line && $0.color.alpha >= 1 }), cacheAlone,
           pending.isDisjoint(with: pendingAtLastFrame),
           let backdrop = cache.currentImage, cache.viewport == canvas.shown, let clock {
            // In the canvas's points, as the window draws them.
            let shown = canvas.shown
            let onCanvas = lines.map(shown.canvasStroke)
            let cost = onCanvas.reduce(0) { $0 + LiveLineQuality.cost(of: $1, scale: backdrop.scale) }
            let drafted = quality.antialiasing(cost: cost, at: clock.now) == .draft
            // Lines the canvas drew itself (some since they last moved) are repainted without
            // them in this frame.
            if !windowDrawsThem { for line in lines { canvas.setNeedsDisplay(along: line) } }
            windowDrawsThem = true
            if drafted { schedulePolish(on: clock) }
            defer { settled.removeAll() }
            let ink = canvas.screenInk
            return LiveLines(lines: onCanvas.map { StrokeRenderer.polyline($0, ink: ink) }, smooth: !drafted, backdrop: backdrop,
                             settled: settled.map { StrokeRenderer.polyline(shown.canvasStroke($0), ink: ink) })
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
        let live = context.omitsLiveLines(of: canvas) ? [] : shownLines.filter { $0.bounds.intersects(rect) }
        let scale = context.deviceScale
        let cost = live.reduce(0) { $0 + LiveLineQuality.cost(of: $1, scale: scale) }
        let antialiasing = clock.map { quality.antialiasing(cost: cost, at: $0.now) } ?? .fast
        context.setAntialiasing(antialiasing)
        // Drafted lines go in as rows of pixels: a fraction of the cost of smoothed long lines.
        StrokeRenderer.draw(live, in: context, ink: canvas.screenInk)
        if antialiasing == .draft, let clock { schedulePolish(on: clock) }
    }

    private func schedulePolish(on clock: Clock) {
        quality.schedulePolish(on: clock) { [unowned self] in self.polish() }
    }

    /// Redraws drafted lines smooth once the fingers have rested (or waits on if they moved).
    private func polish() {
        guard let clock = canvas.window?.application?.clock else { return quality.reset() }
        if quality.polishFired(at: clock.now) {
            // Live lines the window draws are smoothed by its next frame.
            show { for line in shownLines { canvas.setNeedsDisplay(along: line) } }
        } else {
            schedulePolish(on: clock)
        }
    }
}
