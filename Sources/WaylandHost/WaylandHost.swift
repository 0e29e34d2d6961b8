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

/// A failure of the host, with a one-line message for the user.
public struct HostError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public final class WaylandHost {
    public let application: Application
    public let window: Window
    /// Key presses for the app (after the host's own: none yet).
    public var onKeyPress: ((KeyPress) -> Void)?
    /// A live replay's recorded paste (`--replay`): the app pastes it as if it had just arrived.
    public var onReplayedPaste: ((PasteboardReadResult) -> Void)?

    /// Told of every call into the input adapter, each turn of the loop and firing of timers,
    /// keys, the edit menu's choices and the window's geometry, in order (`--record`).
    public var recorder: ((RecordingEntry) -> Void)? {
        didSet {
            recording = recorder.map(InputRecording.init)
            input.recorder = recording.map { recording in { recording.record(.input($0)) } }
            recordGeometry()
        }
    }
    private var recording: InputRecording?
    private var replay: LiveReplay?

    private let logger: Logger
    private let connection: Connection
    private let loop: EventLoop
    private let registry: WlRegistry
    private let globals: WindowGlobals
    private let input: TouchInput
    private let keymap: Keymap
    private let toplevel: ToplevelWindow
    private let popupMenu: PopupMenu
    private let seats = SeatList()
    private var outputs: [UInt32: Output] = [:]
    private var tabletManager: ZwpTabletManagerV2?
    private var pointerGestures: ZwpPointerGesturesV1?
    private var dataDeviceManager: WlDataDeviceManager?
    /// The system clipboard (P1), once the compositor offers wl_data_device_manager.
    private var clipboard: Clipboard?
    /// Armed while the window has a buffer beyond the two in steady use.
    private var spareBufferTimer: TimerToken?
    /// Set with `latencyLogger`: logs input-to-commit and input-to-presentation per frame.
    private let latencyReporter: LatencyReporter?

    /// Whether touch events carry predicted touches (``Event/predictedTouches(for:)``); on by
    /// default.
    public var predictsTouches: Bool {
        get { input.prediction.isEnabled }
        set { input.prediction.isEnabled = newValue }
    }

    /// Connects to `displayName` (nil: `$WAYLAND_DISPLAY`) and maps a window. With `latencyLogger`,
    /// every frame that carries input is logged there with its latency (`--latency`).
    public init(title: String, appID: String, displayName: String? = nil, logger: Logger,
                latencyLogger: Logger? = nil) throws {
        self.logger = logger
        latencyReporter = latencyLogger.map { LatencyReporter(logger: $0) }
        connection = try Self.connect(to: displayName)
        loop = try EventLoop(connection: connection, logger: logger)
        registry = connection.display.getRegistry()
        let announced = try Announcement.first(of: registry, on: connection)
        globals = try WindowGlobals(binding: announced, from: registry)
        application = Application(clock: loop.clock)
        let decorated = DecoratedWindow(frame: Rect(x: 0, y: 0, width: 1024, height: 768), title: title)
        window = decorated
        application.addWindow(window)
        input = TouchInput(application: application, window: window)
        keymap = Keymap(logger: logger)
        toplevel = ToplevelWindow(compositor: globals.compositor, wmBase: globals.wmBase, shm: globals.shm,
                                  decorationManager: globals.decorationManager, window: decorated,
                                  title: title, appID: appID, logger: logger)
        popupMenu = Self.makePopupMenu(globals, toplevel: toplevel, seats: seats, window: window, logger: logger)
        // Every part exists: each is told what it reports to.
        wireLoop()
        wireToplevel()
        wireMenu()
        wireKeys()
        registry.onEvent = { [unowned self] event in self.handle(event) }
        for global in announced { bind(global) }
        try connection.roundtrip()
    }

    // MARK: Start-up

    private static func connect(to displayName: String?) throws -> Connection {
        do {
            return try Connection(name: displayName)
        } catch {
            throw HostError("cannot connect to a Wayland compositor (WAYLAND_DISPLAY=\(displayName ?? "unset")): \(error)")
        }
    }

    /// The edit menu's popup, over the toplevel, grabbed with the serial of the latest press.
    private static func makePopupMenu(_ globals: WindowGlobals, toplevel: ToplevelWindow, seats: SeatList,
                                      window: Window, logger: Logger) -> PopupMenu {
        let scaling = globals.fractionalScaleManager != nil && globals.viewporter != nil
        return PopupMenu(environment: PopupMenu.Environment(
            compositor: globals.compositor, wmBase: globals.wmBase, shm: globals.shm,
            parent: { [unowned toplevel] in toplevel.xdgSurface },
            geometry: { [unowned toplevel] in toplevel.geometry },
            fractionalScaleManager: scaling ? globals.fractionalScaleManager : nil,
            viewporter: scaling ? globals.viewporter : nil,
            grabSerial: { [unowned seats] in
                guard let seat = seats.lastInput, let serial = seat.lastPressSerial else { return nil }
                return (seat.seat, serial)
            }, appearance: { [unowned window] in window.appearance }), logger: logger)
    }

    private func wireLoop() {
        loop.turns = self
        loop.latencyReporter = latencyReporter
    }

    /// The toplevel's clock, scale, close and geometry, and the title bar's buttons.
    private func wireToplevel() {
        toplevel.latencyReporter = latencyReporter
        toplevel.now = { [unowned self] in self.loop.clock.now }
        toplevel.schedule = { [unowned self] time, action in self.loop.clock.schedule(at: time, action) }
        toplevel.isPressed = { [unowned self] in self.seats.byName.values.contains { $0.isPressed } }
        // Predicted touches reach the moment the frame answering them is expected on screen.
        input.prediction.presentationLead = { [unowned toplevel] sampleTime in
            toplevel.presentationTimes.delay.lead(sampleTime: sampleTime, now: tt_monotonic_now())
        }
        latencyReporter?.prediction = { [unowned self] in self.input.prediction.latestGuess }
        toplevel.sync = { [unowned self] in self.connection.display.sync() }
        if let manager = globals.fractionalScaleManager, let viewporter = globals.viewporter {
            toplevel.enableFractionalScale(manager: manager, viewporter: viewporter)
        }
        toplevel.scaleOfOutput = { [unowned self] output in
            self.outputs.values.first { $0.output === output }?.scale ?? 1
        }
        toplevel.onClose = { [unowned self] in self.stop(.closed) }
        toplevel.onGeometryChange = { [unowned self] in self.recordGeometry() }
        toplevel.window.titleBar.commands = WindowCommands(
            beginMove: { [unowned self] in
                guard let seat = self.seats.lastInput else { return }
                self.toplevel.beginMove(seat: seat.seat, serial: seat.lastSerial)
            },
            toggleMaximized: { [unowned self] in self.toplevel.toggleMaximized() },
            minimize: { [unowned self] in self.toplevel.minimize() },
            close: { [unowned self] in self.stop(.closed) })
    }

    /// The edit menu shows in the popup; its choices are recorded.
    private func wireMenu() {
        let menuController = application.menuController
        menuController.presenter = popupMenu
        popupMenu.onChoose = { [unowned self, unowned menuController] item in
            self.recording?.record(.menuChoice(item.action.name))
            menuController.choose(item)
        }
        popupMenu.onDismiss = { [unowned self, unowned menuController] in
            self.recording?.record(.menuDismissed)
            menuController.menuWasDismissed()
        }
    }

    /// Key presses are recorded, then handed to the app.
    private func wireKeys() {
        keymap.onKeyPress = { [unowned self] key in
            self.recording?.record(.key(keysym: key.keysym, modifiers: key.modifiers.rawValue, name: key.name))
            self.onKeyPress?(key)
        }
    }

    // MARK: Globals

    private func handle(_ event: WlRegistry.Event) {
        switch event {
        case .global(let name, let interface, let version):
            bind(Announcement(name: name, interface: interface, version: version))
        case .globalRemove(let name):
            if let seat = seats.remove(name: name) { clipboard?.removeSeat(seat.seat) }
            if let output = outputs.removeValue(forKey: name) { toplevel.outputRemoved(output.output) }
        }
    }

    /// Binds a global the host follows while it runs (the window's own are bound before it).
    private func bind(_ global: Announcement) {
        let name = global.name, version = global.version
        switch global.interface {
        case WlOutput.interfaceName:
            let output = Output(registry.bind(name: name, as: WlOutput.self, version: min(version, 3)))
            output.onChange = { [unowned self] in self.toplevel.outputsChanged() }
            outputs[name] = output
        case ZwpTabletManagerV2.interfaceName:
            let manager = registry.bind(name: name, as: ZwpTabletManagerV2.self, version: 1)
            tabletManager = manager
            for seat in seats.byName.values { seat.bindTablets(manager) }
        case ZwpPointerGesturesV1.interfaceName:
            // Version 1 has the pinch, all the app asks for.
            let manager = registry.bind(name: name, as: ZwpPointerGesturesV1.self, version: 1)
            pointerGestures = manager
            for seat in seats.byName.values { seat.bindPointerGestures(manager) }
        case WlDataDeviceManager.interfaceName:
            dataDeviceManager = registry.bind(name: name, as: WlDataDeviceManager.self, version: min(version, 3))
            makeClipboard()
        case WpPresentation.interfaceName:
            toplevel.presentationTimes.bind(registry, name: name)
        case WlSeat.interfaceName:
            bindSeat(name: name, version: version)
        default:
            break
        }
    }

    private func bindSeat(name: UInt32, version: UInt32) {
        let wlSeat = registry.bind(name: name, as: WlSeat.self, version: min(version, 7))
        let seat = Seat(seat: wlSeat, input: input, windowSurface: toplevel.surface, keymap: keymap, logger: logger)
        seat.cursorTheme = CursorTheme(compositor: globals.compositor, shm: globals.shm)
        seat.cursorScale = { [unowned self] in self.toplevel.scale }
        seat.cursorShape = { [unowned self] point in self.cursorShape(at: point) }
        seat.resizeEdge = { [unowned self] point in self.toplevel.resizeEdge(at: point) }
        seat.beginResize = { [unowned self] seat, serial, edge in
            self.toplevel.beginResize(seat: seat, serial: serial, edge: edge)
        }
        if let tabletManager { seat.bindTablets(tabletManager) }
        if let pointerGestures { seat.bindPointerGestures(pointerGestures) }
        seat.latencyReporter = latencyReporter
        seat.popup = popupMenu
        seats.add(seat, name: name)
        clipboard?.addSeat(wlSeat)
    }

    /// The clipboard on the compositor's data device manager, for every seat (P1).
    private func makeClipboard() {
        guard clipboard == nil, let dataDeviceManager else { return }
        let clipboard = Clipboard(manager: dataDeviceManager, watches: loop.watches, clock: loop.clock, logger: logger) {
            [unowned self] in
            guard let seat = self.seats.lastInput, let serial = seat.lastUserSerial else { return nil }
            return (seat.seat, serial)
        }
        for seat in seats.byName.values { clipboard.addSeat(seat.seat) }
        self.clipboard = clipboard
        application.pasteboard = clipboard
    }

    /// A resize arrow over the window's border, else the look the view under the pointer asks for
    /// (the canvas a crosshair, the rest the arrow).
    private func cursorShape(at point: Point) -> CursorTheme.Shape {
        if let edge = toplevel.resizeEdge(at: point) { return .resize(edge) }
        guard let view = window.hitTest(point, with: nil) else { return .arrow }
        switch view.effectivePointerStyle {
        case .arrow: return .arrow
        case .crosshair: return .crosshair
        }
    }

    // MARK: Recording and replay

    /// Records what a paste received, in the turn it arrived (`--record`; the app tells the host).
    public func recordPaste(_ result: PasteboardReadResult) { recording?.record(.paste(result)) }

    /// The window's geometry as a recording gives it, when it changed since last recorded.
    private func recordGeometry() {
        guard let recording, toplevel.isConfigured else { return }
        recording.recordGeometry(.window(width: Double(toplevel.size.width), height: Double(toplevel.size.height),
                                         scale: toplevel.geometry.scale, titleBar: toplevel.window.showsTitleBar))
    }

    /// Plays `entries` (a recording, or a device trace read onto this window) into the window at
    /// their original pace divided by `speed` (0: one turn of the recording per turn of the loop,
    /// as fast as they go), through the same input adapter as the compositor's input. The
    /// compositor's own input still goes through too.
    public func replay(_ entries: [RecordingEntry], speed: Double) {
        var target = ReplayTarget(input: input)
        target.key = { [unowned self] keysym, modifiers, name in
            self.onKeyPress?(KeyPress(keysym: keysym, modifiers: KeyPress.Modifiers(rawValue: modifiers), name: name))
        }
        target.paste = { [unowned self] result in self.onReplayedPaste?(result) }
        replay = LiveReplay(entries, speed: speed, clock: loop.clock, target: target)
    }

    /// Calls `handler` from the event loop whenever `fd` is readable (or hung up), until it
    /// returns false: how the app follows a bus beside the display.
    public func watchReadable(_ fd: Int32, _ handler: @escaping () -> Bool) {
        var token: FDWatches.Token?
        token = loop.watches.add(fd, events: Int16(POLLIN)) { [unowned self] _ in
            if !handler(), let token { self.loop.watches.remove(token) }
        }
    }

    // MARK: Running

    /// Ends the loop after the current batch of events.
    public func stop(_ reason: ExitReason = .closed) { loop.stop(reason) }

    /// Runs until the window is closed, a termination signal arrives or the compositor goes away.
    /// Shows the window's first frame, with what the app set up since the host started, and runs
    /// the loop until the app ends.
    public func run() -> ExitReason {
        toplevel.show()
        return loop.run()
    }
}

extension WaylandHost: EventLoopTurns {
    func turnWillDispatchEvents(at time: Double) {
        recording?.record(.turn(time))
        input.beginBatch()
    }

    func turnDidDispatchEvents() {
        let deadline = loop.clock.now + Self.touchBudget
        for seat in seats.byName.values { seat.handleTouches(until: deadline) }
        input.endBatch()
    }

    var hasInputWaiting: Bool { seats.byName.values.contains { $0.hasTouchesWaiting } }

    /// How long a turn spends handling the touch events it read before it paints and reads again
    /// (TouchBacklog): ordinary input, ten fingers at a fast panel's rate, takes a fraction of it.
    static let touchBudget = 0.003

    func turnWillFireTimers(at time: Double) { recording?.record(.timers(time)) }

    /// Paints what changed: at once when the turn carried input, else at the frame callback.
    func finishTurn() {
        // Every seat's flag is taken (no short-circuit), so none carries over to the next turn.
        let seatInput = seats.byName.values.map { $0.takeReceivedInput() }.contains(true)
        let replayedInput = replay?.takeDeliveredInput() ?? false
        toplevel.redrawIfNeeded(input: seatInput || replayedInput)
        popupMenu.followStyle()
        if spareBufferTimer == nil { scheduleSpareBufferRelease() }
    }

    /// Lets spare buffers go when they have aged, and asks again while any are left: a window
    /// left alone after a burst holds its two buffers within a moment of the lifetime.
    private func scheduleSpareBufferRelease() {
        guard let at = toplevel.nextSpareBufferCheck else { return }
        spareBufferTimer = loop.clock.schedule(at: at + 0.01) { [unowned self] in
            self.spareBufferTimer = nil
            self.toplevel.releaseSpareBuffers()
            self.scheduleSpareBufferRelease()
        }
    }
}
