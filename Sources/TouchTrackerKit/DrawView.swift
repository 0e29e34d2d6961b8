// The canvas of the book's TouchTracker: every finger draws its own line, red while the finger is
// down, in the pen colour (black) once lifted; a cancelled touch loses its line (A1, A2). Its
// recognizers are the book's: double tap clears, tap selects and offers Delete, long press picks a
// line up and a pan drags it (A3-A7). Its edit menu also copies and pastes lines (P2-P6).
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import Logging
import TouchKit

public final class DrawView: View {
    /// The finished strokes: the document.
    public let drawing: Drawing
    /// One stroke per finger on the glass (a line, or a freehand stroke), keyed by its touch (T1:
    /// the touch object is the identity).
    public private(set) var strokesInProgress: [ObjectIdentifier: Stroke] = [:]

    public static let lineWidth = 10.0
    public static let inProgressColor = Color.red
    /// The colour finished lines get.
    public var penColor = Color.black
    /// Whether fingers draw. Off, only a pen or the mouse draws (for pen users whose hand rests on
    /// the screen); taps on controls still work.
    public var drawsWithFingers = true

    /// Logs every touch method call when set (`touchtracker --trace`).
    public var traceLogger: Logger?
    /// Short numbers for the touches in the trace, in the order they began.
    private var traceNumbers: [ObjectIdentifier: Int] = [:]
    private var nextTraceNumber = 1

    /// Finished strokes rasterised on their paper, all but a line picked up to be dragged. The
    /// selected line stays in it and is drawn green on top, so selecting costs no more in a dense
    /// drawing than in an empty one.
    private lazy var cache: StrokeCache = {
        let cache = StrokeCache(drawing: drawing, paper: Self.paperColor)
        cache.excluded = { [unowned self] in self.liftedStrokeID }
        cache.clock = { [unowned self] in self.window?.application?.clock }
        cache.onProgress = { [unowned self] in self.setNeedsDisplay() }
        cache.onRepaired = { [unowned self] rect in self.setNeedsDisplay(rect) }
        return cache
    }()
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

    // MARK: Selection and gestures (as in the book)

    /// The menu item's action: delete the selected line (A5).
    public static let deleteAction: Action = "deleteLine"
    public static let selectedColor = Color.green
    /// How close a tap must be to a line to select it (A4).
    public static let selectionRadius = 20.0

    /// The line picked by a tap or a long press, drawn green.
    public private(set) var selectedStrokeID: StrokeID?
    /// The line a long press picked up (or a pan drags): out of the line cache while it may move.
    private var liftedStrokeID: StrokeID?
    /// How much wider than itself a selected line is drawn: it lies over its own black copy in the
    /// line cache, whose antialiased edge would otherwise show as a dark rim.
    public static let selectionOutline = 1.0
    /// How far the pan has dragged the selected line since the drag began (committed as one
    /// undoable move when the drag ends).
    private var dragOffset = Point.zero

    /// Live lines are drafted (drawn unsmoothed) in frames that would cost too much otherwise.
    private var liveQuality = LiveLineQuality()
    private var clock: Clock? { window?.application?.clock }

    /// The canvas colour under the lines.
    public static let paperColor = Color.white

    public let doubleTapRecognizer = TapGestureRecognizer()
    public let tapRecognizer = TapGestureRecognizer()
    public let longPressRecognizer = LongPressGestureRecognizer()
    public let moveRecognizer = PanGestureRecognizer()

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.drawing = drawing
        super.init(frame: frame)
        // The paper is painted by draw(_:in:) itself (it is part of the raster cache), so the
        // renderer fills nothing behind the canvas and nothing under it is drawn.
        isOpaque = true
        isMultipleTouchEnabled = true
        drawing.observe { [unowned self] change in self.drawingChanged(change) }
        installGestureRecognizers()
    }

    private func installGestureRecognizers() {
        // A3: a double tap clears; it holds touchesBegan so its taps leave no dots.
        doubleTapRecognizer.numberOfTapsRequired = 2
        doubleTapRecognizer.delaysTouchesBegan = true
        doubleTapRecognizer.addHandler { [unowned self] _ in self.clearAll() }
        addGestureRecognizer(doubleTapRecognizer)

        // A4: a single tap waits for the double tap to fail, then selects.
        tapRecognizer.delaysTouchesBegan = true
        tapRecognizer.require(toFail: doubleTapRecognizer)
        tapRecognizer.addHandler { [unowned self] recognizer in self.tap(at: recognizer.location(in: self)) }
        addGestureRecognizer(tapRecognizer)

        // A6: a long press picks a line up...
        longPressRecognizer.minimumPressDuration = 0.6
        longPressRecognizer.addHandler { [unowned self] recognizer in self.longPress(recognizer) }
        addGestureRecognizer(longPressRecognizer)

        // ...and a pan recognized together with it drags the line. It leaves the view its
        // touches, so fingers keep drawing when no line is selected (A7).
        moveRecognizer.delegate = self
        moveRecognizer.cancelsTouchesInView = false
        moveRecognizer.addHandler { [unowned self] recognizer in self.moveLine(recognizer) }
        addGestureRecognizer(moveRecognizer)
    }

    private var menu: MenuController? { window?.application?.menuController }

    /// Removes every line (A3). Undoable.
    public func clearAll() {
        select(nil)
        menu?.setMenuVisible(false)
        for line in strokesInProgress.values { setNeedsDisplay(line.bounds) }
        strokesInProgress.removeAll()
        drawing.removeAll()
    }

    private func tap(at point: Point) {
        select(drawing.stroke(near: point, within: Self.selectionRadius)?.id)
        if selectedStrokeID != nil {
            showMenu(at: point)
        } else {
            menu?.setMenuVisible(false)
        }
    }

    /// Shows the edit menu at `point`: Delete, Copy and Paste, as far as each applies now (M1).
    private func showMenu(at point: Point) {
        guard let menu else { return }
        // The view becomes the target of the menu items' actions (R4, R5).
        becomeFirstResponder()
        menu.menuItems = [MenuController.Item(title: Strings.delete, action: Self.deleteAction),
                          MenuController.Item(title: Strings.copy, action: Self.copyAction),
                          MenuController.Item(title: Strings.paste, action: Self.pasteAction)]
        menu.setTargetRect(Rect(x: point.x, y: point.y, width: 2, height: 2), in: self)
        menu.setMenuVisible(true)
    }

    private func longPress(_ recognizer: LongPressGestureRecognizer) {
        switch recognizer.state {
        case .began:
            let point = recognizer.location(in: self)
            select(drawing.stroke(near: point, within: Self.selectionRadius)?.id)
            if let id = selectedStrokeID {
                lift(id)
            } else {
                // On empty canvas the press asks for the edit menu, shown when the finger lifts (P6).
                menuPressPoint = point
            }
            // The finger picked a line up or asked for the menu: it does not also draw one (the
            // book's "mysterious lines").
            for line in strokesInProgress.values { setNeedsDisplay(line.bounds) }
            strokesInProgress.removeAll()
        case .ended, .cancelled:
            select(nil)
            if let point = menuPressPoint, recognizer.state == .ended { showMenu(at: point) }
            menuPressPoint = nil
        default:
            break
        }
    }

    private func moveLine(_ recognizer: PanGestureRecognizer) {
        // Nothing to drag, or the menu is up (the book: the pan then moves nothing).
        guard let id = selectedStrokeID, let stroke = drawing.stroke(id), menu?.isMenuVisible != true else { return }
        switch recognizer.state {
        case .began, .changed, .ended:
            // Every state that reports movement moves the line: motion read in one turn reaches
            // the views as one event, so a quick drag may begin and end with no change between.
            lift(id)
            let translation = recognizer.translation(in: self)
            setNeedsDisplay(along: stroke.translated(dx: dragOffset.x, dy: dragOffset.y))
            dragOffset = Point(x: dragOffset.x + translation.x, y: dragOffset.y + translation.y)
            setNeedsDisplay(along: stroke.translated(dx: dragOffset.x, dy: dragOffset.y))
            // Report the movement incrementally: the line stays under the finger.
            recognizer.setTranslation(.zero, in: self)
            if recognizer.state == .ended { commitDrag() }
        case .cancelled:
            commitDrag()
        default:
            break
        }
    }

    /// Turns the drag so far into one undoable move, and puts the line back into the cache.
    private func commitDrag() {
        defer { drop() }
        guard let id = selectedStrokeID, dragOffset != .zero else { return }
        let offset = dragOffset
        dragOffset = .zero
        drawing.update(id, actionName: "Move") { $0 = $0.translated(dx: offset.x, dy: offset.y) }
    }

    /// Takes a line out of the cache, so that it can move: the band along it is re-made without it
    /// (in a dense drawing over a few turns, meanwhile its black copy still shows there).
    private func lift(_ id: StrokeID) {
        guard liftedStrokeID != id, let stroke = drawing.stroke(id) else { return }
        drop()
        liftedStrokeID = id
        cache.repaint(along: stroke)
    }

    /// Puts the lifted line back into the cache: on top at once, then in its place in the paint
    /// order as the band along it is re-made.
    private func drop() {
        guard let id = liftedStrokeID else { return }
        liftedStrokeID = nil
        guard let stroke = drawing.stroke(id) else { return }
        cache.drawOnTop(stroke)
        cache.repaint(along: stroke)
        setNeedsDisplay(along: stroke)
    }

    /// Selects a stroke (or nothing). The selected line stays in the cache and is drawn over it,
    /// so only the bands along the two lines are repainted, from the cache.
    public func select(_ id: StrokeID?) {
        commitDrag()
        guard id != selectedStrokeID else { return }
        if let old = selectedStrokeID.flatMap(drawing.stroke) { setNeedsDisplay(along: outlined(old)) }
        selectedStrokeID = id
        if let new = id.flatMap(drawing.stroke) { setNeedsDisplay(along: outlined(new)) }
        if id == nil { menu?.setMenuVisible(false) }
    }

    /// How a selected stroke is drawn: green, and wider by ``selectionOutline`` unless it is lifted
    /// out of the cache.
    private func outlined(_ stroke: Stroke) -> Stroke {
        var selected = stroke
        selected.color = Self.selectedColor
        if stroke.id != liftedStrokeID { selected.width += Self.selectionOutline }
        return selected
    }

    /// Deletes the selected line (A5; the menu's Delete, the Delete key).
    public func deleteSelectedLine() {
        guard let id = selectedStrokeID else { return }
        select(nil)
        drawing.remove(id)
    }

    public override var canBecomeFirstResponder: Bool { true }

    public override func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        switch action {
        case Self.deleteAction: return selectedStrokeID != nil
        case Self.copyAction: return pasteboard != nil && !linesToCopy.isEmpty
        case Self.pasteAction: return pasteboard.map { DrawingClipboard.canPaste($0.types) } ?? false
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

    // MARK: Copy and paste (P2-P6)

    /// The menu items' actions: UIKit's standard edit actions.
    public static let copyAction = Action.copy
    public static let pasteAction = Action.paste
    /// Told what a copy or paste has to tell the user (the executable shows it in the banner).
    public var onNotice: ((String, BannerView.Style) -> Void)?
    /// What a paste may hold: the drawing file's limits (P4).
    public var pasteLimits = DrawingFormat.Limits.standard
    /// Where a long press on empty canvas asked for the menu (shown when the finger lifts, P6).
    private var menuPressPoint: Point?
    /// Told of every paste's bytes as they arrive, before they are applied (`--record`).
    public var onPasteArrived: ((PasteboardReadResult) -> Void)?

    private var pasteboard: Pasteboard? { window?.application?.pasteboard }

    /// The selected line, else every line (P2).
    private var linesToCopy: [Stroke] {
        if let stroke = selectedStrokeID.flatMap(drawing.stroke) { return [stroke] }
        return drawing.strokes
    }

    /// Copies the selected line, or the whole drawing when none is selected (P2; the menu's Copy,
    /// Ctrl+C). Returns whether something went onto the clipboard.
    @discardableResult
    public func copy() -> Bool {
        let lines = linesToCopy
        guard !lines.isEmpty, let pasteboard else { return false }
        guard pasteboard.setItems(DrawingClipboard.items(for: lines)) else {
            onNotice?(Strings.copyFailed, .error)
            return false
        }
        return true
    }

    /// Whether a paste asked for has not arrived yet: until it has, another paste reads nothing,
    /// so Ctrl+V pressed again and again holds one read of up to the paste limit, not one each (P4).
    private var pasteOnItsWay = false

    /// Asks the clipboard for lines copied in TouchTracker; they are added when they arrive (P3;
    /// the menu's Paste, Ctrl+V). Anything else on the clipboard is declined with a banner (P5).
    public func paste() {
        guard let pasteboard, !pasteOnItsWay else { return }
        guard DrawingClipboard.canPaste(pasteboard.types) else {
            onNotice?(Strings.nothingToPaste, .info)
            return
        }
        pasteOnItsWay = true
        pasteboard.read(DrawingClipboard.drawingType, maxBytes: pasteLimits.maxFileBytes) { [weak self] result in
            self?.pasteOnItsWay = false
            self?.pasteArrived(result)
        }
    }

    /// Applies what a paste read: the lines on top as one undoable step, or a banner saying why
    /// not, the drawing untouched (P3, P4). A replay calls this with the recorded result.
    public func pasteArrived(_ result: PasteboardReadResult) {
        onPasteArrived?(result)
        switch result {
        case .data(let bytes):
            do throws(DrawingParseError) {
                let strokes = try DrawingClipboard.strokesToPaste(bytes, into: drawing, limits: pasteLimits)
                select(nil)
                drawing.add(contentsOf: strokes, actionName: "Paste")
            } catch {
                onNotice?(Strings.pasteFailed(error.message), .error)
            }
        case .tooLarge(let limit):
            onNotice?(Strings.pasteTooLarge(DrawingFormat.byteCount(limit)), .error)
        case .failed(let reason):
            onNotice?(Strings.pasteFailed(reason), .error)
        }
    }

    public override convenience init(frame: Rect) {
        self.init(frame: frame, drawing: Drawing())
    }

    // MARK: Tools (the draw board's freehand mode and the book's end-of-chapter challenges)

    /// What a finger draws.
    public enum Tool: String, Sendable, CaseIterable {
        /// A straight line from where the finger landed to where it is (as in the book).
        case line
        /// A stroke through every sample of the finger (the draw board's freehand mode).
        case freehand
        /// A circle in the box two fingers span (a challenge of the book); one finger draws nothing.
        case circle
    }

    public var tool = Tool.line {
        didSet { if tool != oldValue { cancelDrawing() } }
    }
    /// A challenge of the book: a finished line's colour follows its angle.
    public var colorsByAngle = false
    /// A challenge of the book: a faster finger draws a thicker line.
    public var widthFollowsSpeed = false

    /// Per finger: when it landed, to know its speed.
    private var startTimes: [ObjectIdentifier: Double] = [:]
    /// The circle tool's fingers, in the order they landed.
    private var circleTouches: [ObjectIdentifier] = []
    private var circleInProgress: Stroke?

    private func cancelDrawing() {
        if windowDrawsLiveLines { setNeedsLiveLines() } else { for line in strokesInProgress.values { setNeedsDisplay(line.bounds) } }
        if let circle = circleInProgress { setNeedsDisplay(circle.bounds) }
        strokesInProgress.removeAll()
        circleTouches.removeAll()
        circleInProgress = nil
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        trace("touchesBegan", touches, event)
        for touch in ordered(touches, event) where drawsWithFingers || touch.type != .direct {
            let key = ObjectIdentifier(touch)
            let location = touch.location(in: self)
            startTimes[key] = touch.timestamp
            if tool == .circle {
                circleTouches.append(key)
                updateCircle(event)
                continue
            }
            let width = touch.type == .pencil ? Self.penWidth(force: touch.force) : Self.lineWidth
            var line = Stroke.line(StrokeID(0), from: location, to: location, color: Self.inProgressColor,
                                   width: width)
            if tool == .freehand {
                line.kind = .freehand
                line.points = [location]
            }
            strokesInProgress[key] = line
            setNeedsDisplay(line.bounds)
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        trace("touchesMoved", touches, event)
        if tool == .circle {
            updateCircle(event)
            return
        }
        if let now = clock?.now { liveQuality.lineMoved(at: now) }
        for touch in ordered(touches, event) {
            guard var line = strokesInProgress[ObjectIdentifier(touch)] else { continue }
            let old = line
            if line.kind == .freehand {
                // Every sample between frames (T11), so fast curves stay smooth.
                let samples = event.coalescedTouches(for: touch).map { $0.location(in: self) }
                let added = samples.isEmpty ? [touch.location(in: self)] : samples
                line.points.append(contentsOf: added)
                if touch.type == .pencil { line.width = max(line.width, Self.penWidth(force: touch.force)) }
                strokesInProgress[ObjectIdentifier(touch)] = line
                // Only the newest segments need repainting, unless the pen widened the whole stroke.
                if line.width == old.width {
                    setNeedsDisplay(along: Stroke(id: line.id, kind: .freehand, points: Array(line.points.suffix(added.count + 1)),
                                                  width: line.width))
                } else {
                    setNeedsDisplay(line.bounds)
                }
                continue
            }
            line.points[1] = touch.location(in: self)
            // A pen's line is as wide as it was pressed hardest.
            if touch.type == .pencil { line.width = max(line.width, Self.penWidth(force: touch.force)) }
            strokesInProgress[ObjectIdentifier(touch)] = line
            // Sketched lines are the window's to erase and draw (see liveLines()).
            if windowDrawsLiveLines { setNeedsLiveLines() } else { setNeedsDisplay(along: old, and: line) }
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        trace("touchesEnded", touches, event)
        if tool == .circle {
            finishCircle(event, ending: touches)
            return
        }
        for touch in ordered(touches, event) {
            let key = ObjectIdentifier(touch)
            guard var line = strokesInProgress.removeValue(forKey: key) else { continue }
            // A sketched line is erased by the window, where each buffer holds it.
            if windowDrawsLiveLines { setNeedsLiveLines() } else { setNeedsDisplay(along: line) }
            let end = touch.location(in: self)
            if line.kind == .line { line.points[1] = end } else if line.points.last != end { line.points.append(end) }
            line.id = drawing.makeID()
            line.color = penColor
            if colorsByAngle, line.kind == .line {
                line.color = Self.color(forAngle: atan2(line.points[1].y - line.points[0].y,
                                                        line.points[1].x - line.points[0].x))
            }
            if widthFollowsSpeed, touch.type != .pencil, let start = startTimes[key] {
                let duration = max(touch.timestamp - start, 0.016)
                line.width = Self.width(forSpeed: pathLength(line.points) / duration)
            }
            startTimes[key] = nil
            liftingLine = true
            drawing.add(line)
            liftingLine = false
        }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        trace("touchesCancelled", touches, event)
        for touch in ordered(touches, event) {
            let key = ObjectIdentifier(touch)
            startTimes[key] = nil
            if let index = circleTouches.firstIndex(of: key) {
                circleTouches.remove(at: index)
                if let circle = circleInProgress { setNeedsDisplay(circle.bounds) }
                circleInProgress = nil
            }
            guard let line = strokesInProgress.removeValue(forKey: key) else { continue }
            if windowDrawsLiveLines { setNeedsLiveLines() } else { setNeedsDisplay(line.bounds) }
        }
    }

    /// The circle spans the box of the first two fingers on the glass.
    private func updateCircle(_ event: Event) {
        let old = circleInProgress?.bounds
        let touches = event.touches(for: self)
        let corners = circleTouches.prefix(2).compactMap { key in
            touches.first { ObjectIdentifier($0) == key }?.location(in: self)
        }
        circleInProgress = corners.count == 2
            ? Stroke(id: StrokeID(0), kind: .circle, points: corners, color: Self.inProgressColor, width: Self.lineWidth)
            : nil
        if let old { setNeedsDisplay(old) }
        if let circle = circleInProgress { setNeedsDisplay(circle.bounds) }
    }

    /// Lifting either of the two fingers finishes the circle.
    private func finishCircle(_ event: Event, ending touches: Set<Touch>) {
        updateCircle(event)
        let ending = Set(touches.map(ObjectIdentifier.init))
        let wasSpanning = circleTouches.prefix(2).contains { ending.contains($0) }
        if wasSpanning, var circle = circleInProgress {
            setNeedsDisplay(circle.bounds)
            circle.id = drawing.makeID()
            circle.color = penColor
            drawing.add(circle, actionName: "Circle")
            circleInProgress = nil
        }
        circleTouches.removeAll { ending.contains($0) }
        if wasSpanning { circleTouches.removeAll() }
        for touch in ordered(touches, event) { startTimes[ObjectIdentifier(touch)] = nil }
    }

    private func pathLength(_ points: StrokePoints) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// `touches` in the order their fingers went down, not the set's (which changes from run to
    /// run): lines finished together are added, numbered and traced the same way every time, so
    /// a replay of a recording makes the same drawing.
    private func ordered(_ touches: Set<Touch>, _ event: Event) -> [Touch] {
        event.allTouchesInOrder.filter { touches.contains($0) }
    }

    private func trace(_ method: String, _ touches: Set<Touch>, _ event: Event) {
        guard let traceLogger else { return }
        for touch in ordered(touches, event) {
            let key = ObjectIdentifier(touch)
            let number = traceNumbers[key] ?? nextTraceNumber
            if traceNumbers[key] == nil {
                traceNumbers[key] = number
                nextTraceNumber += 1
            }
            if touch.phase == .ended || touch.phase == .cancelled { traceNumbers[key] = nil }
            let p = touch.location(in: self)
            traceLogger.info("\(method) touches=\(touches.count) phase=\(touch.phase) touch=\(number) x=\(p.x) y=\(p.y) taps=\(touch.tapCount)")
        }
    }

    // MARK: Drawing

    private func drawingChanged(_ change: Drawing.Change) {
        switch change {
        case .added(let stroke):
            if liftingLine, windowDrawsLiveLines, stroke.kind == .line, cache.currentImage != nil {
                // Into the cache at once, and shown by the window copying the cache along it
                // into each buffer (liveLines()): no band repainted, none copied between buffers.
                cache.drawOnTop(stroke)
                settledLines.append(stroke)
                setNeedsLiveLines()
                return
            }
            cache.add(stroke)
            // A band along the line, not its box: a finished diagonal repaints little.
            setNeedsDisplay(along: stroke)
        case .removed(let stroke):
            if stroke.id == selectedStrokeID {
                selectedStrokeID = nil
                setNeedsDisplay(along: outlined(stroke))
            }
            if stroke.id == liftedStrokeID {
                liftedStrokeID = nil  // already out of the cache
            } else {
                cache.repaint(along: stroke)
            }
            setNeedsDisplay(along: stroke)
        case .updated(let old, let new):
            // A lifted stroke is not in the cache: moving it costs only its own bands.
            if new.id != liftedStrokeID {
                cache.repaint(along: old)
                cache.repaint(along: new)
            }
            setNeedsDisplay(along: outlined(old))
            setNeedsDisplay(along: outlined(new))
        case .reset:
            if let id = selectedStrokeID, drawing.stroke(id) == nil {
                selectedStrokeID = nil
                menu?.setMenuVisible(false)
            }
            if let id = liftedStrokeID, drawing.stroke(id) == nil { liftedStrokeID = nil }
            cache.invalidate()
            setNeedsDisplay()
        }
    }

    /// Redraws drafted live lines smooth once the fingers have rested (or waits on if they moved).
    private func polishLiveLines() {
        guard let clock else { return liveQuality.reset() }
        if liveQuality.polishFired(at: clock.now) {
            // Sketched lines are smoothed by the window's next sketch.
            if windowDrawsLiveLines { setNeedsLiveLines() } else { for line in strokesInProgress.values { setNeedsDisplay(along: line) } }
        } else {
            liveQuality.schedulePolish(on: clock) { [weak self] in self?.polishLiveLines() }
        }
    }

    /// Marks what `stroke` paints as a few rectangles along it rather than its whole box: a long
    /// diagonal line then repaints a band, not a square. Only what lies on the canvas is marked.
    private func setNeedsDisplay(along stroke: Stroke) {
        setNeedsDisplay(stroke.bands(within: bounds))
    }

    /// The bands of a line before and after it moved: a band and its moved self are marked as one
    /// rectangle where their union is hardly larger (a line turning about where it landed moves
    /// little near that end), which halves the dirty region's work for a moving line.
    private func setNeedsDisplay(along old: Stroke, and new: Stroke) {
        let before = old.bands(within: bounds), after = new.bands(within: bounds)
        var rects: [Rect] = []
        rects.reserveCapacity(max(before.count, after.count) + 1)
        for i in 0..<max(before.count, after.count) {
            guard i < before.count else { rects.append(after[i]); continue }
            guard i < after.count else { rects.append(before[i]); continue }
            let (a, b) = (before[i], after[i])
            let union = a.union(b), overlap = a.intersection(b)
            let covered = a.width * a.height + b.width * b.height - overlap.width * overlap.height
            if !overlap.isEmpty, union.width * union.height <= covered * 1.25 {
                rects.append(union)
            } else {
                rects.append(a)
                rects.append(b)
            }
        }
        setNeedsDisplay(rects)
    }

    /// Whether the last frame's live lines went to the window as a sketch.
    private var windowDrawsLiveLines = false
    /// The finished lines that were waiting to go into the line cache at the last sketch.
    private var pendingAtLastLiveLines: Set<StrokeID> = []
    /// Lines finished while windowDrawsLiveLines, drawn into the cache at once: the next sketch's restored
    /// lines, or marked dirty if there is none.
    private var settledLines: [Stroke] = []
    /// Set while a finger's line is added: only those are restored (a paste of thousands of
    /// lines goes into the cache in one batch on the next turn, as before).
    private var liftingLine = false

    /// Straight live lines, while the line cache is all the canvas shows beneath them (no
    /// selection, no lifted line, no line cache build; finished lines still waiting to go into
    /// the cache only if they were finished since the last frame, so that the frame painting
    /// them covers them): the window draws them as rows of pixels, their edges smoothed unless
    /// the frame drafts them (LiveLineQuality), and erases them by copying the cache back along
    /// those rows, instead of this view repainting bands along each line where it was and where
    /// it is (TouchKit's LiveLines). Fingers moving, ten or a flood, then cost the lines' own pixels.
    /// A line a finger lifts goes into the cache at once and is restored from it by the window.
    /// The sketch goes on, empty, once every finger has lifted: the next finger to land then
    /// needs no repaint to start one, and each buffer still erases what it holds.
    public override func liveLines() -> LiveLines? {
        let pending = cache.pending.isEmpty ? [] : Set(cache.pending.map(\.id))
        defer { pendingAtLastLiveLines = pending }
        guard !strokesInProgress.isEmpty || windowDrawsLiveLines else { return nil }
        let lines = strokesInProgress.values
        if lines.allSatisfy({ $0.kind == .line && $0.color.alpha >= 1 }),
           selectedStrokeID == nil, liftedStrokeID == nil, circleInProgress == nil,
           pending.isDisjoint(with: pendingAtLastLiveLines),
           let backdrop = cache.currentImage, let clock {
            let cost = lines.reduce(0) { $0 + LiveLineQuality.cost(of: $1, length: pathLength($1.points), scale: backdrop.scale) }
            let drafted = liveQuality.antialiasing(cost: cost, at: clock.now) == .draft
            // Lines this view drew itself (some since they last moved) are repainted without
            // them in this frame.
            if !windowDrawsLiveLines { for line in lines { setNeedsDisplay(along: line) } }
            windowDrawsLiveLines = true
            if drafted { liveQuality.schedulePolish(on: clock) { [weak self] in self?.polishLiveLines() } }
            defer { settledLines.removeAll() }
            return LiveLines(lines: lines.map { Polyline(points: Array($0.points), width: $0.width, color: $0.color) },
                          smooth: !drafted, backdrop: backdrop,
                          settled: settledLines.map { Polyline(points: Array($0.points), width: $0.width, color: $0.color) })
        }
        if windowDrawsLiveLines {
            // Back to this view: the lines are drawn where they are now (where they were is
            // the window's to repaint), and so are lines finished since the last sketch.
            windowDrawsLiveLines = false
            for line in lines { setNeedsDisplay(along: line) }
            for line in settledLines { setNeedsDisplay(along: line) }
            settledLines.removeAll()
        }
        return nil
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.copy(cache.image(size: bounds.size, scale: context.deviceScale), clippedTo: rect)
        // Finished strokes the raster does not hold yet: after a build's start, or this turn.
        func drawFinished<S: Sequence<Stroke>>(_ strokes: S) {
            StrokeRenderer.draw(strokes.lazy.filter { $0.id != self.liftedStrokeID && $0.bounds.intersects(rect) }, in: context)
        }
        drawFinished(cache.strokesNotYetIn)
        drawFinished(cache.pending)
        // What moves with a finger is redrawn every frame: a curve (freehand) or a circle, which
        // Cairo strokes, gets coarser edge smoothing there (about a sixth faster, not seen in
        // motion); straight lines are rows of pixels, smooth at a fraction of either's cost.
        context.saveGState()
        defer { context.restoreGState() }
        if let id = selectedStrokeID, let stroke = drawing.stroke(id) {
            let selected = outlined(stroke).translated(dx: dragOffset.x, dy: dragOffset.y)
            context.setAntialiasing(dragOffset == .zero ? .smooth : .fast)
            if selected.bounds.intersects(rect) { StrokeRenderer.draw(selected, in: context) }
        }
        let live = context.omitsLiveLines(of: self) ? [] : strokesInProgress.values.filter { $0.bounds.intersects(rect) }
        let cost = live.reduce(0) { $0 + LiveLineQuality.cost(of: $1, length: pathLength($1.points), scale: context.deviceScale) }
        let quality = clock.map { liveQuality.antialiasing(cost: cost, at: $0.now) } ?? .fast
        context.setAntialiasing(quality)
        // Drafted lines go in as rows of pixels: a fraction of the cost of smoothed long lines.
        StrokeRenderer.draw(live, in: context)
        if quality == .draft, let clock { liveQuality.schedulePolish(on: clock) { [weak self] in self?.polishLiveLines() } }
        if let circle = circleInProgress, circle.bounds.intersects(rect) { StrokeRenderer.draw(circle, in: context) }
    }
}

extension DrawView: GestureRecognizerDelegate {
    /// The pan recognizes together with the long press (as in the book), and with the palette's
    /// three-finger swipe, which it would otherwise prevent.
    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        gestureRecognizer === moveRecognizer
    }
}
