// The canvas's raster of finished strokes on their paper, so a moving finger repaints only its own
// line. The raster is what the canvas shows: the part of the drawing in its viewport, at its zoom
// (CanvasViewport.swift). A finished stroke is drawn into it once. A removed, moved or lifted one
// re-makes only the band along it, a tile at a time with the strokes the drawing's spatial index
// finds there; the tiles are spread over turns of the event loop within a time budget, so no change
// costs a frame more than that budget however dense the drawing (a tile waiting for its turn still
// shows what it showed; one holding more lines than a turn may draw is made aside over turns, then
// shown whole). A resize or a scroll keeps the raster, moved by whole pixels, and draws the strips
// newly shown. The whole raster is drawn only at start, on a new scale or zoom and after a clear or
// its undo, in slices across turns: a big drawing appears in steps while touches are answered, and
// after a zoom the older raster is shown scaled until the new one is whole.
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import TouchKit

final class LineCache {
    let drawing: Drawing
    /// The paper and the lines' colours as the screen shows them; the canvas invalidates the
    /// raster when the window's style changes it.
    var ink: ScreenInk {
        // Paper of another colour: none of the rasters is paper any more.
        didSet {
            guard ink.paper != oldValue.paper else { return }
            if let image { inked = .whole(image) }
            if let old = stale { stale = (old.image, old.viewport, .whole(old.image)) }
            if let old = spare { spare = (old.image, .whole(old.image)) }
        }
    }
    /// The box of every stroke the raster may have shown since the drawing was last replaced, in
    /// the drawing's coordinates: a stroke added or moved widens it; a removed one leaves it (its
    /// place shows it until it is made again). Outside it there is paper at every view. Nil: no
    /// lines (LineCache+Ink.swift).
    lazy var inkReach: Rect? = drawing.bounds
    /// Where ``image`` may hold anything but paper; nil: paper alone.
    var inked: PixelBox?
    var paper: Color { ink.paper }
    /// The stroke left out (the canvas draws the selected one on top, and it may move).
    var excluded: () -> StrokeID? = { nil }
    /// The clock to spread a whole build over (nil: build at once, as for exports).
    var clock: () -> Clock? = { nil }
    /// Asks for the canvas to be repainted: build progress to show.
    var onProgress: () -> Void = {}
    /// A rectangle of the raster was re-made: the canvas shows it.
    var onRepaired: (Rect) -> Void = { _ in }

    var image: ImageSurface?
    /// The part of the drawing the raster shows, and its zoom.
    private(set) var viewport = CanvasViewport.identity
    /// The last whole raster of an older zoom (``staleRaster``).
    /// With where it may hold lines (``inked``), which goes with it to the spare.
    var stale: (image: ImageSurface, viewport: CanvasViewport, inked: PixelBox?)? {
        didSet { if let old = oldValue, old.image !== stale?.image, old.image !== image { keepSpare(old.image, inked: old.inked) } }
    }
    /// A raster let go within the last second, drawn into next instead of a new one
    /// (LineCache+Tiles.swift).
    var spare: (image: ImageSurface, inked: PixelBox?)?
    var spareTimer: TimerToken?
    /// Whether rasters are made scrollable (ImageSurface's `init(scrollable:scale:)`, a scroll
    /// moving where they start). Off, a scroll copies their pixels, as it does where the system
    /// gives no shared memory for them; tests compare the two.
    var scrollsInPlace = true
    /// The strokes a whole build goes through, in paint order, and the bands of the raster it
    /// draws them into (LineCache+Build.swift).
    var buildStrokes: [Stroke] = []
    var buildBoxes: [StrokeBox] = []
    var buildBands: [BuildBand] = []
    var isValid = false
    /// A whole build in progress.
    var build: WholeBuild?
    var buildTimer: TimerToken?
    /// Gives the memory the last build freed back to the system (LineCache+Build.swift).
    var trimTimer: TimerToken?
    var lastProgressShown = -Double.infinity
    /// When a whole build last began for a new view (how fast a pinch moves the zoom).
    private var zoomChanged = -Double.infinity

    /// At most this many strokes per band and turn of the event loop in a whole build, and tiles
    /// re-made per turn, however fast they go (a clock that does not move, as in tests, still ends
    /// a turn). Well above what a turn's budget draws: strokes that later ones hide cost little,
    /// and a tenth of this ended most turns of a build early, each turn's own cost repeated.
    var slice = 4000
    /// A new zoom's raster is drawn in the frame that asks for it only for a drawing of at most
    /// this many strokes (and a window of at most ``immediatePixels``, into a raster drawn before).
    static let immediateStrokes = 400
    static let tilesPerTurn = 64
    /// A whole build draws a band a strip of rows this size at a time (at least 16 rows), so it
    /// stays in a core's cache while its strokes are drawn (a second-level cache is 0.5 to 2 MB),
    /// and a short line at 4K still spans only a few (BuildSlice.swift).
    var stripBytes = 1 << 20
    /// The most pixels a raster made for a new zoom is drawn at once: a 1080p window's.
    static let immediatePixels = 1920 * 1200
    /// Strokes a whole build draws together between looks at the clock: one at a time, the
    /// calls cost as much as the drawing at a low zoom, where lines are a few pixels long.
    static let buildBatch = 8
    /// The work of a whole build or of tile repairs a turn may take before the rest waits for the
    /// next turn: well under a frame, so input is still answered at once.
    static let turnBudget = 0.0015
    /// A zoom moving faster than this (its ratio's logarithm a second: 150 % a second) when it
    /// starts a build over is moving fast: its build waits ``settleWait`` before its first slice.
    static let fastZoomRate = 1.5
    /// How long a build for a fast-moving zoom waits: most of a touch frame at 60 Hz, so a
    /// pinch's slices run in the rest of each frame. Waiting past the frame (20 ms) drew nothing
    /// while the fingers moved, and the build after they stopped ran 15 to 25 % longer, every
    /// core idle till then (sharp 8 to 26 ms later in process at 1080p).
    static let settleWait = 0.012
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
    var finishedUnshown = false

    init(drawing: Drawing, ink: ScreenInk) {
        self.drawing = drawing
        self.ink = ink
    }

    // Its timers hold it unowned (docs/architecture.md, "Gestures"): none outlives it.
    deinit {
        for timer in [spareTimer, buildTimer, trimTimer, pendingTimer, tileTimer] { timer?.cancel() }
    }

    /// Whether the raster holds paper alone for a drawing with no strokes: whole (no build, tile
    /// or stroke waiting, nothing older standing in), it is the same at every view.
    var isBlank: Bool {
        isValid && drawing.strokes.isEmpty && pending.isEmpty && build == nil && !finishedUnshown && stale == nil
            && !hasRepairsPending && partial == nil
    }

    /// The raster as it stands, when it holds every finished stroke but `pending` (no build under
    /// way, nor a zoom under way shown through it scaled): what the canvas shows beneath its live
    /// lines.
    var currentImage: ImageSurface? { isValid && build == nil && !finishedUnshown && !holdsStale ? image : nil }

    /// Strokes finished since the build in progress began: not in the raster yet, so drawn live.
    var strokesNotYetIn: ArraySlice<Stroke> {
        guard let build else { return [] }
        let strokes = drawing.strokes
        return strokes[min(build.end, strokes.count)...]
    }

    /// The raster for a canvas of `size` points at `scale` pixels per point showing the drawing
    /// through `viewport` (snapped to whole pixels at `scale`), made or brought to that as needed.
    func image(size: Size, scale: Double, viewport: CanvasViewport = .identity) -> ImageSurface {
        let pixels = ImageSurface.pixelSize(size, scale: scale)
        let fits = image.map { $0.scale == scale && $0.width == pixels.width && $0.height == pixels.height } ?? false
        if let image, isValid, fits, viewport == self.viewport { return image }
        // Paper alone, as a drawing with no strokes shows at every view (new, or just cleared):
        // a scroll or a zoom keeps it as it is, with nothing to move, build or show scaled.
        if let image, fits, isBlank {
            self.viewport = viewport
            return image
        }
        // A resize or a scroll copies the raster: the pending strokes go in first.
        drawPending()
        partial = nil
        if let old = image, isValid, old.scale == scale, build == nil, viewport.zoom == self.viewport.zoom {
            return shift(old, to: viewport, size: size)
        }
        // A new zoom: the raster shown until now stays on screen, scaled, while the new one is
        // drawn aside (a raster being built at an older zoom is dropped, the last whole one kept).
        if let old = image, isValid, build == nil, viewport.zoom != self.viewport.zoom {
            stale = (old, self.viewport, inked)
        } else if stale?.image.scale != scale {
            stale = nil
        }
        // Drawn again at the same size (a clear, its undo, each step of a pinch while the raster
        // of an older zoom stands in): the raster is reused, not allocated and faulted in anew.
        let restarted = build != nil
        // Over a frame at least: KWin hands each finger's move on in a frame of its own, a
        // millisecond apart, and a step's second half read as fast however slow the fingers.
        let zoomRate = abs(log(viewport.zoom / self.viewport.zoom)) / max((clock()?.now ?? 0) - zoomChanged, 1 / 60)
        let reusable = fits && image !== stale?.image && (!isValid || restarted)
        // Paper goes where the raster may hold lines: where it (or the spare) may have shown
        // them; a new raster may hold anything.
        let (fresh, erase, made) = reusable ? (image!, inked, false) : raster(size: size, scale: scale)
        self.viewport = viewport
        zoomChanged = clock()?.now ?? 0
        // An older raster on screen that stays there anyway (a pinch's next frame; a drawing
        // too big for one slice; a raster bigger than 1080p, whose lines cost more than a
        // frame should at a high zoom; a raster made now, whose first touch faults its pages in:
        // 5 to 10 ms at 1080p, 10 to 20 at 4K): this frame shows nothing of the new one, so its
        // paper and slices wait for the next turns and the frame costs the scaled copy alone.
        // Otherwise the first slice is drawn now, and a small drawing is sharp in this very frame.
        let deferred = stale != nil && clock() != nil
            && (restarted || made || drawing.strokes.count > Self.immediateStrokes || fresh.width * fresh.height > Self.immediatePixels)
        if !deferred, let erase { fresh.fill(rows: erase.rows, columns: erase.columns, with: paper) }
        image = fresh
        inked = inkPixels(in: fresh).union(deferred ? erase : nil)
        // Every stroke that shows, in slices when there are many: the first slice now, the rest
        // while the window already shows and takes touches.
        buildTimer?.cancel()
        finishedUnshown = false
        buildTimer = nil
        wholeBuilds += 1
        // The frame that asked for the raster shows the first slice.
        lastProgressShown = clock()?.now ?? 0
        isValid = true
        // Every stroke is looked at in the build's slices, not looked up here: at a low zoom most
        // of a big drawing shows, and a lookup of them all took a frame's time at every step of a
        // pinch.
        buildStrokes = drawing.strokes
        buildBoxes = drawing.boxes
        buildBands = Self.bands(of: fresh, viewport: viewport, strokes: buildStrokes)
        build = WholeBuild(bands: buildBands.map { BandProgress($0, paper: deferred ? erase : nil, stripBytes: stripBytes) },
                           end: drawing.strokes.count)
        if deferred, let clock = clock() {
            // A pinch moving fast starts the build over at every step, so each step's slices
            // were thrown away at the next (at 100,000 lines, about 0.9 s of both cores' time for
            // a 1.1 s pinch): such a build waits most of a frame first. A slowing pinch's last
            // steps are small, and the build for where it stops begins at once.
            let moving = restarted && zoomRate > Self.fastZoomRate
            scheduleBuild(on: clock, at: clock.now + (moving ? Self.settleWait : 0))
        } else {
            continueBuild()
            // Whole in its first slice: this frame shows it, and the older raster is let go (kept,
            // it held a window's pixels until the next zoom).
            if build == nil, !holdsStale { stale = nil }
        }
        return fresh
    }

    /// The raster brought to a new size or a scrolled viewport at the same zoom: the lines that
    /// stay on the canvas are copied (they move by whole pixels), and what is newly shown is
    /// re-made, at once for a resize (the window grows at its edges) and as tiles over turns for a
    /// scroll (which may show a dense part of the drawing).
    private func shift(_ old: ImageSurface, to viewport: CanvasViewport, size: Size) -> ImageSurface {
        // The move is this turn's cache work too: the strips' repairs get what is left of the
        // budget (at 1080p the move is a millisecond, the window's copy another).
        let began = clock()?.now
        let scrolled = viewport != self.viewport
        let offset = Point(x: ((self.viewport.origin.x - viewport.origin.x) * viewport.zoom * old.scale).rounded() / old.scale,
                           y: ((self.viewport.origin.y - viewport.origin.y) * viewport.zoom * old.scale).rounded() / old.scale)
        let pixels = ImageSurface.pixelSize(size, scale: old.scale)
        let whole = Rect(origin: .zero, size: size)
        let kept = Rect(x: offset.x, y: offset.y, width: Double(old.width) / old.scale, height: Double(old.height) / old.scale)
            .intersection(whole)
        let shown = whole.subtracting(kept)
        let fresh: ImageSurface
        if old.width == pixels.width, old.height == pixels.height {
            // A scroll moves the pixels within the raster: no new one to fault in. What it
            // uncovers is laid with paper to the last pixel (the strips below, in points, may end
            // within one at a fractional scale).
            let dx = Int((offset.x * old.scale).rounded()), dy = Int((offset.y * old.scale).rounded())
            old.shiftPixels(dx: dx, dy: dy)
            old.fill(rows: dy > 0 ? 0..<dy : old.height + dy..<old.height, with: paper)
            old.fill(rows: 0..<old.height, columns: dx > 0 ? 0..<dx : old.width + dx..<old.width, with: paper)
            inked = inked?.moved(dx: dx, dy: dy, within: old)
            fresh = old
        } else {
            fresh = raster(size: size, scale: old.scale).image
            if !kept.isEmpty {
                let context = CairoContext(surface: fresh)
                context.translateBy(x: offset.x, y: offset.y)
                context.copy(old, clippedTo: kept.offsetBy(dx: -offset.x, dy: -offset.y))
            }
            keepSpare(old, inked: inked)
            // Paper only where nothing is kept: a pass over a window's pixels fewer.
            let context = CairoContext(surface: fresh)
            for strip in shown { context.replace(strip, with: paper) }
            inked = kept.isEmpty ? nil : inked?.moved(dx: Int((offset.x * old.scale).rounded()), dy: Int((offset.y * old.scale).rounded()),
                                                        within: fresh)
        }
        image = fresh
        self.viewport = viewport
        // The newly shown strips' lines, made below or as tiles.
        inked = inked.union(inkPixels(in: fresh))
        // Tiles waiting were in the old raster's points; those scrolled out of it are dropped.
        tiles = tiles[nextTile...].map { $0.offsetBy(dx: offset.x, dy: offset.y).intersection(whole) }.filter { !$0.isEmpty }
        nextTile = 0
        if scrolled { queue(shown.flatMap { $0.tiles(side: Self.tilePixels / old.scale) }, began: began) } else { for strip in shown { remake(strip) } }
        return fresh
    }

    /// The raster of an older zoom and the viewport it was made through, while the raster at the
    /// new zoom is being drawn: the canvas shows it scaled meanwhile.
    var staleRaster: (image: ImageSurface, viewport: CanvasViewport)? {
        build != nil || finishedUnshown ? stale.map { ($0.image, $0.viewport) } : nil
    }
    /// The older raster kept once the new one is whole, while `holdsStale` (``holdsStale``).
    var heldRaster: (image: ImageSurface, viewport: CanvasViewport)? {
        holdsStale && build == nil && !finishedUnshown ? stale.map { ($0.image, $0.viewport) } : nil
    }
    /// Set while the canvas shows the raster of a zoom under way's end scaled to its frames: the
    /// older raster is kept past the build, for the edges the new one does not reach yet.
    var holdsStale = false {
        didSet { if !holdsStale, oldValue, build == nil, !finishedUnshown { stale = nil } }
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
        guard let clock = clock() else {
            return StrokeRenderer.draw(stroke, in: Self.strokeContext(image, viewport: viewport), ink: ink)
        }
        partial = nil
        pending.append(stroke)
        if pendingTimer == nil {
            pendingTimer = clock.schedule(at: clock.now) { [unowned self] in
                self.pendingTimer = nil
                self.drawPending()
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
        let context = Self.strokeContext(image, viewport: viewport)
        let left = excluded()
        StrokeRenderer.draw(pending.lazy.filter { $0.id != left }, in: context, ink: ink)
    }

    /// Draws a stroke into the raster now, over the others: a line put back (dropped after a drag)
    /// shows at once; a repair along it then gives it its place in the paint order.
    func drawOnTop(_ stroke: Stroke) {
        drawPending()
        partial = nil
        guard let image, isValid, build == nil else { return }
        StrokeRenderer.draw(stroke, in: Self.strokeContext(image, viewport: viewport), ink: ink)
    }

    /// Re-makes the band along `stroke` within the raster (see ``Stroke/bands(pieceLength:within:)``):
    /// after it was removed, moved, recoloured or lifted out.
    func repaint(along stroke: Stroke) {
        guard let image, isValid else { return }
        // Shorter pieces than damage uses: a tile is the unit of work a turn cannot split, and a
        // stroke crossing a tile costs about the same however small the tile, so a smaller tile
        // holds less work (the budget is overrun by less).
        let raster = Rect(x: 0, y: 0, width: Double(image.width) / image.scale, height: Double(image.height) / image.scale)
        queue(viewport.canvasStroke(stroke).bands(pieceLength: 32, within: raster))
    }

    /// Queues `rects` for repair, and repairs what this turn's budget allows (the turn's cache
    /// work having begun at `began`, or now).
    private func queue(_ rects: [Rect], began: Double? = nil) {
        guard image != nil, isValid else { return }
        // Mid-build, strokes not drawn yet would be drawn twice (and out of order): start over.
        guard build == nil else { return invalidate() }
        partial = nil
        tiles.append(contentsOf: rects)
        repairSome(began: began)
    }

    /// Re-makes tiles until the turn's budget is spent; the rest wait for the next turn. Each tile
    /// is whole when shown: its strokes are those of the drawing at that moment.
    private func repairSome(began: Double? = nil) {
        tileTimer?.cancel()
        tileTimer = nil
        let clock = clock()
        let start = began ?? clock?.now ?? 0
        var done = 0
        while nextTile < tiles.count {
            // The budget may be spent before the first tile: by a scroll's move of the raster.
            if let clock, clock.now - start >= Self.turnBudget { break }
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
                guard let aside = PartialTile(area: tile, strokes: strokes, raster: image, ink: ink, viewport: viewport) else {
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
        tileTimer = clock.schedule(at: clock.now) { [unowned self] in
            self.tileTimer = nil
            self.repairSome()
        }
    }

    /// What re-making a tile has cost per stroke in it, lately (seconds): how a turn foresees
    /// whether the next tile fits what is left of its budget.
    /// Until it has learnt, a short line's cost at 100 %: from nothing, the first tile a scroll
    /// shows was made whole in one turn however many lines it held (9 ms at 100,000 lines).
    private var secondsPerStroke = 0.000002

    /// The tile being re-made over turns, if any: always the first of those waiting.
    private var partial: PartialTile?
    /// How many tiles were made aside, over turns.
    private(set) var tilesMadeAside = 0

    /// `rect` (raster points) widened to the raster's whole pixels: a clip on whole pixels lets
    /// the strokes go in as rows of pixels; at a fractional scale whole points are not whole
    /// pixels, and every tile of a scroll went through Cairo's path, several times slower.
    func whole(_ rect: Rect) -> Rect { rect.integral(scale: image?.scale ?? 1) }

    /// The strokes `rect` is re-made with, in order.
    private func strokes(toRemake rect: Rect) -> [Stroke] {
        let left = excluded()
        return Array(shown(drawing.strokes(intersecting: viewport.drawingRect(whole(rect))).filter { $0.id != left }, in: rect))
    }

    /// Re-makes `rect` at once: paper, then the strokes that meet it (`strokes`, when already
    /// looked up), in order.
    private func remake(_ rect: Rect, strokes: [Stroke]? = nil) {
        // The strokes that meet it include pending ones: they go in first, or they would be drawn
        // twice (and a stroke removed since would come back outside `rect`).
        drawPending()
        guard let image, isValid, build == nil else { return }
        let context = Self.strokeContext(image, viewport: viewport, area: whole(rect), paper: paper)
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
        buildStrokes = []
        buildBoxes = []
        buildBands = []
        stale = nil
        buildTimer?.cancel()
        buildTimer = nil
    }
}
