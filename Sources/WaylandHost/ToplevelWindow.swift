// The app's main window on Wayland: wl_surface + xdg_surface + xdg_toplevel, its buffers and frame
// pacing. Paints TouchKit's Window into wl_shm buffers only when something changed, at most once per
// frame callback, never into a buffer the compositor still holds, and damages only what changed.
import CShims
import Graphics
import Limits
import Logging
import TouchKit
import Wayland

final class ToplevelWindow {
    let surface: WlSurface
    private let compositor: WlCompositor
    /// The window's xdg_surface: the parent of its popups.
    let xdgSurface: XdgSurface
    private let toplevel: XdgToplevel
    let window: DecoratedWindow
    /// Server-side decorations, where the compositor offers xdg-decoration.
    private let decoration: ZxdgToplevelDecorationV1?
    private var pendingDecorationMode: ZxdgToplevelDecorationV1.Mode?
    private var pendingStates: Set<XdgToplevel.State> = []
    /// The states of the last applied configure (maximized, fullscreen, activated...).
    private(set) var states: Set<XdgToplevel.State> = []
    private(set) var decorationMode: ZxdgToplevelDecorationV1.Mode = .clientSide
    private let logger: Logger

    /// The size the compositor asked for in the last toplevel configure (0 = our choice).
    private var pendingSize: (width: Int32, height: Int32) = (0, 0)
    /// The size the last configure asked for, or ours; `size` is within the raster limits.
    private var askedSize: (width: Int, height: Int) = (0, 0)
    private(set) var size: (width: Int, height: Int) = (0, 0)
    private(set) var isConfigured = false
    /// Until ``show()``, a configure is answered but nothing is painted: the app's views and its
    /// style are set up between the host's start and its loop, and the first frame shows them.
    private var isHeld = true
    /// The buffers frames are drawn into.
    private let pool: BufferPool
    private var frameCallback: WlCallback?
    /// Set when the window asked for a repaint; the loop draws once per batch of events.
    private(set) var wantsRedraw = false
    /// Changes that are not input wait for the next input's frame while input streams.
    private var pacing = InputPacing()
    /// Whether a touch, a pen or a pointer button is down on any seat (more input is coming).
    var isPressed: () -> Bool = { false }
    /// Runs an action at a time of the host's clock (a held change's own frame).
    var schedule: (Double, @escaping () -> Void) -> TimerToken? = { _, _ in nil }
    private var heldChange: TimerToken?
    // The held change's timer holds it unowned: none outlives it.
    deinit { heldChange?.cancel() }

    /// The user asked to close the window.
    var onClose: (() -> Void)?
    /// The window's size, scale or title bar changed (`--record` notes it).
    var onGeometryChange: (() -> Void)?

    /// Buffer pixels per point: the largest scale of the outputs the surface is on.
    private(set) var scale: Int32 = 1
    /// The compositor's preferred fractional scale, where it offers wp_fractional_scale_v1 (and
    /// wp_viewporter); it wins over the integer scale.
    private var fractionalScale: WpFractionalScaleV1?
    private var viewport: WpViewport?
    private var preferredFraction: UInt32?
    private var viewportSize: (width: Int, height: Int)?
    /// How the buffer maps onto the window now.
    var geometry: BufferGeometry {
        if let preferredFraction, viewport != nil { return .fractional(numerator: preferredFraction) }
        return .integer(scale)
    }
    private var enteredOutputs: [ObjectIdentifier: WlOutput] = [:]
    /// Looks up an output's current scale (the host tracks outputs).
    var scaleOfOutput: (WlOutput) -> Int32 = { _ in 1 }
    /// Frames painted so far (for logs and tests).
    private(set) var framesPainted = 0

    static let defaultSize = (width: 1024, height: 768)

    /// The host's clock (seconds), for the buffers' ages.
    var now: () -> Double {
        get { pool.now }
        set { pool.now = newValue }
    }
    /// Sends wl_display.sync (``BufferPool/sync``).
    var sync: () -> WlCallback? {
        get { pool.sync }
        set { pool.sync = newValue }
    }
    /// When spare buffers may next go (BufferPool's `nextSpareCheck`): the host then calls
    /// ``releaseSpareBuffers()``; nil without spares.
    var nextSpareBufferCheck: Double? { pool.nextSpareCheck(now: pool.now()) }
    /// Lets spare buffers go that have not been used for `BufferPool.spareLifetime`.
    func releaseSpareBuffers() { pool.releaseSpares() }

    init(compositor: WlCompositor, wmBase: XdgWmBase, shm: WlShm, decorationManager: ZxdgDecorationManagerV1?,
         window: DecoratedWindow, title: String, appID: String, logger: Logger) {
        self.window = window
        self.logger = logger
        pool = BufferPool(shm: shm, logger: logger)
        self.compositor = compositor
        surface = compositor.createSurface()
        xdgSurface = wmBase.getXdgSurface(surface: surface)
        toplevel = xdgSurface.getToplevel()
        toplevel.setTitle(title: title)
        toplevel.setAppId(appId: appID)
        toplevel.setMinSize(width: 200, height: 150)
        decoration = decorationManager?.getToplevelDecoration(toplevel: toplevel)

        toplevel.onEvent = { [unowned self] event in
            switch event {
            case .configure(let width, let height, let states):
                self.pendingSize = (width, height)
                self.pendingStates = Set(Self.decodeStates(states))
            case .close:
                self.onClose?()
            default:
                break
            }
        }
        xdgSurface.onEvent = { [unowned self] event in
            if case .configure(let serial) = event {
                self.xdgSurface.ackConfigure(serial: serial)
                self.applyConfigure()
            }
        }
        if let decoration {
            decoration.onEvent = { [unowned self] event in
                if case .configure(let mode) = event { self.pendingDecorationMode = mode }
            }
            decoration.setMode(mode: .serverSide)
        }
        surface.onEvent = { [unowned self] event in
            switch event {
            case .enter(let output?):
                self.enteredOutputs[ObjectIdentifier(output)] = output
                self.outputsChanged()
            case .leave(let output?):
                self.outputRemoved(output)
            default:
                break
            }
        }
        window.needsDisplayHandler = { [unowned self] in self.wantsRedraw = true }
        pool.onBufferMayBeFree = { [unowned self] in self.redrawIfNeeded() }
        // The first commit carries no buffer: it asks the compositor for a configure.
        surface.commit()
    }

    /// xdg_toplevel.configure's states: an array of 32-bit enum values in host byte order.
    static func decodeStates(_ bytes: [UInt8]) -> [XdgToplevel.State] {
        var states: [XdgToplevel.State] = []
        var i = 0
        while i + 4 <= bytes.count {
            var value: UInt32 = 0
            for k in 0..<4 { value |= UInt32(bytes[i + k]) << (8 * UInt32(k)) }
            states.append(XdgToplevel.State(rawValue: value))
            i += 4
        }
        return states
    }

    // MARK: Scale

    func outputRemoved(_ output: WlOutput) {
        enteredOutputs[ObjectIdentifier(output)] = nil
        outputsChanged()
    }

    /// Re-derives the buffer scale from the outputs the surface is on; a change re-renders
    /// everything at the new scale.
    func outputsChanged() {
        let newScale = enteredOutputs.values.map(scaleOfOutput).max() ?? scale
        guard newScale != scale, newScale >= 1 else { return }
        logger.debug("buffer scale \(newScale)")
        scale = newScale
        geometryChanged()
    }

    /// Asks for the compositor's fractional scale (both globals are needed).
    func enableFractionalScale(manager: WpFractionalScaleManagerV1, viewporter: WpViewporter) {
        let fractional = manager.getFractionalScale(surface: surface)
        fractional.onEvent = { [unowned self] event in
            guard case .preferredScale(let numerator) = event, numerator != self.preferredFraction else { return }
            self.logger.debug("fractional scale \(Double(numerator) / 120)")
            self.preferredFraction = numerator
            self.geometryChanged()
        }
        fractionalScale = fractional
        viewport = viewporter.getViewport(surface: surface)
    }

    private func geometryChanged() {
        dropBuffers()
        // At a higher scale, the size asked for may no longer fit a buffer.
        if isConfigured {
            let bounded = boundedSize(askedSize)
            if bounded != size { resize(to: bounded) }
        }
        window.setNeedsDisplay()
        wantsRedraw = true
        onGeometryChange?()
    }

    // MARK: Window commands (the client-side title bar's buttons and drags)

    func beginMove(seat: WlSeat, serial: UInt32) { toplevel.move(seat: seat, serial: serial) }

    /// The edge or corner a pointer press at `point` would resize from: only on a window with our
    /// own title bar, and not while maximized, fullscreen or tiled (the compositor sizes it then).
    func resizeEdge(at point: Point) -> XdgToplevel.ResizeEdge? {
        guard window.showsTitleBar,
              states.isDisjoint(with: [.maximized, .fullscreen, .tiledLeft, .tiledRight, .tiledTop, .tiledBottom])
        else { return nil }
        return ResizeBorder.edge(at: point, in: window.bounds.size)
    }

    func beginResize(seat: WlSeat, serial: UInt32, edge: XdgToplevel.ResizeEdge) {
        toplevel.resize(seat: seat, serial: serial, edges: edge)
    }

    func toggleMaximized() {
        if states.contains(.maximized) { toplevel.unsetMaximized() } else { toplevel.setMaximized() }
    }

    func minimize() { toplevel.setMinimized() }

    /// The size to return to when the window leaves maximized or fullscreen (the compositor then
    /// sends 0x0, leaving the size to us).
    private var floatingSize = defaultSize

    private func applyConfigure() {
        let wasFloating = !states.contains(.maximized) && !states.contains(.fullscreen)
        if isConfigured, wasFloating { floatingSize = size }
        let fallback = floatingSize
        askedSize = (pendingSize.width > 0 ? Int(pendingSize.width) : fallback.width,
                     pendingSize.height > 0 ? Int(pendingSize.height) : fallback.height)
        let (width, height) = boundedSize(askedSize)
        let first = !isConfigured
        isConfigured = true
        states = pendingStates
        if let mode = pendingDecorationMode, mode != decorationMode || first {
            logger.debug("decorations: \(mode == .serverSide ? "the compositor's" : "our own")")
            decorationMode = mode
        }
        window.showsTitleBar = decorationMode != .serverSide && !states.contains(.fullscreen)
        window.titleBar.isActive = states.contains(.activated)
        window.titleBar.isMaximized = states.contains(.maximized)
        if first || width != size.width || height != size.height { resize(to: (width, height)) }
        onGeometryChange?()
        // A configure must be answered by a commit; after the first one that commit carries a buffer.
        wantsRedraw = true
        if frameCallback == nil || first { redrawIfNeeded(force: true) }
    }

    /// `asked` within what a window buffer may hold at the current scale; says so when it is not.
    private func boundedSize(_ asked: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let bounded = geometry.boundedSize(width: asked.width, height: asked.height)
        if bounded != asked {
            logger.warning("the compositor asked for a \(asked.width)x\(asked.height) window at scale \(geometry.scale): drawn at \(bounded.width)x\(bounded.height), the most a window buffer may hold (\(Limit.rasterPixels) pixels, \(Limit.rasterSide) a side)")
        }
        return bounded
    }

    private func resize(to newSize: (width: Int, height: Int)) {
        logger.debug("window size \(newSize.width)x\(newSize.height)")
        size = newSize
        dropBuffers()
        window.resize(to: Size(width: Double(newSize.width), height: Double(newSize.height)))
        // Every pixel is painted opaque (canvas, title bar): the compositor need not blend the
        // window or paint what lies beneath it.
        let opaque = compositor.createRegion()
        opaque.add(x: 0, y: 0, width: Int32(newSize.width), height: Int32(newSize.height))
        surface.setOpaqueRegion(region: opaque)
        opaque.destroy()
    }

    /// Old buffers have the wrong size or scale.
    private func dropBuffers() {
        pool.reset(pixels: geometry.pixelSize(width: size.width, height: size.height),
                   points: Size(width: Double(size.width), height: Double(size.height)))
    }

    /// Lets frames be painted, the first at once if the compositor has configured the window.
    func show() {
        isHeld = false
        wantsRedraw = true
        redrawIfNeeded(force: true)
    }

    /// Paints and commits if the window changed and the compositor is ready for a new frame.
    func redrawIfNeeded(force: Bool = false, input: Bool = false) {
        // Input is committed at once, even while the last frame's callback is pending: the
        // compositor shows the newest commit at its next repaint, so a touch never waits a frame.
        // Other changes wait for the callback (one frame callback at a time).
        let input = input || inputAwaitsBuffer
        guard isConfigured, !isHeld else { return }
        guard wantsRedraw, frameCallback == nil || force || input else {
            if input, !wantsRedraw { latencyReporter?.inputShowedNothing() }
            return
        }
        if !force, !input, let until = pacing.holdsChange(at: now(), pressed: isPressed(), drawing: !window.liveLines.isEmpty,
                                                          refresh: presentationTimes.delay.refresh) {
            if heldChange == nil {
                heldChange = schedule(until) { [unowned self] in
                    self.heldChange = nil
                    self.redrawIfNeeded()
                }
            }
            return
        }
        // Layout, painting and the commit: `--latency` tells it from the events that led to it.
        let paintStarted = latencyReporter != nil ? tt_thread_cpu_now() : 0
        defer { latencyReporter?.notePainting(tt_thread_cpu_now() - paintStarted) }
        var dirty = window.takeDirtyRegion()
        if dirty.isEmpty, !window.liveLinesChanged {
            guard force else {
                wantsRedraw = false
                if input { latencyReporter?.inputShowedNothing() }
                return
            }
            dirty.add(fullRect)
        }
        guard let buffer = pool.freeBuffer(input: input, forced: force) else {
            // Every buffer is on screen; a release will call us again.
            window.frameNotPainted(dirty)
            if input {
                // The release (Weston and Sway send it as they take our next commit, mutter once
                // it has copied the pixels) paints this at once, not at the next frame callback.
                inputAwaitsBuffer = true
                logger.debug("input waits for a buffer: the compositor holds all \(pool.count)")
            }
            return
        }
        inputAwaitsBuffer = false
        wantsRedraw = false
        logLiveLines()
        let damage = window.update(buffer.image, stale: buffer.stale, dirty: dirty, copyingFrom: pool.newest(besides: buffer)?.image,
                                   others: pool.images, scale: geometry.scale)
        pool.committing(buffer, dirty: dirty)
        commit(buffer, damage: damage)
        if input {
            pacing.committedInput(at: now())
            // What waited went into this frame.
            heldChange?.cancel()
            heldChange = nil
        }
        pool.makeSecondAhead()
    }

    /// Attaches `buffer`, reports `damage` (buffer pixels), asks for a frame callback if none is
    /// pending, and commits.
    private func commit(_ buffer: ShmBuffer, damage: [Rect]) {
        let geometry = self.geometry
        // Fractional: the buffer stays at scale 1 and the viewport shows it at the logical size.
        let bufferScale: Int32 = geometry.isFractional ? 1 : scale
        if surface.version >= 3, bufferScaleSent != bufferScale {
            surface.setBufferScale(scale: bufferScale)
            bufferScaleSent = bufferScale
        }
        if let viewport, geometry.isFractional, viewportSize.map({ $0 != size }) ?? true {
            viewport.setDestination(width: Int32(size.width), height: Int32(size.height))
            viewportSize = size
        }
        surface.attach(buffer: buffer.wlBuffer, x: 0, y: 0)
        // The boxes the frame's change was painted through (not what was copied), a few, so
        // neither the messages nor the compositor's work grow with it.
        for rect in damage {
            surface.damageBuffer(x: Int32(rect.minX), y: Int32(rect.minY), width: Int32(rect.width), height: Int32(rect.height))
        }
        if frameCallback == nil {
            let callback = surface.frame()
            callback.onEvent = { [unowned self] event in
                if case .done = event {
                    self.frameCallback = nil
                    let now = tt_monotonic_now()
                    self.presentationTimes.frameCallbackDone(at: now)
                    self.latencyReporter?.frameCallbackDone(at: now)
                    self.redrawIfNeeded()
                }
            }
            frameCallback = callback
        }
        if let latencyReporter {
            latencyReporter.willCommit(surface, presentation: presentationTimes)
        } else {
            presentationTimes.willCommit(surface, at: tt_monotonic_now())
        }
        surface.commit()
        framesPainted += 1
    }

    /// Logs when live lines go from their view to the window's painter and back.
    private func logLiveLines() {
        guard window.liveLinesChanged, window.liveLines.isEmpty == liveLinesDrawnByWindow else { return }
        liveLinesDrawnByWindow = !window.liveLines.isEmpty
        logger.debug("live lines \(liveLinesDrawnByWindow ? "drawn by the window, as rows of pixels" : "drawn by their view again")")
    }

    /// Whether the last frame had live lines the window drew (for the log).
    private var liveLinesDrawnByWindow = false

    /// Logs input-to-commit and input-to-presentation per frame (`--latency`).
    var latencyReporter: LatencyReporter?
    /// Feedback on every commit: when frames are shown (predicted touches reach that moment).
    let presentationTimes = PresentationTimes()
    /// A frame that answers input found every buffer held: the next release commits it.
    private var inputAwaitsBuffer = false

    private var bufferScaleSent: Int32 = 1

    private var fullRect: Rect { Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)) }
}
