// The app on a Wayland compositor: connects, binds the globals it needs, shows one toplevel window
// and runs the event loop. Above this file nothing knows about Wayland.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import InputReplay
import Logging
import TouchKit
import Wayland

public final class WaylandHost {
    public let application: Application
    public let window: Window
    /// Key presses for the app (after the host's own: none yet).
    public var onKeyPress: ((KeyPress) -> Void)?
    /// A live replay's recorded paste (`--replay`): the app pastes it as if it had just arrived.
    public var onReplayedPaste: ((PasteboardReadResult) -> Void)?

    /// Records what a paste received, in the turn it arrived (`--record`; the app tells the host).
    public func recordPaste(_ result: PasteboardReadResult) { record(.paste(result)) }

    /// Told of every call into the input adapter, each turn of the loop and firing of timers,
    /// keys, the edit menu's choices and the window's geometry, in order (`--record`).
    public var recorder: ((RecordingEntry) -> Void)? {
        didSet {
            input.recorder = recorder.map { _ in { [unowned self] in self.record(.input($0)) } }
            recordGeometry()
        }
    }
    /// A turn's start and its batch are written only once something happens in it: most turns
    /// (a frame callback, a release) read no input.
    private var unwrittenTurn: Double?
    private var unwrittenBatch = false

    private func record(_ entry: RecordingEntry) {
        guard let recorder else { return }
        switch entry {
        case .turn(let t):
            unwrittenTurn = t
            unwrittenBatch = false
            return
        case .input(.beginBatch):
            unwrittenBatch = true
            return
        case .input(.endBatch) where unwrittenBatch:
            unwrittenBatch = false
            unwrittenTurn = nil
            return
        case .timers:
            break
        default:
            if let t = unwrittenTurn { recorder(.turn(t)) }
            if unwrittenBatch { recorder(.input(.beginBatch)) }
            unwrittenTurn = nil
            unwrittenBatch = false
        }
        recorder(entry)
    }
    private var recordedGeometry: RecordingEntry?
    /// Turns of a live replay (`--replay`) not yet played, and how fast.
    private var replayTurns: ArraySlice<(offset: Double, entries: [RecordingEntry])> = []
    private var replayStart = 0.0
    private var replaySpeed = 1.0
    /// A replayed turn delivered input: it is committed at once, like the compositor's.
    private var replayedInput = false

    private let connection: Connection
    private let clock: EventLoopClock
    private let timer: TimerFD
    private let logger: Logger
    private let registry: WlRegistry
    private var compositor: WlCompositor?
    private var shm: WlShm?
    private var wmBase: XdgWmBase?
    private var decorationManager: ZxdgDecorationManagerV1?
    private var tabletManager: ZwpTabletManagerV2?
    private var fractionalScaleManager: WpFractionalScaleManagerV1?
    private var viewporter: WpViewporter?
    private var dataDeviceManager: WlDataDeviceManager?
    /// The system clipboard (P1), once the compositor offers wl_data_device_manager.
    private var clipboard: Clipboard?
    /// The clipboard's pipes, polled by the loop beside the display.
    private let watches = FDWatches()
    private var seats: [UInt32: Seat] = [:]
    private var outputs: [UInt32: Output] = [:]
    private var pendingSeats: [(name: UInt32, version: UInt32)] = []
    private let keymap: Keymap
    private var toplevel: ToplevelWindow!
    private var popupMenu: PopupMenu!
    private let input: TouchInput
    private var exitReason: ExitReason?
    /// Armed while the window has a buffer beyond the two in steady use.
    private var spareBufferTimer: TimerToken?
    private let signalFD: Int32

    /// Set with `latencyLogger`: logs input-to-commit and input-to-presentation per frame.
    private let latencyReporter: LatencyReporter?

    /// Connects to `displayName` (nil: `$WAYLAND_DISPLAY`) and maps a window. With `latencyLogger`,
    /// every frame that carries input is logged there with its latency (`--latency`).
    public init(title: String, appID: String, displayName: String? = nil, logger: Logger,
                latencyLogger: Logger? = nil) throws {
        latencyReporter = latencyLogger.map { LatencyReporter(logger: $0) }
        self.logger = logger
        // The clipboard writes into pipes other programs hold: one that closes its end early must
        // give the write an EPIPE error, not kill the app (P7).
        signal(SIGPIPE, SIG_IGN)
        signalFD = tt_signalfd_for_termination()
        guard signalFD >= 0 else { throw HostError("signalfd: \(String(cString: strerror(errno)))") }
        // Compositor event times are CLOCK_MONOTONIC on Linux; TouchKit's clock uses the same base.
        clock = EventLoopClock(now: { tt_monotonic_now() })
        timer = try TimerFD()
        do {
            connection = try Connection(name: displayName)
        } catch {
            throw HostError("cannot connect to a Wayland compositor (WAYLAND_DISPLAY=\(displayName ?? "unset")): \(error)")
        }
        application = Application(clock: clock)
        var commands = WindowCommands(beginMove: {}, toggleMaximized: {}, minimize: {}, close: {})
        let decorated = DecoratedWindow(frame: Rect(x: 0, y: 0, width: 1024, height: 768), title: title,
                                        commands: WindowCommands(beginMove: { commands.beginMove() },
                                                                 toggleMaximized: { commands.toggleMaximized() },
                                                                 minimize: { commands.minimize() },
                                                                 close: { commands.close() }))
        window = decorated
        application.addWindow(window)
        input = TouchInput(application: application, window: window)
        keymap = Keymap(logger: logger)
        registry = connection.display.getRegistry()
        registry.onEvent = { [unowned self] event in self.handle(event) }
        try connection.roundtrip()

        guard let compositor, let shm, let wmBase else {
            throw HostError("the compositor lacks wl_compositor, wl_shm or xdg_wm_base")
        }
        wmBase.onEvent = { [unowned wmBase] event in
            if case .ping(let serial) = event { wmBase.pong(serial: serial) }
        }
        toplevel = ToplevelWindow(compositor: compositor, wmBase: wmBase, shm: shm,
                                  decorationManager: decorationManager, window: decorated,
                                  title: title, appID: appID, logger: logger)
        toplevel.latencyReporter = latencyReporter
        toplevel.now = { [unowned self] in self.clock.now }
        toplevel.sync = { [unowned self] in self.connection.display.sync() }
        if let fractionalScaleManager, let viewporter {
            toplevel.enableFractionalScale(manager: fractionalScaleManager, viewporter: viewporter)
        }
        toplevel.scaleOfOutput = { [unowned self] output in
            self.outputs.values.first { $0.output === output }?.scale ?? 1
        }
        toplevel.onClose = { [unowned self] in self.stop(.closed) }
        toplevel.onGeometryChange = { [unowned self] in self.recordGeometry() }
        commands = WindowCommands(
            beginMove: { [unowned self] in
                guard let seat = self.lastInputSeat else { return }
                self.toplevel.beginMove(seat: seat.seat, serial: seat.lastSerial)
            },
            toggleMaximized: { [unowned self] in self.toplevel.toggleMaximized() },
            minimize: { [unowned self] in self.toplevel.minimize() },
            close: { [unowned self] in self.stop(.closed) })
        popupMenu = PopupMenu(environment: PopupMenu.Environment(
            compositor: compositor, wmBase: wmBase, shm: shm,
            parent: { [unowned self] in self.toplevel.xdgSurface },
            geometry: { [unowned self] in self.toplevel.geometry },
            fractionalScaleManager: viewporter == nil ? nil : fractionalScaleManager,
            viewporter: fractionalScaleManager == nil ? nil : viewporter,
            grabSerial: { [unowned self] in
                guard let seat = self.lastInputSeat, let serial = seat.lastPressSerial else { return nil }
                return (seat.seat, serial)
            }), logger: logger)
        let menuController = application.menuController
        menuController.presenter = popupMenu
        popupMenu.onChoose = { [unowned self, unowned menuController] item in
            self.record(.menuChoice(item.action.name))
            menuController.choose(item)
        }
        popupMenu.onDismiss = { [unowned self, unowned menuController] in
            self.record(.menuDismissed)
            menuController.menuWasDismissed()
        }
        keymap.onKeyPress = { [unowned self] key in
            self.record(.key(keysym: key.keysym, modifiers: key.modifiers.rawValue, name: key.name))
            self.onKeyPress?(key)
        }
        makeClipboard()
        for seat in pendingSeats { bindSeat(name: seat.name, version: seat.version) }
        pendingSeats.removeAll()
        try connection.roundtrip()
    }

    deinit { close(signalFD) }

    private func handle(_ event: WlRegistry.Event) {
        switch event {
        case .global(let name, let interface, let version):
            switch interface {
            case WlCompositor.interfaceName:
                compositor = registry.bind(name: name, as: WlCompositor.self, version: min(version, 4))
            case WlShm.interfaceName:
                shm = registry.bind(name: name, as: WlShm.self, version: 1)
            case XdgWmBase.interfaceName:
                wmBase = registry.bind(name: name, as: XdgWmBase.self, version: min(version, XdgWmBase.maxVersion))
            case WlOutput.interfaceName:
                let output = Output(registry.bind(name: name, as: WlOutput.self, version: min(version, 3)))
                output.onChange = { [unowned self] in self.toplevel?.outputsChanged() }
                outputs[name] = output
            case WpFractionalScaleManagerV1.interfaceName:
                fractionalScaleManager = registry.bind(name: name, as: WpFractionalScaleManagerV1.self, version: 1)
            case WpViewporter.interfaceName:
                viewporter = registry.bind(name: name, as: WpViewporter.self, version: 1)
            case ZwpTabletManagerV2.interfaceName:
                let manager = registry.bind(name: name, as: ZwpTabletManagerV2.self, version: 1)
                tabletManager = manager
                for seat in seats.values { seat.bindTablets(manager) }
            case WlDataDeviceManager.interfaceName:
                dataDeviceManager = registry.bind(name: name, as: WlDataDeviceManager.self, version: min(version, 3))
                if toplevel != nil { makeClipboard() }
            case ZxdgDecorationManagerV1.interfaceName:
                decorationManager = registry.bind(name: name, as: ZxdgDecorationManagerV1.self, version: 1)
            case WpPresentation.interfaceName:
                latencyReporter?.bind(registry, name: name)
            case WlSeat.interfaceName:
                if toplevel == nil {
                    pendingSeats.append((name, version))
                } else {
                    bindSeat(name: name, version: version)
                }
            default:
                break
            }
        case .globalRemove(let name):
            if let seat = seats.removeValue(forKey: name) { clipboard?.removeSeat(seat.seat) }
            if let output = outputs.removeValue(forKey: name) { toplevel?.outputRemoved(output.output) }
        }
    }

    /// The seat that delivered the latest input: its serial authorises moves and popup grabs.
    private var lastInputSeat: Seat? { seats.values.max { $0.lastSerialTime < $1.lastSerialTime } }

    private func bindSeat(name: UInt32, version: UInt32) {
        let wlSeat = registry.bind(name: name, as: WlSeat.self, version: min(version, 7))
        let seat = Seat(seat: wlSeat, input: input, windowSurface: toplevel.surface, keymap: keymap, logger: logger)
        if let compositor, let shm { seat.cursorTheme = CursorTheme(compositor: compositor, shm: shm) }
        seat.cursorScale = { [unowned self] in self.toplevel.scale }
        seat.cursorShape = { [unowned self] point in self.cursorShape(at: point) }
        seat.resizeEdge = { [unowned self] point in self.toplevel.resizeEdge(at: point) }
        seat.beginResize = { [unowned self] seat, serial, edge in
            self.toplevel.beginResize(seat: seat, serial: serial, edge: edge)
        }
        if let tabletManager { seat.bindTablets(tabletManager) }
        seat.latencyReporter = latencyReporter
        seat.popup = popupMenu
        seats[name] = seat
        clipboard?.addSeat(wlSeat)
    }

    /// The clipboard on the compositor's data device manager, for every seat (P1).
    private func makeClipboard() {
        guard clipboard == nil, let dataDeviceManager else { return }
        let clipboard = Clipboard(manager: dataDeviceManager, watches: watches, clock: clock, logger: logger) {
            [unowned self] in
            guard let seat = self.lastInputSeat, let serial = seat.lastUserSerial else { return nil }
            return (seat.seat, serial)
        }
        for seat in seats.values { clipboard.addSeat(seat.seat) }
        self.clipboard = clipboard
        application.pasteboard = clipboard
    }

    /// A resize arrow over the window's border, the arrow over its chrome (title bar, controls), a
    /// crosshair over the canvas.
    private func cursorShape(at point: Point) -> CursorTheme.Shape {
        if let edge = toplevel.resizeEdge(at: point) { return .resize(edge) }
        guard let view = window.hitTest(point, with: nil) else { return .arrow }
        var current: View? = view
        while let v = current {
            if v is TitleBarView || v is Control { return .arrow }
            current = v.superview
        }
        return .crosshair
    }

    /// The window's geometry as a recording gives it, when it changed since last recorded.
    private func recordGeometry() {
        guard recorder != nil, let toplevel, toplevel.isConfigured else { return }
        let entry = RecordingEntry.window(width: Double(toplevel.size.width), height: Double(toplevel.size.height),
                                          scale: toplevel.geometry.scale, titleBar: toplevel.window.showsTitleBar)
        guard entry != recordedGeometry else { return }
        recordedGeometry = entry
        record(entry)
    }

    /// Plays `entries` (a recording, or a device trace read onto this window) into the window at
    /// their original pace divided by `speed` (0: one turn of the recording per turn of the loop,
    /// as fast as they go), through the same input adapter as the compositor's input. The
    /// compositor's own input still goes through too.
    public func replay(_ entries: [RecordingEntry], speed: Double) {
        replayTurns = ArraySlice(Replayer.turns(entries))
        replayStart = clock.now
        replaySpeed = speed
        scheduleNextReplayTurn()
    }

    private func scheduleNextReplayTurn() {
        guard let next = replayTurns.first else { return }
        let at = replaySpeed > 0 ? replayStart + next.offset / replaySpeed : clock.now
        _ = clock.schedule(at: at) { [unowned self] in
            guard let turn = self.replayTurns.popFirst() else { return }
            // A replay neither reads nor takes the live clipboard: its Copy and Paste do nothing,
            // and a recorded paste brings what the recorded app received.
            let pasteboard = self.application.pasteboard
            self.application.pasteboard = nil
            defer { self.application.pasteboard = pasteboard }
            for entry in turn.entries {
                switch entry {
                case .input(let event): self.input.apply(event)
                case let .key(keysym, modifiers, name):
                    self.onKeyPress?(KeyPress(keysym: keysym, modifiers: KeyPress.Modifiers(rawValue: modifiers), name: name))
                case .menuChoice(let action):
                    let menu = self.application.menuController
                    if let item = menu.menuItems.first(where: { $0.action.name == action }) { menu.choose(item) }
                case .menuDismissed: self.application.menuController.menuWasDismissed()
                case .paste(let result): self.onReplayedPaste?(result)
                case .turn, .timers, .window, .setting: break  // the live app's own clock, compositor and preferences
                }
            }
            self.replayedInput = true
            self.scheduleNextReplayTurn()
        }
    }

    /// Ends the loop after the current batch of events.
    public func stop(_ reason: ExitReason = .closed) {
        if exitReason == nil { exitReason = reason }
    }

    /// Runs until the window is closed, a termination signal arrives or the compositor goes away.
    public func run() -> ExitReason {
        while exitReason == nil {
            do {
                try iterate()
            } catch {
                stop(.compositorLost(connectionFailure(error)))
            }
        }
        return exitReason!
    }

    private func connectionFailure(_ error: Error) -> String {
        if let protocolError = connection.protocolError { return "\(protocolError)" }
        return "\(error)"
    }

    /// One turn of the loop: wait for the socket, timers or signals; read; dispatch; paint.
    private func iterate() throws {
        while !connection.prepareRead() { try connection.dispatchPending() }
        let wantWrite: Bool
        do {
            wantWrite = try !connection.flush()
        } catch {
            connection.cancelRead()
            throw error
        }
        timer.arm(clock.nextDeadline)
        let watched = watches.pollFDs()
        var fds = [
            pollfd(fd: connection.fd, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
        ] + watched.map(\.fd)
        let ready = poll(&fds, nfds_t(fds.count), -1)
        if ready < 0 {
            connection.cancelRead()
            if errno == EINTR { return }
            throw HostError("poll: \(String(cString: strerror(errno)))")
        }
        // Everything the compositor has sent is read and dispatched before painting: however fast
        // input comes, a turn paints once, and motion frames of one touch within the turn reach the
        // views as one event (TouchInput's batch).
        record(.turn(clock.now))
        let turnStarted = latencyReporter != nil ? tt_thread_cpu_now() : 0
        input.beginBatch()
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            try connection.readEvents()
            try connection.dispatchPending()
            try readEverythingWaiting()
        } else {
            connection.cancelRead()
            try connection.dispatchPending()
        }
        for seat in seats.values { seat.endOfEventBatch() }
        input.endBatch()
        let eventsDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        if fds[1].revents != 0 {
            timer.drain()
            // Written only when a timer is due: the timerfd also wakes the loop for none.
            let now = clock.now
            if let due = clock.nextDeadline, due <= now { record(.timers(now)) }
            clock.fireDueTimers(at: now)
        }
        // The clipboard's pipes, after the events that may have started or ended transfers.
        watches.dispatch(zip(watched, fds.dropFirst(3)).map { ($0.token, $1) })
        if fds[2].revents != 0 {
            let signal = tt_signalfd_read(signalFD)
            if signal != 0 {
                logger.info("signal \(signal): quitting")
                stop(.signal(signal))
            }
        }
        // Every seat's flag is taken (no short-circuit), so none carries over to the next turn.
        let input = seats.values.map { $0.takeReceivedInput() }.contains(true) || replayedInput
        replayedInput = false
        let timersDone = latencyReporter != nil ? tt_thread_cpu_now() : 0
        toplevel.redrawIfNeeded(input: input)
        if let latencyReporter {
            latencyReporter.noteTurn(dispatch: eventsDone - turnStarted, timers: timersDone - eventsDone,
                                     paint: tt_thread_cpu_now() - timersDone)
        }
        if toplevel.hasSpareBuffers, spareBufferTimer == nil {
            spareBufferTimer = clock.schedule(at: clock.now + ToplevelWindow.spareBufferLifetime + 0.05) { [unowned self] in
                self.spareBufferTimer = nil
                self.toplevel.releaseSpareBuffers()
            }
        }
        // A full socket is retried by the next turn, which polls for POLLOUT.
        _ = try connection.flush()
    }

    /// Reads and dispatches until the socket has nothing more, so the compositor's buffer for us
    /// never fills (libwayland disconnects a client it cannot write to). Bounded, so a compositor
    /// that never stops sending still lets the turn paint.
    private func readEverythingWaiting() throws {
        for _ in 0..<Self.readsPerTurn {
            while !connection.prepareRead() { try connection.dispatchPending() }
            var fd = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 else {
                connection.cancelRead()
                return
            }
            try connection.readEvents()
            try connection.dispatchPending()
        }
    }

    /// Socket reads per turn beyond the first: each takes up to 4 KiB of events (libwayland's
    /// buffer), so a turn takes a few hundred kilobytes at most before it paints.
    static let readsPerTurn = 64
}
