// The canvas inside a scroll view: the drawing has no edges to pan to, and zooms from 10 % to
// 800 %. The scroll view's content is the drawing's plane (as far as a drawing file reaches,
// ±`Limit.coordinate` points), stood for by a view that draws nothing and is what a pinch scales;
// the canvas itself stays over the visible part and shows the drawing through the viewport the
// scroll view's offset and zoom give (CanvasViewport.swift). So a zoomed drawing is drawn again
// at its new size, crisp, and the canvas costs the same at any zoom.
//
// Who navigates: with fingers drawing (the book's app) only the touchpad, the wheel, the keys and
// the zoom control move the view; with fingers off, or for a while after a pen drew, one finger
// pans and two pan and pinch, while taps and long presses keep their meaning (A14).
import Limits
import TouchKit

public final class CanvasScrollView: ScrollView {
    public let canvas: DrawView
    /// The drawing's plane in the scroll view's content: the view zooming scales.
    private let plane: View
    /// Its own delegate, but apart (a delegate is held weakly, which would send every retain of
    /// the scroll view down the runtime's slow path: TouchKit's ViewLink.swift).
    private lazy var follower = Follower(self)
    /// The drawing's point (0, 0) lies this far into the plane on both axes.
    static let extent = Limit.coordinate
    /// The zoom limits: far enough out to see a wall's drawing on a phone, far enough in to
    /// draw a detail a fingertip covers at 100 %.
    public static let zoomRange = 0.1...8.0

    public init(canvas: DrawView) {
        self.canvas = canvas
        plane = View(frame: Rect(x: 0, y: 0, width: 2 * Self.extent, height: 2 * Self.extent))
        super.init(frame: canvas.frame)
        // It shows nothing: hidden, its zoom marks nothing to redraw (H1).
        plane.isHidden = true
        plane.isUserInteractionEnabled = false
        plane.accessibilityElementsHidden = true
        addSubview(plane)
        addSubview(canvas)
        delegate = follower
        contentSize = plane.bounds.size
        minimumZoomScale = Self.zoomRange.lowerBound
        maximumZoomScale = Self.zoomRange.upperBound
        // A finger that draws draws at once; one that navigates never draws (A14).
        delaysContentTouches = false
        // The plane is as big as a drawing reaches: nothing to bounce off.
        bounces = false
        bouncesZoom = true
        contentOffset = Point(x: Self.extent, y: Self.extent)
        canvas.onTouchModeChange = { [unowned self] in
            self.updateTouchMode()
            self.onTouchModeChange?()
        }
        updateTouchMode()
    }

    /// Told when fingers start or stop navigating (the toolbar shows it).
    public var onTouchModeChange: (() -> Void)?

    /// Fingers pan and pinch only when they do not draw (A14); a mouse always draws.
    private func updateTouchMode() {
        let types: Set<Touch.Kind> = canvas.fingersNavigate ? [.direct] : []
        panGestureRecognizer.allowedTouchTypes = types
        pinchGestureRecognizer?.allowedTouchTypes = types
    }

    /// The part of the drawing shown, and its zoom; setting it scrolls and zooms there at once.
    public var viewport: CanvasViewport {
        get { Self.viewport(offset: contentOffset, zoom: zoomScale) }
        set {
            let zoom = min(max(newValue.zoom, minimumZoomScale), maximumZoomScale)
            if zoom != zoomScale { zoomScale = zoom }
            contentOffset = Point(x: (newValue.origin.x + Self.extent) * zoom, y: (newValue.origin.y + Self.extent) * zoom)
        }
    }

    static func viewport(offset: Point, zoom: Double) -> CanvasViewport {
        CanvasViewport(origin: Point(x: offset.x / zoom - extent, y: offset.y / zoom - extent), zoom: zoom)
    }

    /// Shows all of `rect` (the drawing's), centred, zoomed no further in than 100 % and no
    /// further out than the limit; `animated` over a quarter of a second.
    public func fit(_ rect: Rect, animated: Bool) {
        let room = Size(width: bounds.width - 2 * Self.fitMargin, height: bounds.height - 2 * Self.fitMargin)
        guard rect.width > 0, rect.height > 0, room.width > 0, room.height > 0 else { return }
        let zoom = min(max(min(room.width / rect.width, room.height / rect.height, 1), minimumZoomScale), maximumZoomScale)
        let width = bounds.width / zoom, height = bounds.height / zoom
        let target = CanvasViewport(origin: Point(x: rect.midX - width / 2, y: rect.midY - height / 2), zoom: zoom)
        guard animated else { return viewport = target }
        // Zoom about the target's centre in the plane, then glide there.
        self.zoom(to: Rect(x: target.origin.x + Self.extent, y: target.origin.y + Self.extent, width: width, height: height), animated: true)
    }

    /// Shows the whole drawing (``fit(_:animated:)``); an empty one at 100 % where it is.
    public func fitDrawing(animated: Bool) {
        guard let box = canvas.drawing.bounds else { return setZoomScale(1, animated: animated) }
        fit(box, animated: animated)
    }

    /// Room left around a drawing fitted in view, in the canvas's points.
    static let fitMargin = 16.0

    /// What a zoom key or the zoom control multiplies the zoom by.
    public static let zoomStep = 1.25

    // MARK: The first view

    /// How a drawing is first shown: as it was left, or whole when it does not fit.
    public enum InitialView: Equatable, Sendable {
        /// The view the drawing was left in; fitted instead when it would show none of it.
        case restore(CanvasViewport)
        /// At 100 % from the drawing's origin if that shows all of it, else fitted (a drawing
        /// made on a bigger screen).
        case whole
    }

    /// Applied at every layout until the view is moved: the window's size may change a few
    /// times before it is first shown.
    public var initialView: InitialView? {
        didSet { setNeedsLayout() }
    }
    /// Told of the zoom shown, whenever the view changes (the zoom control).
    public var onZoomShown: ((Double) -> Void)?
    /// Told when the view moves, by the user or a command (to keep it per drawing).
    public var onViewportChange: ((CanvasViewport) -> Void)?
    private var isLayingOut = false

    private func applyInitialView(_ initial: InitialView) {
        let box = canvas.drawing.bounds
        switch initial {
        case .restore(let saved):
            viewport = saved
            if let box, !canvas.visibleDrawingRect.intersects(box) { fit(box, animated: false) }
        case .whole:
            if let box, !Rect(origin: .zero, size: bounds.size).contains(box) {
                fit(box, animated: false)
            } else {
                viewport = .identity
            }
        }
    }

    // MARK: Keeping the canvas over what is shown

    /// True while the content moves: a scroll (a zoom's among them) and the canvas pinned again.
    private var contentMoving = false

    public override var contentOffset: Point {
        get { super.contentOffset }
        set {
            let was = contentMoving
            contentMoving = true
            defer { contentMoving = was }
            super.contentOffset = newValue
        }
    }

    // What the scroll view shows is the canvas, pinned over it: a scroll changes only what the
    // canvas draws, and the canvas marks that itself (where its lines were and are, nothing on
    // an empty drawing), not the whole window the scroll and the canvas's move would mark.
    public override func setNeedsDisplay(_ rect: Rect) {
        if !contentMoving { super.setNeedsDisplay(rect) }
    }

    public override func setNeedsDisplay(_ rects: [Rect]) {
        if !contentMoving { super.setNeedsDisplay(rects) }
    }

    public override func layoutSubviews() {
        isLayingOut = true
        defer { isLayingOut = false }
        super.layoutSubviews()
        if let initialView, bounds.width > 0, bounds.height > 0 { applyInitialView(initialView) }
        pinCanvas()
    }

    private func pinCanvas() {
        let visible = Rect(origin: contentOffset, size: bounds.size)
        if canvas.frame != visible { canvas.frame = visible }
        // An animated zoom (a spring back from past a limit, a zoom key, fit): the canvas readies
        // the raster for where it ends, and that is sharp the moment it does.
        canvas.settlingViewport = zoomAnimationTarget.map { Self.viewport(offset: $0.contentOffset, zoom: $0.zoomScale) }
        let shown = viewport
        guard shown != canvas.viewport else { return }
        canvas.viewport = shown
        onZoomShown?(shown.zoom)
        guard !isLayingOut else { return }
        initialView = nil
        onViewportChange?(shown)
    }

    /// The canvas follows every scroll and zoom; the plane is what zooms.
    private final class Follower: ScrollViewDelegate {
        unowned let owner: CanvasScrollView

        init(_ owner: CanvasScrollView) {
            self.owner = owner
        }

        func scrollViewDidScroll(_ scrollView: ScrollView) { owner.pinCanvas() }
        func scrollViewDidZoom(_ scrollView: ScrollView) { owner.pinCanvas() }
        func viewForZooming(in scrollView: ScrollView) -> View? { owner.plane }
    }
}

extension Drawing {
    /// The box every stroke paints in; nil for an empty drawing.
    public var bounds: Rect? { strokes.paintedBounds }
}
