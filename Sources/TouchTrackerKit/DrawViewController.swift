// The app's one screen: the canvas with the banner across its top, the toolbar below it and the
// palette that slides over its bottom edge. The controller wires the controls' target-actions to
// the canvas and the drawing, and shows the document's notices in the banner.
import TouchKit

/// Lays out the canvas, the banner, the toolbar and the palette.
final class DrawingScreenView: View {
    let drawView: DrawView
    /// The canvas's scroll view: pans and zooms the drawing (CanvasScrollView.swift).
    let scrollView: CanvasScrollView
    let banner = BannerView()
    let toolbar = ToolbarView(frame: .zero)
    let palette = PaletteView(frame: .zero)
    let zoomControl = ZoomControlView(frame: .zero)

    init(drawView: DrawView) {
        self.drawView = drawView
        scrollView = CanvasScrollView(canvas: drawView)
        super.init(frame: drawView.frame)
        addSubview(scrollView)
        // Inside the canvas, above its content: the palette and the toolbar stay in front of it.
        drawView.addSubview(banner)
        addSubview(palette)
        addSubview(toolbar)
        // After the toolbar, for Tab and screen readers: the canvas, the toolbar, then the zoom.
        addSubview(zoomControl)
        palette.isHidden = true
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let barHeight = min(ToolbarView.height, bounds.height / 3)
        scrollView.frame = Rect(x: 0, y: 0, width: bounds.width, height: max(0, bounds.height - barHeight))
        // The canvas stays over what the scroll view shows, its bounds at the origin.
        let canvas = Rect(origin: .zero, size: scrollView.bounds.size)
        banner.frame = Rect(x: canvas.minX, y: canvas.minY, width: canvas.width, height: banner.height(forWidth: canvas.width))
        toolbar.frame = Rect(x: 0, y: bounds.height - barHeight, width: bounds.width, height: barHeight)
        // In the canvas's far bottom corner, where a finger's drawing least often goes.
        // With the narrow bar, the Fingers toggle (in its More menu) shows here too.
        zoomControl.showsFingers = bounds.width < ToolbarView.narrowBelow
        let zoom = zoomControl.size, margin = 8.0
        let zoomX = LayoutDirection.current == .rightToLeft ? margin : bounds.width - zoom.width - margin
        zoomControl.frame = Rect(x: zoomX, y: scrollView.frame.maxY - zoom.height - margin, width: zoom.width, height: zoom.height)
        let paletteHeight = PaletteView.height(forWidth: bounds.width)
        palette.frame = Rect(x: 0, y: toolbar.frame.minY - paletteHeight, width: bounds.width, height: paletteHeight)
    }
}

public final class DrawViewController: ViewController {
    public let drawView: DrawView
    private let screen: DrawingScreenView
    public var toolbar: ToolbarView { screen.toolbar }
    public var palette: PaletteView { screen.palette }
    /// Pans and zooms the drawing under the canvas.
    public var scrollView: CanvasScrollView { screen.scrollView }
    /// Over the canvas's corner: zoom out, the zoom, zoom in.
    public var zoomControl: ZoomControlView { screen.zoomControl }
    /// Across the top of the canvas: the document's notices (``NoticeDisplay``).
    public var banner: BannerView { screen.banner }
    /// A three-finger swipe up shows the palette (a challenge of the book).
    public let paletteSwipeRecognizer = SwipeGestureRecognizer()
    /// Keys for those who cannot touch or point (Canvas/CanvasKeyboard.swift), made on the first key.
    public var keyboard: CanvasKeyboard {
        if let keyboardPath { return keyboardPath }
        let made = CanvasKeyboard(controller: self)
        keyboardPath = made
        return made
    }
    private var keyboardPath: CanvasKeyboard?
    /// The menu on screen is the More menu (DrawViewController+Overflow.swift).
    var showsOverflowMenu = false
    /// The application's menu controller whose visibility the More button follows, once known.
    weak var observedMenu: MenuController?

    /// The focus ring follows its control when the window's size moves it.
    public override func viewDidLayoutSubviews() { keyboardPath?.screenDidLayout() }

    public init(drawing: Drawing = Drawing()) {
        drawView = DrawView(frame: Rect(x: 0, y: 0, width: 1024, height: 768), drawing: drawing)
        screen = DrawingScreenView(drawView: drawView)
        super.init()
        view = screen
        wireToolbar()
        wireOverflowMenu()
        setUpAccessibility()
        palette.onPick = { [unowned self] color in self.pick(color) }
        paletteSwipeRecognizer.direction = .up
        paletteSwipeRecognizer.numberOfTouchesRequired = 3
        // Recognizing cancels the three fingers' lines in progress: no stray lines (A2).
        paletteSwipeRecognizer.addHandler { [unowned self] _ in self.isPaletteVisible = true }
        drawView.addGestureRecognizer(paletteSwipeRecognizer)
        drawing.undoStack.observe { [unowned self] in self.updateToolbar() }
        // Fingers on, yet navigating after a pen drew: the button shows what fingers do now (A14).
        scrollView.onTouchModeChange = { [unowned self] in self.updateToolbar() }
        wireZoomControl()
        updateToolbar()
    }

    // The zoom control's return holds it unowned (docs/architecture.md, "Gestures"): none
    // outlives it.
    deinit { zoomControlReturn?.cancel() }

    /// The tool, toggles and pen colour, as the toolbar and palette show them.
    public var preferences: Preferences {
        get {
            var p = Preferences()
            p.tool = drawView.tool
            p.colorsByAngle = drawView.colorsByAngle
            p.widthFollowsSpeed = drawView.widthFollowsSpeed
            p.drawsWithFingers = drawView.drawsWithFingers
            p.penColor = drawView.penColor
            p.drawsPredictedTouches = drawView.drawsPredictedTouches
            return p
        }
        set {
            drawView.tool = newValue.tool
            drawView.colorsByAngle = newValue.colorsByAngle
            drawView.widthFollowsSpeed = newValue.widthFollowsSpeed
            drawView.drawsWithFingers = newValue.drawsWithFingers
            drawView.penColor = newValue.penColor
            drawView.drawsPredictedTouches = newValue.drawsPredictedTouches
            updateToolbar()
        }
    }

    /// Told when the user asks for a new drawing (the toolbar's New); the app's document starts it.
    public var onNewDrawing: (() -> Void)?

    /// Told after the user changed a preference (the app saves them).
    public var onPreferencesChange: ((Preferences) -> Void)?

    public var isPaletteVisible: Bool {
        get { !palette.isHidden }
        set {
            palette.isHidden = !newValue
            updateZoomControl()
            ToolbarView.show(toolbar.paletteButton, on: newValue)
            screen.setNeedsDisplay()
        }
    }

    private func wireToolbar() {
        let undoStack = drawView.drawing.undoStack
        toolbar.newButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.drawView.select(nil)
            self.onNewDrawing?()
            // A new drawing starts at 100 %, its origin at the top left.
            self.scrollView.viewport = .identity
        }
        toolbar.undoButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.drawView.select(nil)
            undoStack.undo()
        }
        toolbar.redoButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.drawView.select(nil)
            undoStack.redo()
        }
        let tools: [(Button, DrawView.Tool)] = [(toolbar.lineButton, .line), (toolbar.freehandButton, .freehand),
                                               (toolbar.circleButton, .circle)]
        for (button, tool) in tools {
            button.addHandler(for: .touchUpInside) { [unowned self] _, _ in
                self.drawView.tool = tool
                self.updateToolbar()
                self.preferencesChanged()
            }
        }
        toolbar.angleButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.drawView.colorsByAngle.toggle()
            self.updateToolbar()
            self.preferencesChanged()
        }
        toolbar.speedButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.drawView.widthFollowsSpeed.toggle()
            self.updateToolbar()
            self.preferencesChanged()
        }
        toolbar.fingersButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.toggleFingers() }
        toolbar.paletteButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.isPaletteVisible.toggle()
        }
    }

    /// Whether the zoom control is offered at all. It shows unless a line is being drawn (and for
    /// ``zoomControlReturnDelay`` after the last one ends) or the palette lies over the canvas's
    /// bottom edge, where the control is.
    public var showsZoomControl = true {
        didSet { updateZoomControl() }
    }

    /// How long the zoom control stays aside once the last line ends: writing lifts the pen or
    /// finger between letters and words, and a control coming back between strokes made the
    /// canvas's corner blink with every one (and cost each short line its repaint).
    public static let zoomControlReturnDelay = 0.75
    /// The zoom control's return, while it waits out ``zoomControlReturnDelay``.
    private var zoomControlReturn: TimerToken?

    /// `drawingEnded`: the last line in progress just ended, so the control comes back after the
    /// delay rather than at once.
    private func updateZoomControl(drawingEnded: Bool = false) {
        let control = screen.zoomControl
        guard showsZoomControl, !isPaletteVisible, !drawView.isDrawing else {
            zoomControlReturn?.cancel()
            zoomControlReturn = nil
            control.isHidden = true
            return
        }
        if drawingEnded, let clock = drawView.clock {
            zoomControlReturn?.cancel()
            zoomControlReturn = clock.schedule(at: clock.now + Self.zoomControlReturnDelay) { [unowned self] in
                self.zoomControlReturn = nil
                self.updateZoomControl()
            }
        }
        if zoomControlReturn == nil { control.isHidden = false }
    }

    private func wireZoomControl() {
        let control = screen.zoomControl
        control.zoomOutButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.perform(.zoomOut) }
        control.zoomInButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.perform(.zoomIn) }
        control.fingersButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.toggleFingers() }
        control.levelButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in
            self.perform(abs(self.scrollView.zoomScale - 1) < 0.005 ? .fitDrawing : .actualSize)
        }
        scrollView.onZoomShown = { [unowned control] zoom in control.show(zoom: zoom) }
        // Out of the way while a line is drawn: nothing covers it, and the window draws the lines
        // under fingers itself over the whole canvas, in one piece.
        drawView.onDrawingChange = { [unowned self] drawing in self.updateZoomControl(drawingEnded: !drawing) }
        control.show(zoom: scrollView.zoomScale)
    }

    /// The pen takes the colour; a selected line is recoloured too (undoable).
    private func pick(_ color: Color) {
        drawView.penColor = color
        preferencesChanged()
        if let id = drawView.selectedStrokeID {
            drawView.drawing.update(id, actionName: "Colour") { $0.color = color }
        }
        isPaletteVisible = false
    }

    private func preferencesChanged() { onPreferencesChange?(preferences) }

    /// Fingers draw, or move and zoom the drawing (A14): the toolbar's toggle and the zoom
    /// control's.
    private func toggleFingers() {
        drawView.drawsWithFingers.toggle()
        updateToolbar()
        preferencesChanged()
    }

    private func updateToolbar() {
        toolbar.undoButton.isEnabled = drawView.drawing.undoStack.canUndo
        toolbar.redoButton.isEnabled = drawView.drawing.undoStack.canRedo
        ToolbarView.show(toolbar.lineButton, on: drawView.tool == .line)
        ToolbarView.show(toolbar.freehandButton, on: drawView.tool == .freehand)
        ToolbarView.show(toolbar.circleButton, on: drawView.tool == .circle)
        ToolbarView.show(toolbar.angleButton, on: drawView.colorsByAngle)
        ToolbarView.show(toolbar.speedButton, on: drawView.widthFollowsSpeed)
        ToolbarView.show(toolbar.fingersButton, on: !drawView.fingersNavigate)
        ToolbarView.show(screen.zoomControl.fingersButton, on: !drawView.fingersNavigate)
    }
}

extension DrawViewController: NoticeDisplay {
    public func show(_ notice: Notice?) {
        if let notice {
            banner.show(notice.text, style: notice.style)
            // The banner's height follows its message.
            screen.setNeedsLayout()
        } else {
            banner.hide()
        }
    }
}
