// The app's main window on Wayland: wl_surface + xdg_surface + xdg_toplevel, its buffers and frame
// pacing. Paints TouchKit's Window into wl_shm buffers only when something changed, at most once per
// frame callback, never into a buffer the compositor still holds, and damages only what changed.
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
    private let shm: WlShm
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
    private var buffers: [ShmBuffer] = []
    private var frameCallback: WlCallback?
    /// Set when the window asked for a repaint; the loop draws once per batch of events.
    private(set) var wantsRedraw = false

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
    /// Steady drawing alternates two buffers. Weston, Sway and mutter give the replaced buffer back
    /// as they take the next commit, so a third is rarely needed; KWin keeps every replaced buffer
    /// until its next repaint, so input faster than its refresh holds three. Spares are made only
    /// when the compositor holds all the others and the frame answers input (other frames wait
    /// for a release).
    static let maxBuffers = 4
    /// Spares are let go after this many seconds unused, so one burst does not keep window-sized
    /// buffers for the rest of the session.
    static let spareBufferLifetime = 2.0

    /// The host's clock (seconds), for the buffers' ages.
    var now: () -> Double = { 0 }
    /// Sends wl_display.sync: its `done` follows every event the compositor sent while taking
    /// our requests before it.
    var sync: () -> WlCallback? = { nil }
    /// A sync sent while every buffer was held, not yet answered.
    private var releaseCheck: WlCallback?
    /// The newest commit a sync's `done` has followed: the compositor had taken it by then, and
    /// sent the release of the buffer it replaced, if it was going to.
    private var commitTakenAt = -1.0

    /// Whether buffers beyond the two in steady use exist (the host then calls
    /// ``releaseSpareBuffers()`` once they may have aged).
    var hasSpareBuffers: Bool { buffers.count > 2 }

    /// Destroys free buffers beyond two that have not been committed for
    /// ``spareBufferLifetime`` seconds, oldest first.
    func releaseSpareBuffers() {
        let cutoff = now() - Self.spareBufferLifetime
        while buffers.count > 2,
              let oldest = buffers.indices.filter({ !buffers[$0].isBusy && buffers[$0].lastCommitted <= cutoff })
                  .min(by: { buffers[$0].lastCommitted < buffers[$1].lastCommitted }) {
            buffers.remove(at: oldest)
            logger.debug("released a spare window buffer (\(buffers.count) left)")
        }
    }

    init(compositor: WlCompositor, wmBase: XdgWmBase, shm: WlShm, decorationManager: ZxdgDecorationManagerV1?,
         window: DecoratedWindow, title: String, appID: String, logger: Logger) {
        self.shm = shm
        self.window = window
        self.logger = logger
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
        buffers.removeAll()
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
        // Old buffers have the wrong size; a busy one dies when its Swift object goes (the
        // compositor keeps what it has shown until our next commit).
        buffers.removeAll()
        window.resize(to: Size(width: Double(newSize.width), height: Double(newSize.height)))
        // Every pixel is painted opaque (canvas, title bar): the compositor need not blend the
        // window or paint what lies beneath it.
        let opaque = compositor.createRegion()
        opaque.add(x: 0, y: 0, width: Int32(newSize.width), height: Int32(newSize.height))
        surface.setOpaqueRegion(region: opaque)
        opaque.destroy()
    }

    /// Paints and commits if the window changed and the compositor is ready for a new frame.
    func redrawIfNeeded(force: Bool = false, input: Bool = false) {
        // Input is committed at once, even while the last frame's callback is pending: the
        // compositor shows the newest commit at its next repaint, so a touch never waits a frame.
        // Other changes wait for the callback (one frame callback at a time).
        let input = input || inputAwaitsBuffer
        guard isConfigured, wantsRedraw, frameCallback == nil || force || input else { return }
        var dirty = window.takeDirtyRegion()
        if dirty.isEmpty, !window.sketchesChanged {
            guard force else {
                wantsRedraw = false
                return
            }
            dirty.add(fullRect)
        }
        // A spare buffer only for a frame that answers input (or a configure): anything else can
        // wait for the compositor to release one, and a spare is as big as the window.
        guard let buffer = freeBuffer(answeringInput: input || force) else {
            // Every buffer is on screen; a release will call us again. Keep the damage.
            for rect in dirty.rects { window.setNeedsDisplay(inWindowRect: rect) }
            if window.sketchesChanged { window.sketchFrameNotPainted() }
            if input {
                // The release (Weston and Sway send it as they take our next commit, mutter once
                // it has copied the pixels) paints this at once, not at the next frame callback.
                inputAwaitsBuffer = true
                logger.debug("input waits for a buffer: the compositor holds all \(buffers.count)")
            }
            return
        }
        inputAwaitsBuffer = false
        wantsRedraw = false
        let geometry = self.geometry
        // The buffer shown last holds every earlier change: what this one lacks is copied from it.
        let newest = buffers.filter { $0 !== buffer && $0.lastCommitted > 0 && $0.stale.isEmpty }
            .max { $0.lastCommitted < $1.lastCommitted }
        if window.sketchesChanged, window.sketches.isEmpty != !sketching {
            sketching = !window.sketches.isEmpty
            logger.debug("live lines \(sketching ? "sketched by the window, as rows of pixels" : "drawn by their view again")")
        }
        let painted = window.update(buffer.image, stale: buffer.stale, dirty: dirty, copyingFrom: newest?.image,
                                    others: buffers.map(\.image), scale: geometry.scale)
        buffer.stale.removeAll()
        for other in buffers where other !== buffer { other.stale.add(dirty) }

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
        // damage_buffer is in buffer pixels: the boxes the frame's change was painted through (not
        // what was copied), a few, so neither the messages nor the compositor's work grow with it.
        for rect in painted {
            surface.damageBuffer(x: Int32(rect.minX), y: Int32(rect.minY), width: Int32(rect.width), height: Int32(rect.height))
        }
        if frameCallback == nil {
            let callback = surface.frame()
            callback.onEvent = { [unowned self] event in
                if case .done = event {
                    self.frameCallback = nil
                    self.redrawIfNeeded()
                }
            }
            frameCallback = callback
        }
        buffer.isBusy = true
        buffer.lastCommitted = now()
        latencyReporter?.willCommit(surface)
        surface.commit()
        framesPainted += 1
        // The second buffer is made now, before any touch waits for it. Made by the first frame
        // with input, its copy of the first (a window's worth of new shared memory, each page
        // faulted in as it is written) took about 8 ms of that frame at 1920x1080.
        if buffers.count == 1, makeBuffer() != nil {
            logger.debug("a second window buffer, made ahead of input")
        }
    }

    /// Whether the last frame had sketches (for the log).
    private var sketching = false

    /// Logs input-to-commit and input-to-presentation per frame (`--latency`).
    var latencyReporter: LatencyReporter?
    /// A frame that answers input found every buffer held: the next release commits it.
    private var inputAwaitsBuffer = false

    private var bufferScaleSent: Int32 = 1

    private var fullRect: Rect { Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)) }

    private func freeBuffer(answeringInput: Bool) -> ShmBuffer? {
        // The free buffer shown most recently lacks the least: under a compositor that lets go
        // of a buffer once it has copied it (mutter), that is the one just shown, which needs
        // nothing copied; Weston keeps the shown one until the next commit.
        if let free = buffers.filter({ !$0.isBusy }).max(by: { $0.lastCommitted < $1.lastCommitted }) { return free }
        let newestCommit = buffers.map(\.lastCommitted).max() ?? 0
        switch Self.whenEveryBufferIsHeld(count: buffers.count, answeringInput: answeringInput,
                                          compositorTookNewestCommit: commitTakenAt >= newestCommit) {
        case .waitForRelease:
            return nil
        case .askCompositor:
            // Weston, Sway and mutter send the release of the buffer our last commit replaced as
            // they take that commit (a busy one takes it late, but could not have shown a newer
            // one sooner): waiting costs a round trip, where a spare costs its frame about 7 ms of
            // page faults at 1920x1080. KWin keeps replaced buffers until its next repaint; its
            // answer comes with none released, and the spare made then stays while input does.
            guard releaseCheck == nil, let callback = sync() else { return nil }
            releaseCheck = callback
            callback.onEvent = { [unowned self] event in
                guard case .done = event else { return }
                self.releaseCheck = nil
                self.commitTakenAt = newestCommit
                self.redrawIfNeeded()
            }
            return nil
        case .makeBuffer:
            let buffer = makeBuffer()
            if buffers.count > 2 { logger.debug("a spare window buffer for a frame that answers input") }
            return buffer
        }
    }

    /// What a frame does when the compositor holds every buffer.
    enum HeldBufferChoice: Equatable {
        /// Make one: the second of the steady pair, or a spare.
        case makeBuffer
        /// Ask whether the compositor has taken our newest commit (wl_display.sync), and wait for
        /// the answer or a release.
        case askCompositor
        /// Wait for a release, however long (frames without input, or no more spares).
        case waitForRelease
    }

    /// Decides for a frame that finds all `count` buffers held; `compositorTookNewestCommit`: a
    /// sync sent after our newest commit has been answered.
    static func whenEveryBufferIsHeld(count: Int, answeringInput: Bool, compositorTookNewestCommit: Bool) -> HeldBufferChoice {
        if count < 2 { return .makeBuffer }
        guard answeringInput, count < maxBuffers else { return .waitForRelease }
        return compositorTookNewestCommit ? .makeBuffer : .askCompositor
    }

    /// A new buffer, a copy of the newest.
    private func makeBuffer() -> ShmBuffer? {
        do {
            let pixels = geometry.pixelSize(width: size.width, height: size.height)
            let buffer = try ShmBuffer(shm: shm, width: pixels.width, height: pixels.height,
                                       logicalSize: Size(width: Double(size.width), height: Double(size.height)))
            buffer.onRelease = { [unowned self] in
                if self.wantsRedraw { self.redrawIfNeeded() }
            }
            if let newest = buffers.max(by: { $0.lastCommitted < $1.lastCommitted }) { buffer.copy(from: newest) }
            buffers.append(buffer)
            return buffer
        } catch {
            logger.error("cannot allocate a window buffer: \(error)")
            return nil
        }
    }
}
