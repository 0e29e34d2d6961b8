// The canvas's raster of finished strokes on their paper, so a moving finger repaints only its own
// line. A finished stroke is drawn into it once. A removed, moved or lifted one re-makes only the
// band along it, a tile at a time with the strokes the drawing's spatial index finds there; the
// tiles are spread over turns of the event loop within a time budget, so no change costs a frame
// more than that budget however dense the drawing (a tile waiting for its turn still shows what it
// showed; one holding more lines than a turn may draw is made aside over turns, then shown whole). A resize keeps the raster and draws the strips newly shown. The whole raster is drawn
// only at start, on a new scale and after a clear or its undo, and then in slices across turns, so
// a big drawing appears in steps while touches are answered.
import Graphics
import TouchKit

final class LineCache {
    private let drawing: Drawing
    /// The paper and the lines' colours as the screen shows them; the canvas invalidates the
    /// raster when the window's style changes it.
    var ink: ScreenInk
    private var paper: Color { ink.paper }
    /// The stroke left out (the canvas draws the selected one on top, and it may move).
    var excluded: () -> StrokeID? = { nil }
    /// The clock to spread a whole build over (nil: build at once, as for exports).
    var clock: () -> Clock? = { nil }
    /// Asks for the canvas to be repainted: build progress to show.
    var onProgress: () -> Void = {}
    /// A rectangle of the raster was re-made: the canvas shows it.
    var onRepaired: (Rect) -> Void = { _ in }

    private var image: ImageSurface?
    private var isValid = false
    /// A whole build in progress: the next stroke to draw and the number of strokes it covers
    /// (the drawing's count when it began; strokes added since are drawn live by the canvas).
    private var build: (next: Int, end: Int)?
    private var buildTimer: TimerToken?
    private var lastProgressShown = -Double.infinity

    /// At most this many strokes per turn of the event loop in a whole build, and tiles re-made
    /// per turn, however fast they go (a clock that does not move, as in tests, still ends a turn).
    var slice = 400
    static let tilesPerTurn = 64
    /// The work of a whole build or of tile repairs a turn may take before the rest waits for the
    /// next turn: well under a frame, so input is still answered at once.
    static let turnBudget = 0.0015
    /// Tiles waiting to be re-made, oldest first (from `nextTile`).
    private var tiles: [Rect] = []
    private var nextTile = 0
    private var tileTimer: TimerToken?
    var hasRepairsPending: Bool { nextTile < tiles.count }
    /// How many whole builds there were: at 100,000 lines one takes about a second.
    private(set) var wholeBuilds = 0
    /// Whether a whole build is under way, or done but not shown yet.
    var isBuilding: Bool { build != nil || finishedUnshown }
    /// The build is done; the next turn shows it.
    private var finishedUnshown = false

    init(drawing: Drawing, ink: ScreenInk) {
        self.drawing = drawing
        self.ink = ink
    }

    /// The raster as it stands, when it holds every finished stroke but `pending` (no build under
    /// way): what the canvas shows beneath its live lines.
    var currentImage: ImageSurface? { isValid && build == nil && !finishedUnshown ? image : nil }

    /// Strokes finished since the build in progress began: not in the raster yet, so drawn live.
    var strokesNotYetIn: ArraySlice<Stroke> {
        guard let build else { return [] }
        let strokes = drawing.strokes
        return strokes[min(build.end, strokes.count)...]
    }

    /// The raster for a canvas of `size` points at `scale` pixels per point, made or brought to
    /// that size as needed.
    func image(size: Size, scale: Double) -> ImageSurface {
        let pixels = ImageSurface.pixelSize(size, scale: scale)
        let fits = image.map { $0.scale == scale && $0.width == pixels.width && $0.height == pixels.height } ?? false
        if let image, isValid, fits { return image }
        // A resize copies the raster: the pending strokes go in first.
        drawPending()
        partial = nil
        // Drawn again at the same size (a clear, its undo): the raster is reused, not allocated
        // and faulted in anew.
        let fresh = fits && !isValid ? image! : ImageSurface(size: size, scale: scale)
        let context = CairoContext(surface: fresh)
        context.replace(Rect(origin: .zero, size: size), with: paper)
        if let old = image, isValid, old.scale == scale, build == nil {
            // A resize: the lines stay where they were (the canvas grows or shrinks at its right
            // and bottom), so the old raster is copied and only what was not in it is drawn.
            let kept = Rect(x: 0, y: 0, width: Double(old.width) / scale, height: Double(old.height) / scale)
            context.copy(old, clippedTo: kept)
            image = fresh
            if size.width > kept.width {
                remake(Rect(x: kept.width, y: 0, width: size.width - kept.width, height: size.height))
            }
            if size.height > kept.height {
                remake(Rect(x: 0, y: kept.height, width: min(kept.width, size.width), height: size.height - kept.height))
            }
            return fresh
        }
        // Every stroke, in slices when there are many: the first slice now, the rest while the
        // window already shows and takes touches.
        buildTimer?.cancel()
        finishedUnshown = false
        buildTimer = nil
        wholeBuilds += 1
        // The frame that asked for the raster shows the first slice.
        lastProgressShown = clock()?.now ?? 0
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

    /// A stroke added to the drawing: on top of the others (finished, pasted), or back under
    /// later ones (an undone deletion), where drawing it over them would cover them.
    func add(_ stroke: Stroke) {
        guard drawing.index(of: stroke.id) == drawing.strokes.count - 1 else { return repaint(along: stroke) }
        // Mid-build it stays out: the build ends with the strokes added meanwhile.
        guard let image, isValid, build == nil else { return }
        guard let clock = clock() else { return StrokeRenderer.draw(stroke, in: CairoContext(surface: image), ink: ink) }
        partial = nil
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
        StrokeRenderer.draw(pending.lazy.filter { $0.id != left }, in: context, ink: ink)
    }

    /// Draws a stroke into the raster now, over the others: a line put back (dropped after a drag)
    /// shows at once; a repair along it then gives it its place in the paint order.
    func drawOnTop(_ stroke: Stroke) {
        drawPending()
        partial = nil
        guard let image, isValid, build == nil else { return }
        StrokeRenderer.draw(stroke, in: CairoContext(surface: image), ink: ink)
    }

    /// Re-makes the band along `stroke` within the raster (see ``Stroke/bands(pieceLength:within:)``):
    /// after it was removed, moved, recoloured or lifted out.
    func repaint(along stroke: Stroke) {
        guard let image, isValid else { return }
        // Shorter pieces than damage uses: a tile is the unit of work a turn cannot split, and a
        // stroke crossing a tile costs about the same however small the tile, so a smaller tile
        // holds less work (the budget is overrun by less).
        let raster = Rect(x: 0, y: 0, width: Double(image.width) / image.scale, height: Double(image.height) / image.scale)
        queue(stroke.bands(pieceLength: 32, within: raster))
    }

    private func queue(_ rects: [Rect]) {
        guard image != nil, isValid else { return }
        // Mid-build, strokes not drawn yet would be drawn twice (and out of order): start over.
        guard build == nil else { return invalidate() }
        partial = nil
        tiles.append(contentsOf: rects)
        repairSome()
    }

    /// Re-makes tiles until the turn's budget is spent; the rest wait for the next turn. Each tile
    /// is whole when shown: its strokes are those of the drawing at that moment.
    private func repairSome() {
        tileTimer?.cancel()
        tileTimer = nil
        let clock = clock()
        let start = clock?.now ?? 0
        var done = 0
        while nextTile < tiles.count {
            let tile = tiles[nextTile]
            drawPending()
            guard let clock else {
                nextTile += 1
                remake(tile)
                onRepaired(tile)
                continue
            }
            // A tile of a dense drawing holds hundreds of lines, a few milliseconds of work: one
            // that does not fit in what is left of the turn is made aside, over turns.
            if partial == nil {
                let strokes = strokes(toRemake: tile)
                let left = Self.turnBudget - (clock.now - start)
                if Double(strokes.count) * secondsPerStroke <= left {
                    let began = clock.now
                    remake(tile, strokes: strokes)
                    if !strokes.isEmpty {
                        secondsPerStroke += ((clock.now - began) / Double(strokes.count) - secondsPerStroke) / 4
                    }
                    nextTile += 1
                    onRepaired(tile)
                    done += 1
                    if done >= Self.tilesPerTurn || clock.now - start >= Self.turnBudget { break }
                    continue
                }
                guard let aside = PartialTile(area: tile, strokes: strokes, raster: image, ink: ink) else {
                    nextTile += 1
                    continue
                }
                partial = aside
                tilesMadeAside += 1
            }
            guard var aside = partial else { break }
            let whole = aside.draw(until: start + Self.turnBudget, on: clock)
            partial = aside
            guard whole else { break }
            image?.paste(aside.section)
            partial = nil
            nextTile += 1
            onRepaired(tile)
            done += 1
            if clock.now - start >= Self.turnBudget { break }
        }
        guard nextTile < tiles.count, let clock else {
            tiles.removeAll(keepingCapacity: true)
            nextTile = 0
            return
        }
        tileTimer = clock.schedule(at: clock.now) { [weak self] in
            self?.tileTimer = nil
            self?.repairSome()
        }
    }

    /// What re-making a tile has cost per stroke in it, lately (seconds): how a turn foresees
    /// whether the next tile fits what is left of its budget.
    private var secondsPerStroke = 0.0

    /// The tile being re-made over turns, if any: always the first of those waiting.
    private var partial: PartialTile?
    /// How many tiles were made aside, over turns.
    private(set) var tilesMadeAside = 0

    /// A tile re-made aside, in a copy of its pixels, a few strokes a turn; the copy goes into the
    /// raster once whole, so the canvas never shows half a tile. Anything that changes the
    /// raster meanwhile (a repair queued, a stroke added or put back, a build) starts it over.
    private struct PartialTile {
        let section: ImageSurface
        private let area: Rect
        private let strokes: [Stroke]
        private let ink: ScreenInk
        private var next = 0

        init?(area: Rect, strokes: [Stroke], raster: ImageSurface?, ink: ScreenInk) {
            guard let raster else { return nil }
            let area = area.integral
            let pixels = Rect(x: area.minX * raster.scale, y: area.minY * raster.scale,
                              width: area.width * raster.scale, height: area.height * raster.scale).integral
            section = raster.section(pixels)
            self.area = area
            self.strokes = strokes
            self.ink = ink
            let context = CairoContext(surface: section)
            context.clip(to: area)
            context.replace(area, with: ink.paper)
        }

        /// Draws strokes until `deadline` (at least one); true once every stroke is in.
        mutating func draw(until deadline: Double, on clock: Clock) -> Bool {
            guard next < strokes.count else { return true }
            let context = CairoContext(surface: section)
            context.clip(to: area)
            repeat {
                StrokeRenderer.draw(strokes[next], in: context, ink: ink)
                next += 1
            } while next < strokes.count && clock.now < deadline
            return next == strokes.count
        }
    }

    /// The strokes `rect` is re-made with, in order.
    private func strokes(toRemake rect: Rect) -> [Stroke] {
        let left = excluded()
        return drawing.strokes(intersecting: rect.integral).filter { $0.id != left }
    }

    /// Re-makes `rect` at once: paper, then the strokes that meet it (`strokes`, when already
    /// looked up), in order.
    private func remake(_ rect: Rect, strokes: [Stroke]? = nil) {
        // The strokes that meet it include pending ones: they go in first, or they would be drawn
        // twice (and a stroke removed since would come back outside `rect`).
        drawPending()
        guard let image, isValid, build == nil else { return }
        let area = rect.integral
        let context = CairoContext(surface: image)
        context.clip(to: area)
        context.replace(area, with: paper)
        StrokeRenderer.draw(strokes ?? self.strokes(toRemake: rect), in: context, ink: ink)
    }

    /// Forgets the raster (and any build in progress); the next ``image(size:scale:)`` makes it
    /// again.
    func invalidate() {
        partial = nil
        finishedUnshown = false
        tiles.removeAll()
        nextTile = 0
        tileTimer?.cancel()
        tileTimer = nil
        pending.removeAll()
        pendingTimer?.cancel()
        pendingTimer = nil
        isValid = false
        build = nil
        buildTimer?.cancel()
        buildTimer = nil
    }

    /// The rest of a whole build, a slice a turn. Progress is shown ten times a second, in a turn
    /// of its own: a showing repaints the whole canvas, which with a slice in the same turn cost
    /// twice what either does.
    private func scheduleBuild(on clock: Clock) {
        buildTimer = clock.schedule(at: clock.now) { [weak self, unowned clock] in
            guard let self else { return }
            self.buildTimer = nil
            if clock.now - self.lastProgressShown >= 0.1 {
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
                    self?.onProgress()
                }
            }
        }
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
        // A slice ends after `slice` strokes or when the turn's budget is spent (long lines across
        // a big canvas cost many times what short ones do).
        let limit = min(current.next + max(slice, 1), current.end)
        let turnClock = clock(), start = turnClock?.now ?? 0
        var stop = current.next
        while stop < limit {
            let stroke = strokes[stop]
            if stroke.id != left { StrokeRenderer.draw(stroke, in: context, ink: ink) }
            stop += 1
            // After every stroke: a line across a big canvas takes a tenth of a millisecond or
            // more, so checking every sixteenth overran the budget by more than the budget.
            if let turnClock, turnClock.now - start >= Self.turnBudget { break }
        }
        current.next = stop
        build = current
        guard stop == current.end else {
            guard let clock = clock() else { return continueBuild() }
            scheduleBuild(on: clock)
            return
        }
        StrokeRenderer.draw(strokes[current.end...].lazy.filter { $0.id != left }, in: context, ink: ink)
        build = nil
    }
}
