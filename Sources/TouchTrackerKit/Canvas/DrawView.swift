// The canvas of the book's TouchTracker: every finger draws its own line, red while the finger is
// down, in the pen colour (black) once lifted; a cancelled touch loses its line (A1, A2). Its
// recognizers are the book's: double tap clears, tap selects and offers Delete, long press picks a
// line up and a pan drags it (A3-A7). Its edit menu also copies and pastes lines (P2-P6).
//
// The view composes the parts that do each job: the tools (CanvasTools.swift) turn touches into
// lines, LinesInProgress shows the lines under fingers (or hands them to the window as live
// lines), CanvasSelection selects and drags, CanvasClipboard copies and pastes, and the line cache
// (LineCache) keeps finished lines as pixels.
import Logging
import TouchKit

public final class DrawView: View {
    /// The finished strokes: the document.
    public let drawing: Drawing

    public static let lineWidth = 10.0
    public static let inProgressColor = Color.red
    /// The canvas colour under the lines in pictures of the drawing (the screen's is the style's).
    public static let paperColor = Color.white
    /// The paper and the lines as the window's style shows them (ScreenInk.swift); a change
    /// re-makes the line cache.
    public private(set) var screenInk = ScreenInk.trueColors {
        didSet {
            guard screenInk != oldValue else { return }
            cache.ink = screenInk
            cache.invalidate()
            setNeedsDisplay()
        }
    }
    /// The colour finished lines get.
    public var penColor = Color.black
    /// Whether fingers draw. Off, only a pen or the mouse draws (for pen users whose hand rests on
    /// the screen) and fingers move and zoom the drawing (A14); taps still select.
    public var drawsWithFingers = true {
        didSet { if drawsWithFingers != oldValue { onTouchModeChange?() } }
    }
    /// Whether fingers move and zoom the drawing rather than draw: with ``drawsWithFingers`` off,
    /// and for ``penGrace`` seconds after a pen last touched (its user draws with the pen and
    /// moves the drawing with a finger, A14).
    public var fingersNavigate: Bool { !drawsWithFingers || penRecentlyUsed }
    /// How long after a pen lifts fingers still navigate.
    public static let penGrace = 5.0
    /// Told when ``fingersNavigate`` changes (the scroll view around the canvas).
    public var onTouchModeChange: (() -> Void)?
    var penRecentlyUsed = false
    var penGraceTimer: TimerToken?
    /// What a finger draws; a change cancels the lines in progress.
    public var tool = Tool.line {
        didSet { if tool != oldValue { cancelDrawing() } }
    }
    /// A challenge of the book: a finished line's colour follows its angle.
    public var colorsByAngle = false
    /// A challenge of the book: a faster finger draws a thicker line.
    public var widthFollowsSpeed = false
    /// Whether a line in progress is shown reaching where its finger is expected when the frame
    /// is shown (``Event/predictedTouches(for:)``, A13). Only what the finger really drew becomes
    /// the drawing either way.
    public var drawsPredictedTouches = true

    /// Which part of the drawing the canvas shows, and how large (CanvasViewport.swift): a scroll
    /// view around the canvas sets it. Lines keep the drawing's coordinates and width.
    public var viewport = CanvasViewport.identity {
        didSet { if viewport != oldValue { viewportChanged(from: oldValue) } }
    }
    /// Where an animated zoom under way leaves the viewport (nil: none runs). The raster is made
    /// for it while the frames on the way show the last whole one scaled.
    var settlingViewport: CanvasViewport?
    /// Device pixels per point of the last frame: the viewport is shown on whole pixels of it.
    private var pixelScale = 1.0
    /// The viewport as shown: its origin on whole pixels, so a scroll moves the raster of lines
    /// by whole pixels.
    var shown: CanvasViewport { viewport.snapped(toPixelsAt: pixelScale) }

    /// Logs every touch method call when set (`touchtracker --trace`).
    public var traceLogger: Logger? {
        get { trace.logger }
        set { trace.logger = newValue }
    }
    private var trace = TouchTrace()

    // The parts, each with its own state.
    private(set) lazy var linesInProgress = LinesInProgress(canvas: self)
    private lazy var lineTool = LineTool(canvas: self)
    lazy var circleTool = CircleTool(canvas: self)
    private lazy var selection = CanvasSelection(canvas: self)
    private lazy var clipboard = CanvasClipboard(canvas: self)
    /// Finished strokes rasterised on their paper, all but a line picked up to be dragged.
    private(set) lazy var cache: LineCache = {
        let cache = LineCache(drawing: drawing, ink: screenInk)
        cache.excluded = { [unowned self] in self.selection.liftedID }
        cache.clock = { [unowned self] in self.clock }
        cache.onProgress = { [unowned self] in self.setNeedsDisplay(inkShownThrough: self.shown) }
        cache.onRepaired = { [unowned self] rect in self.setNeedsDisplay(rect) }
        return cache
    }()
    var clock: Clock? { window?.application?.clock }
    /// The lines as assistive tools see them, made on their first question (Accessibility/).
    private lazy var accessibility = CanvasAccessibility(canvas: self)
    public override var accessibilityElements: [Accessible]? { get { accessibility.elements } set {} }
    public override var accessibilityValue: String? { get { accessibility.value } set {} }

    public let doubleTapRecognizer = TapGestureRecognizer()
    public let tapRecognizer = TapGestureRecognizer()
    public let longPressRecognizer = LongPressGestureRecognizer()
    public let moveRecognizer = PanGestureRecognizer()
    /// The recognizers' delegate (A6, A10), which sees the fingers land.
    private lazy var gestureRules = CanvasGestureRules(moveRecognizer: moveRecognizer)

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.drawing = drawing
        super.init(frame: frame)
        // The paper is painted by draw(_:in:) itself (it is part of the raster cache), so the
        // renderer fills nothing behind the canvas and nothing under it is drawn.
        isOpaque = true
        isMultipleTouchEnabled = true
        // A drawing surface: the pointer shows the exact point it draws from.
        pointerStyle = .crosshair
        drawing.observe { [unowned self] change in self.drawingChanged(change) }
        installGestureRecognizers()
    }

    public override convenience init(frame: Rect) {
        self.init(frame: frame, drawing: Drawing())
    }

    // The pen's grace timer holds the canvas unowned, as the line cache's timers hold the cache.
    deinit { penGraceTimer?.cancel() }

    public override func appearanceDidChange() {
        screenInk = ScreenInk(appearance)
    }

    private func installGestureRecognizers() {
        // A3: a double tap clears; it holds touchesBegan so its taps leave no dots.
        doubleTapRecognizer.numberOfTapsRequired = 2
        doubleTapRecognizer.delaysTouchesBegan = true
        doubleTapRecognizer.delegate = gestureRules
        doubleTapRecognizer.addHandler { [unowned self] _ in self.clearAll() }
        addGestureRecognizer(doubleTapRecognizer)

        // A4: a single tap waits for the double tap to fail, then selects.
        tapRecognizer.delaysTouchesBegan = true
        tapRecognizer.require(toFail: doubleTapRecognizer)
        tapRecognizer.delegate = gestureRules
        tapRecognizer.addHandler { [unowned self] recognizer in self.selection.tap(at: self.drawingPoint(recognizer.location(in: self))) }
        addGestureRecognizer(tapRecognizer)

        // A6: a long press picks a line up...
        longPressRecognizer.minimumPressDuration = 0.6
        longPressRecognizer.delegate = gestureRules
        longPressRecognizer.addHandler { [unowned self] recognizer in self.selection.longPress(recognizer) }
        addGestureRecognizer(longPressRecognizer)

        // ...and a pan recognized together with it drags the line. It leaves the view its
        // touches, so fingers keep drawing when no line is selected (A7).
        moveRecognizer.delegate = gestureRules
        moveRecognizer.cancelsTouchesInView = false
        moveRecognizer.addHandler { [unowned self] recognizer in self.selection.move(recognizer) }
        addGestureRecognizer(moveRecognizer)
    }

    // MARK: Lines in progress

    /// One stroke per finger on the glass (a line, or a freehand stroke), keyed by its touch (T1:
    /// the touch object is the identity).
    public var strokesInProgress: [ObjectIdentifier: Stroke] { linesInProgress.strokes }

    /// Removes every line (A3). Undoable.
    public func clearAll() {
        select(nil)
        menu?.setMenuVisible(false)
        linesInProgress.removeAll()
        drawing.removeAll()
    }

    private func cancelDrawing() {
        linesInProgress.cancelAll()
        circleTool.cancelAll()
    }

    // MARK: Selection (A4-A7)

    /// The menu item's action: delete the selected line (A5).
    public static let deleteAction: Action = "deleteLine"
    public static let selectedColor = Color.green
    /// How close a tap must be to a line to select it (A4).
    public static let selectionRadius = 20.0
    /// How close to a line's centre, in the drawing's points, a tap selects it at the zoom shown:
    /// ``selectionRadius`` on screen, so a line is as easy to hit at 10 % as at 100 %; zoomed in,
    /// also everywhere on a line as wide as it shows (a 10 pt line is 80 pt wide at 800 %).
    var selectionReach: Double {
        let zoom = shown.zoom
        return zoom > 1 ? (Self.selectionRadius + Self.lineWidth / 2 * (zoom - 1)) / zoom : Self.selectionRadius / zoom
    }
    /// How much wider than itself a selected line is drawn: it lies over its own black copy in the
    /// line cache, whose antialiased edge would otherwise show as a dark rim.
    public static let selectionOutline = 1.0

    /// The line picked by a tap or a long press, drawn green.
    public var selectedStrokeID: StrokeID? { selection.selectedID }

    /// Selects a stroke (or nothing).
    public func select(_ id: StrokeID?) { selection.select(id) }

    /// Deletes the selected line (A5; the menu's Delete, the Delete key).
    public func deleteSelectedLine() { selection.deleteSelected() }

    private var menu: MenuController? { window?.application?.menuController }

    // MARK: Copy and paste (P2-P6)

    /// The menu items' actions: UIKit's standard edit actions.
    public static let copyAction = Action.copy
    public static let pasteAction = Action.paste

    /// Told what a copy or paste has to tell the user (the executable shows it in the banner).
    public var onNotice: ((String, BannerView.Style) -> Void)? {
        get { clipboard.onNotice }
        set { clipboard.onNotice = newValue }
    }
    /// What a paste may hold: the drawing file's limits (P4).
    public var pasteLimits: DrawingFormat.Limits {
        get { clipboard.limits }
        set { clipboard.limits = newValue }
    }
    /// Told of every paste's bytes as they arrive, before they are applied (`--record`).
    public var onPasteArrived: ((PasteboardReadResult) -> Void)? {
        get { clipboard.onPasteArrived }
        set { clipboard.onPasteArrived = newValue }
    }

    /// Copies the selected line, or the whole drawing when none is selected (P2; the menu's Copy,
    /// Ctrl+C). Returns whether something went onto the clipboard.
    @discardableResult
    public func copy() -> Bool { clipboard.copy() }

    /// Asks the clipboard for lines copied in TouchTracker (P3; the menu's Paste, Ctrl+V).
    public func paste() { clipboard.paste() }

    /// Applies what a paste read (P3, P4). A replay calls this with the recorded result.
    public func pasteArrived(_ result: PasteboardReadResult) { clipboard.pasteArrived(result) }

    public override var canBecomeFirstResponder: Bool { true }

    public override func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        switch action {
        case Self.deleteAction: return selectedStrokeID != nil
        case Self.copyAction: return clipboard.canCopy
        case Self.pasteAction: return clipboard.canPaste
        default: return super.canPerformAction(action, withSender: sender)
        }
    }

    public override func perform(_ action: Action, sender: Any?, event: Event?) {
        switch action {
        case Self.deleteAction: deleteSelectedLine()
        case Self.copyAction: copy()
        case Self.pasteAction: paste()
        default: super.perform(action, sender: sender, event: event)
        }
    }

    // MARK: The line cache

    /// How often the whole cache was drawn from every stroke (at start, on a new scale, clear,
    /// undo of a clear): at 100,000 lines that costs about a second, so nothing else may cause it.
    public var wholeCacheRenders: Int { cache.wholeBuilds }
    /// How many of the line cache's tiles were too big for a turn and were made aside, over turns.
    public var cacheTilesMadeAside: Int { cache.tilesMadeAside }
    /// Strokes drawn into the cache per turn of the event loop when the whole cache is made.
    public var cacheBuildSlice: Int {
        get { cache.slice }
        set { cache.slice = newValue }
    }
    /// Whether the cache is still being drawn (a big drawing just opened, or a clear undone).
    public var isBuildingCache: Bool { cache.isBuilding }
    /// Lines finished this turn of the event loop: drawn live, into the cache on the next turn.
    public var linesAwaitingCache: Int { cache.pending.count }
    /// Whether parts of the cache wait to be re-made (a line deleted, moved or lifted out of a
    /// dense drawing is re-made over a few turns).
    public var isRepairingCache: Bool { cache.hasRepairsPending }

    // MARK: The viewport

    /// Marks where the canvas shows the ink's reach (every line it may have shown since the
    /// drawing was last replaced: the line cache's ``LineCache/inkReach``) through `viewport`,
    /// with room for a line's edge smoothing and for an older raster shown scaled a pixel off.
    private func setNeedsDisplay(inkShownThrough viewport: CanvasViewport) {
        guard let inkReach = cache.inkReach else { return }
        let rect = viewport.canvasRect(inkReach).insetBy(dx: -2, dy: -2).intersection(bounds)
        if !rect.isEmpty { setNeedsDisplay(rect) }
    }

    private func viewportChanged(from old: CanvasViewport) {
        // The lines under fingers stay under them: what they drew so far stays where it is in
        // the drawing. With something over the lines (live lines, a selection, a circle), the
        // whole canvas is shown again; else what changes is where the lines were and are, and
        // paper elsewhere stays as it is (a new drawing's scroll or zoom repaints nothing).
        // Assistive tools read the lines' frames when they ask: nothing to tell them.
        guard linesInProgress.isEmpty, selection.selectedID == nil, selection.liftedID == nil, circleTool.circle == nil else {
            return setNeedsDisplay()
        }
        setNeedsDisplay(inkShownThrough: old.snapped(toPixelsAt: pixelScale))
        setNeedsDisplay(inkShownThrough: shown)
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        let ordered = ordered(touches, event)
        trace.log("touchesBegan", ordered, count: touches.count, in: self)
        if ordered.contains(where: { $0.type == .pencil }) { penTouched() }
        let drawing = ordered.filter { !fingersNavigate || $0.type != .direct }
        if tool == .circle { circleTool.began(drawing, in: event) } else { lineTool.began(drawing, freehand: tool == .freehand) }
        noteFingersDrawing()
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        let ordered = ordered(touches, event)
        trace.log("touchesMoved", ordered, count: touches.count, in: self)
        if tool == .circle { circleTool.update(event) } else { lineTool.moved(ordered, in: event) }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let ordered = ordered(touches, event)
        if ordered.contains(where: { $0.type == .pencil }) { penTouched() }
        trace.log("touchesEnded", ordered, count: touches.count, in: self)
        if tool == .circle { circleTool.ended(ordered, in: event) } else { lineTool.ended(ordered) }
        noteFingersDrawing()
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        let ordered = ordered(touches, event)
        trace.log("touchesCancelled", ordered, count: touches.count, in: self)
        circleTool.cancelled(ordered)
        lineTool.cancelled(ordered)
        noteFingersDrawing()
    }

    /// Whether a finger (or the pen, or the mouse) is drawing a line or a circle now.
    public internal(set) var isDrawing = false
    /// Told when ``isDrawing`` changes: controls over the canvas step aside meanwhile.
    public var onDrawingChange: ((Bool) -> Void)?

    /// `touches` in the order their fingers went down, not the set's (which changes from run to
    /// run): lines finished together are added, numbered and traced the same way every time, so
    /// a replay of a recording makes the same drawing.
    private func ordered(_ touches: Set<Touch>, _ event: Event) -> [Touch] {
        event.allTouchesInOrder.filter { touches.contains($0) }
    }

    // MARK: Drawing

    private func drawingChanged(_ change: Drawing.Change) {
        switch change {
        case .added(let stroke):
            cache.noteInk(stroke)
            // A finger's line the window shows from the cache, or a band along the line (not its
            // box: a finished diagonal repaints little).
            if linesInProgress.settle(stroke) { return }
            cache.add(stroke)
            setNeedsDisplay(along: stroke)
        case .removed(let stroke):
            if selection.strokeRemoved(stroke) { cache.repaint(along: stroke) }
            setNeedsDisplay(along: stroke)
        case .updated(let old, let new):
            cache.noteInk(new)
            // A lifted stroke is not in the cache: moving it costs only its own bands.
            if new.id != selection.liftedID {
                cache.repaint(along: old)
                cache.repaint(along: new)
            }
            setNeedsDisplay(along: selection.outlined(old))
            setNeedsDisplay(along: selection.outlined(new))
        case .reset:
            cache.resetInk()
            selection.drawingReset()
            cache.invalidate()
            setNeedsDisplay()
        }
    }

    /// The lines under fingers as live lines the window draws itself, while it can
    /// (``LinesInProgress/liveLines(cacheAlone:clock:)``).
    public override func liveLines() -> LiveLines? {
        linesInProgress.liveLines(cacheAlone: selection.selectedID == nil && selection.liftedID == nil && circleTool.circle == nil,
                                  clock: clock)
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        pixelScale = context.deviceScale
        let shown = shown
        let target = settlingViewport?.snapped(toPixelsAt: pixelScale)
        cache.holdsStale = target != nil
        let raster = cache.image(size: bounds.size, scale: context.deviceScale, viewport: target ?? shown)
        if cache.isBlank {
            // Paper alone, the same at every view: laid as the raster holds it, not copied from it.
            context.fillOpaque(rect, with: cache.paper)
        } else if let (stale, was) = cache.staleRaster {
            drawStale(stale, madeThrough: was, in: rect, context: context)
        } else if let target, target != shown {
            // Made for where the zoom ends, shown scaled on the way; the older raster fills what
            // it does not reach yet (a zoom in has less of the drawing to show than its frames).
            drawStale(raster, madeThrough: target, in: rect, context: context, beyond: cache.heldRaster.map { ($0.image, $0.viewport) })
        } else {
            context.copy(raster, clippedTo: rect)
        }
        // The rest in the drawing's coordinates.
        context.saveGState()
        defer { context.restoreGState() }
        if !shown.isIdentity { context.concatenate(shown.transform) }
        let area = shown.drawingRect(rect)
        // Finished strokes the raster does not hold yet: after a build's start, or this turn.
        func drawFinished<S: Sequence<Stroke>>(_ strokes: S) {
            StrokeRenderer.draw(strokes.lazy.filter { $0.id != self.selection.liftedID && $0.bounds.intersects(area) },
                                in: context, ink: screenInk)
        }
        drawFinished(cache.strokesNotYetIn)
        drawFinished(cache.pending)
        // What moves with a finger is redrawn every frame: a curve (freehand) or a circle, which
        // Cairo strokes, gets coarser edge smoothing there (not seen in motion); straight lines
        // are rows of pixels, smooth at a fraction of either's cost.
        selection.draw(area, in: context)
        linesInProgress.draw(area, in: context, clock: clock)
        circleTool.draw(area, in: context)
    }
}
