// The canvas's raster of finished strokes on their paper, so a moving finger repaints only its own
// line. A finished stroke is drawn into it once; a removed, moved or (de)selected one re-makes only
// its rectangle, with the strokes the drawing's spatial index finds there; a resize keeps it and
// draws the strips newly shown. The whole raster is drawn only at start, on a new scale and after
// a clear or its undo, and then in slices across turns of the event loop, so a big drawing appears
// in steps while touches are answered.
import Graphics
import TouchKit

final class StrokeCache {
    private let drawing: Drawing
    private let paper: Color
    /// The stroke left out (the canvas draws the selected one on top, and it may move).
    var excluded: () -> StrokeID? = { nil }
    /// The clock to spread a whole build over (nil: build at once, as for exports).
    var clock: () -> Clock? = { nil }
    /// Asks for the canvas to be repainted: build progress to show.
    var onProgress: () -> Void = {}

    private var image: ImageSurface?
    private var isValid = false
    /// A whole build in progress: the next stroke to draw and the number of strokes it covers
    /// (the drawing's count when it began; strokes added since are drawn live by the canvas).
    private var build: (next: Int, end: Int)?
    private var buildTimer: TimerToken?
    private var lastProgressShown = -Double.infinity

    /// Strokes drawn per turn of the event loop in a whole build: 4 to 10 ms of work.
    var slice = 400
    /// How many whole builds there were: at 100,000 lines one takes about a second.
    private(set) var wholeBuilds = 0
    var isBuilding: Bool { build != nil }

    init(drawing: Drawing, paper: Color) {
        self.drawing = drawing
        self.paper = paper
    }

    /// Strokes finished since the build in progress began: not in the raster yet, so drawn live.
    var strokesNotYetIn: ArraySlice<Stroke> {
        guard let build else { return [] }
        let strokes = drawing.strokes
        return strokes[min(build.end, strokes.count)...]
    }

    /// The raster for a canvas of `size` points at `scale` pixels per point, made or brought to
    /// that size as needed.
    func image(size: Size, scale: Double) -> ImageSurface {
        if let image, isValid, image.scale == scale,
           image.width == max(Int((size.width * scale).rounded(.up)), 1),
           image.height == max(Int((size.height * scale).rounded(.up)), 1) {
            return image
        }
        // A resize copies the raster: the pending strokes go in first.
        drawPending()
        let fresh = ImageSurface(size: size, scale: scale)
        let context = CairoContext(surface: fresh)
        context.replace(Rect(origin: .zero, size: size), with: paper)
        if let old = image, isValid, old.scale == scale, build == nil {
            // A resize: the lines stay where they were (the canvas grows or shrinks at its right
            // and bottom), so the old raster is copied and only what was not in it is drawn.
            let kept = Rect(x: 0, y: 0, width: Double(old.width) / scale, height: Double(old.height) / scale)
            context.copy(old, clippedTo: kept)
            image = fresh
            if size.width > kept.width {
                repaint(Rect(x: kept.width, y: 0, width: size.width - kept.width, height: size.height))
            }
            if size.height > kept.height {
                repaint(Rect(x: 0, y: kept.height, width: min(kept.width, size.width), height: size.height - kept.height))
            }
            return fresh
        }
        // Every stroke, in slices when there are many: the first slice now, the rest while the
        // window already shows and takes touches.
        buildTimer?.cancel()
        buildTimer = nil
        wholeBuilds += 1
        image = fresh
        isValid = true
        build = (0, drawing.strokes.count)
        continueBuild()
        return fresh
    }

    /// Strokes finished but not drawn into the raster yet: the canvas draws them live until the
    /// next turn of the event loop. The frame that shows lifted fingers' lines in black then costs
    /// what any frame costs, and drawing them into the raster (ten lines: most of a millisecond)
    /// happens after that frame is committed.
    private(set) var pending: [Stroke] = []
    private var pendingTimer: TimerToken?

    /// A stroke finished on top of the others.
    func add(_ stroke: Stroke) {
        // Mid-build it stays out: the build ends with the strokes added meanwhile.
        guard let image, isValid, build == nil else { return }
        guard let clock = clock() else { return StrokeRenderer.draw(stroke, in: CairoContext(surface: image)) }
        pending.append(stroke)
        if pendingTimer == nil {
            pendingTimer = clock.schedule(at: clock.now) { [weak self] in
                self?.pendingTimer = nil
                self?.drawPending()
            }
        }
    }

    /// Draws the pending strokes into the raster, in the order they were finished.
    func drawPending() {
        pendingTimer?.cancel()
        pendingTimer = nil
        guard !pending.isEmpty else { return }
        defer { pending.removeAll() }
        guard let image, isValid, build == nil else { return }
        let context = CairoContext(surface: image)
        let left = excluded()
        for stroke in pending where stroke.id != left { StrokeRenderer.draw(stroke, in: context) }
    }

    /// Re-makes `rect` only: paper, then the strokes that meet it, in order.
    func repaint(_ rect: Rect) {
        // The strokes that meet it include pending ones: they go in first, or they would be drawn
        // twice (and a stroke removed since would come back outside `rect`).
        drawPending()
        guard let image, isValid else { return }
        // Mid-build, strokes not drawn yet would be drawn twice (and out of order): start over.
        guard build == nil else { return invalidate() }
        let area = rect.integral
        let context = CairoContext(surface: image)
        context.clip(to: area)
        context.replace(area, with: paper)
        let left = excluded()
        for stroke in drawing.strokes(intersecting: area) where stroke.id != left {
            StrokeRenderer.draw(stroke, in: context)
        }
    }

    /// Forgets the raster (and any build in progress); the next ``image(size:scale:)`` makes it
    /// again.
    func invalidate() {
        pending.removeAll()
        pendingTimer?.cancel()
        pendingTimer = nil
        isValid = false
        build = nil
        buildTimer?.cancel()
        buildTimer = nil
    }

    /// Draws the next slice; schedules the next turn, or ends the build with the strokes added
    /// since it began.
    private func continueBuild() {
        guard var current = build, let image else { return }
        let context = CairoContext(surface: image)
        let strokes = drawing.strokes
        let left = excluded()
        // Any change but an addition restarts the build, so the strokes it covers are still there;
        // the bounds are clamped all the same.
        current.end = min(current.end, strokes.count)
        current.next = min(current.next, current.end)
        let stop = min(current.next + max(slice, 1), current.end)
        for stroke in strokes[current.next..<stop] where stroke.id != left {
            StrokeRenderer.draw(stroke, in: context)
        }
        current.next = stop
        build = current
        guard stop == current.end else {
            guard let clock = clock() else { return continueBuild() }
            buildTimer = clock.schedule(at: clock.now) { [weak self, unowned clock] in
                guard let self else { return }
                self.buildTimer = nil
                self.continueBuild()
                // Progress is shown ten times a second: each showing repaints the whole canvas.
                if !self.isBuilding || clock.now - self.lastProgressShown >= 0.1 {
                    self.lastProgressShown = clock.now
                    self.onProgress()
                }
            }
            return
        }
        for stroke in strokes[current.end...] where stroke.id != left { StrokeRenderer.draw(stroke, in: context) }
        build = nil
    }
}
