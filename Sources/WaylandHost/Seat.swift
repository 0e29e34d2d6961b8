// wl_seat -> TouchKit. This is where Wayland's input quirks end: fixed-point coordinates (clamped
// to the plane, ±Limit.coordinate), 32-bit millisecond times, serials, frames (and Weston 10's
// missing frame after the last up) stop here.
import Limits
import Logging
import TouchKit
import Wayland

final class Seat {
    /// A position the compositor sent, within the plane: wl_fixed reaches past ±8 million, where
    /// Cairo's own coordinates end and a drawing file could no longer hold the line.
    static func planePoint(x: Double, y: Double) -> Point {
        Point(x: min(max(x, -Limit.coordinate), Limit.coordinate), y: min(max(y, -Limit.coordinate), Limit.coordinate))
    }

    /// Whether a touch `id` that goes down is taken while `down` are down (Limit.touches).
    static func takesDown(_ id: Int32, of down: Set<Int32>) -> Bool {
        down.contains(id) || down.count < Limit.touches
    }

    let seat: WlSeat
    private var touch: WlTouch?
    var pointer: WlPointer?
    private var keyboard: WlKeyboard?
    let keymap: Keymap
    let input: TouchInput
    private let logger: Logger
    /// Only input on this surface reaches the app's window.
    private let windowSurface: WlSurface
    var timeline = EventTimeline()
    /// Touch ids the compositor has put down and not yet lifted, to spot the last up.
    private var touchIDsDown: Set<Int32> = []
    /// Whether touches past Limit.touches were ignored since one last lifted (said once).
    private var touchesIgnored = false
    /// Touches that went down while a pen was near: the palm. Their events are dropped.
    private var palmIDs: Set<Int32> = []
    private var palm = PalmRejection()
    private var tabletSeat: ZwpTabletSeatV2?
    private var pens: [PenTool] = []

    // Pointer state: the left button acts as one finger.
    var pointerInside = false
    var pointerLocation = Point.zero
    var pointerDown = false
    /// Whether TouchKit was told the pointer hovers and not yet that it stopped.
    var pointerHovering = false
    /// The scrolling of the pointer frame under way (PointerScrollFrame.swift).
    var pendingScroll = PointerScrollFrame()
    /// Whether the touchpad's scroll under way zooms (Ctrl was held when it began); nil between.
    var touchpadScrollZooms: Bool?
    /// The touchpad's pinch on this seat's pointer (PointerGestures.swift).
    var pinchGesture: ZwpPointerGesturePinchV1?
    var pointerGestures: ZwpPointerGesturesV1?
    var pinch = PointerPinch()
    static let pointerTouch = TouchInput.ID(source: .pointer, number: 0)
    static let leftButton: UInt32 = 0x110  // BTN_LEFT

    /// The pointer's look, chosen by what is under it.
    var cursorTheme: CursorTheme?
    var cursorShape: (Point) -> CursorTheme.Shape = { _ in .arrow }
    var cursorScale: () -> Int32 = { 1 }
    /// The window's resize border under a point, and how to start a resize from it.
    var resizeEdge: (Point) -> XdgToplevel.ResizeEdge? = { _ in nil }
    var beginResize: (WlSeat, UInt32, XdgToplevel.ResizeEdge) -> Void = { _, _, _ in }
    var enterSerial: UInt32 = 0
    var shownShape: CursorTheme.Shape?

    /// The edit menu's popup: input on its surface goes to it, not to the app.
    weak var popup: PopupMenu?
    private var popupTouches: [Int32: Point] = [:]
    var pointerOnPopup = false
    /// The serial of the latest touch down or button press: what a popup grab must quote.
    var lastPressSerial: UInt32? {
        didSet { lastUserSerial = lastPressSerial }
    }
    /// The serial of the latest key press, touch down or button press: what taking the clipboard
    /// must quote (Ctrl+C's key press, the press on the menu's Copy).
    private(set) var lastUserSerial: UInt32?

    /// The latest input serial, for requests that need one (popup grabs, move).
    var lastSerial: UInt32 = 0 {
        didSet { lastSerialTime = Seat.serialClock; Seat.serialClock += 1 }
    }
    /// Orders serials across seats (which seat had input last).
    private(set) var lastSerialTime = 0
    nonisolated(unsafe) private static var serialClock = 1

    init(seat: WlSeat, input: TouchInput, windowSurface: WlSurface, keymap: Keymap, logger: Logger) {
        self.seat = seat
        self.input = input
        self.windowSurface = windowSurface
        self.keymap = keymap
        self.logger = logger
        seat.onEvent = { [unowned self] event in
            switch event {
            case .capabilities(let capabilities):
                self.update(capabilities)
            default:
                break
            }
        }
    }

    private func update(_ capabilities: WlSeat.Capability) {
        if capabilities.contains(.touch), touch == nil {
            let touch = seat.getTouch()
            touch.onEvent = { [unowned self] in self.arrived($0) }
            self.touch = touch
        } else if !capabilities.contains(.touch), touch != nil {
            input.cancel(source: .touchscreen)
            touch = nil
        }
        if capabilities.contains(.pointer), pointer == nil {
            let pointer = seat.getPointer()
            pointer.onEvent = { [unowned self] in self.handle($0) }
            self.pointer = pointer
            bindPinch()
        } else if !capabilities.contains(.pointer), pointer != nil {
            endPointerHover(at: input.application.clock.now)
            endPointerTouch(cancelled: true)
            endPinch()
            pointer = nil
        }
        if capabilities.contains(.keyboard), keyboard == nil {
            let keyboard = seat.getKeyboard()
            keyboard.onEvent = { [unowned self] event in
                self.receivedInput = true
                switch event {
                case .key(let serial, _, let key, let state):
                    if state == .pressed {
                        self.lastSerial = serial
                        self.lastUserSerial = serial
                    }
                    self.logger.debug("keyboard: key \(key) \(state == .pressed ? "pressed" : "released") (serial \(serial))")
                case .enter(let serial, _, _):
                    self.logger.debug("keyboard: focus in (serial \(serial))")
                case .leave:
                    self.logger.debug("keyboard: focus out")
                default:
                    break
                }
                self.keymap.handle(event)
            }
            self.keyboard = keyboard
        } else if !capabilities.contains(.keyboard), keyboard != nil {
            keyboard = nil
        }
    }

    // MARK: Touch

    /// Whether input arrived since the last `takeReceivedInput()`: the host commits it at once.
    private var receivedInput = false
    /// Told the time of every input event (`--latency`).
    var latencyReporter: LatencyReporter?

    func takeReceivedInput() -> Bool {
        defer { receivedInput = false }
        return receivedInput
    }

    func inputArrived(time: UInt32?) {
        receivedInput = true
        latencyReporter?.noteInput(time: time)
    }

    /// Touch events read but not handled yet (TouchBacklog).
    private var touchBacklog = TouchBacklog()

    /// Whether touch events wait for a later turn.
    var hasTouchesWaiting: Bool { !touchBacklog.isEmpty }
    /// A touch, a pen or a pointer button is down: the window's input frames go on (InputPacing).
    var isPressed: Bool { !touchIDsDown.isEmpty || pointerDown || pens.contains { $0.isDown } }

    private func arrived(_ event: WlTouch.Event) {
        touchBacklog.append(event)
        // A compositor that never stops sending faster than the app can take: the backlog's memory
        // is bounded, and what is past it is handled now, however long that takes.
        if touchBacklog.count > Limit.touchBacklog { handleTouches(until: -.infinity) }
    }

    /// Handles waiting touch events in order until the clock passes `deadline` (checked after each
    /// frame), then, if none wait any more, closes a frame the compositor left open.
    func handleTouches(until deadline: Double) {
        let clock = input.application.clock
        touchBacklog.take({ handle($0) }, stoppingAfterAFrameWhen: { clock.now >= deadline })
        if touchBacklog.isEmpty {
            endOfEventBatch()
            if behindSince != nil { logger.notice("touch input caught up") }
            behindSince = nil
        } else if clock.now - (behindSince ?? -.infinity) >= 1 {
            // Said once a second while it lasts: the benchmark's ramps read it as falling behind.
            logger.notice("touch input waits: \(touchBacklog.count) events read and not yet handled")
            behindSince = clock.now
        }
    }

    /// When the seat last said that touch events wait (nil: none wait).
    private var behindSince: Double?

    private func handle(_ event: WlTouch.Event) {
        switch event {
        case .down(_, let time, _, _, _, _), .motion(let time, _, _, _), .up(_, let time, _): inputArrived(time: time)
        // A frame read apart from its events (they may come in several reads) is input too: it is
        // what delivers them, and its commit must not wait for a frame callback.
        case .cancel, .frame: inputArrived(time: nil)
        default: break
        }
        switch event {
        case .down(let serial, let time, let surface, let id, let x, let y):
            lastSerial = serial
            lastPressSerial = serial
            if let popup, let surface, surface === popup.surface {
                popupTouches[id] = Self.planePoint(x: x, y: y)
                popup.press(at: Self.planePoint(x: x, y: y))
                return
            }
            guard surface === windowSurface else { return }
            // The first finger of a new sequence: anything still unframed is the previous frame,
            // whose `frame` Weston 10 dropped after its last up.
            if touchIDsDown.isEmpty, input.hasPendingChanges { input.frame() }
            // Past the limit a touch is not taken: its motion and up are for an unknown id then,
            // which the adapter ignores.
            guard Self.takesDown(id, of: touchIDsDown) else {
                if !touchesIgnored { logger.notice("touches ignored: \(Limit.touches) are down already") }
                touchesIgnored = true
                return
            }
            touchIDsDown.insert(id)
            guard palm.allowsTouch(at: timeline.seconds(time)) else {
                palmIDs.insert(id)
                return
            }
            input.down(TouchInput.ID(source: .touchscreen, number: id), at: Self.planePoint(x: x, y: y),
                       time: timeline.seconds(time), kind: .direct)
        case .motion(let time, let id, let x, let y):
            if popupTouches[id] != nil {
                popupTouches[id] = Self.planePoint(x: x, y: y)
                popup?.drag(to: Self.planePoint(x: x, y: y))
                return
            }
            guard !palmIDs.contains(id) else { return }
            input.motion(TouchInput.ID(source: .touchscreen, number: id), at: Self.planePoint(x: x, y: y),
                         time: timeline.seconds(time))
        case .up(let serial, let time, let id):
            lastSerial = serial
            if let point = popupTouches.removeValue(forKey: id) {
                popup?.release(at: point)
                return
            }
            if touchIDsDown.remove(id) != nil { touchesIgnored = false }
            guard palmIDs.remove(id) == nil else { return }
            input.up(TouchInput.ID(source: .touchscreen, number: id), time: timeline.seconds(time))
        case .shape(let id, let major, _):
            // wl_touch v6: the contact's size, the major axis's length (T13).
            guard popupTouches[id] == nil, !palmIDs.contains(id), touchIDsDown.contains(id) else { return }
            input.report(.touch(id), Touch.Attributes(majorRadius: min(max(major, 0), Limit.coordinate) / 2))
        case .frame:
            unframedUpTimer?.cancel()
            unframedUpTimer = nil
            input.frame()
        case .cancel:
            popupTouches.removeAll()
            touchIDsDown.removeAll()
            palmIDs.removeAll()
            input.cancel(source: .touchscreen)
        default:
            break
        }
    }

    /// Called when every event read has been handled. Weston 10 sends no `frame` after the up
    /// that lifts the last finger (weston issue 44); ups that leave fingers down do get one. So when
    /// the last finger's up is still unframed and the socket has nothing more, it is its own frame.
    private func endOfEventBatch() {
        guard input.pendingChangesEndWithUp else { return }
        if touchIDsDown.isEmpty {
            input.frame()
        } else if unframedUpTimer == nil {
            // mutter 43 sends no frame after any up. Where fingers stay down, Weston does send
            // one, in the same flush as the up; wait a moment for it before closing the frame.
            unframedUpTimer = input.application.clock.schedule(at: input.application.clock.now + Self.unframedUpWait) {
                [weak self] in
                guard let self else { return }
                self.unframedUpTimer = nil
                if self.input.pendingChangesEndWithUp {
                    self.receivedInput = true
                    self.input.frame()
                }
            }
        }
    }

    /// How long an up with fingers still down may wait for its frame: well under a frame at 60 Hz.
    static let unframedUpWait = 0.008
    private var unframedUpTimer: TimerToken?

    // MARK: Pen (tablet v2)

    /// Starts listening to this seat's tablets.
    func bindTablets(_ manager: ZwpTabletManagerV2) {
        let tabletSeat = manager.getTabletSeat(seat: seat)
        tabletSeat.onEvent = { [unowned self] event in
            switch event {
            case .toolAdded(let tool):
                self.pens.append(PenTool(tool: tool, number: self.pens.count, seat: self))
            case .tabletAdded(let tablet):
                self.tablets.append(tablet)
            case .padAdded(let pad):
                self.pads.append(pad)
            }
        }
        self.tabletSeat = tabletSeat
    }
    // Kept alive so their proxies stay valid; the app uses tools only.
    private var tablets: [ZwpTabletV2] = []
    private var pads: [ZwpTabletPadV2] = []

    func penEntered(_ number: Int) {
        palm.penEntered(number)
        // Fingers already down when the pen arrives are the palm landing first: take back their lines.
        if !touchIDsDown.isEmpty {
            palmIDs.formUnion(touchIDsDown)
            input.cancel(source: .touchscreen)
        }
    }

    func penLeft(_ number: Int, at time: Double) { palm.penLeft(number, at: time) }
    func noteSerial(_ serial: UInt32) { lastSerial = serial }
    func isWindowSurface(_ surface: WlSurface?) -> Bool { surface === windowSurface }
    func seconds(_ milliseconds: UInt32) -> Double { timeline.seconds(milliseconds) }
}
