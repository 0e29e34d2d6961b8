// tt-clipboard-probe: a second Wayland client for the clipboard's end-to-end tests. Compositors
// tell only the client with keyboard focus what the clipboard holds, so the probe maps a small
// window of its own to get focus, then reads or takes the selection as any other program would:
//
//   tt-clipboard-probe read TYPE OUT      writes the selection's TYPE into the file OUT; prints
//                                         "types: A B ..." (what the selection offers) and exits
//                                         0, or 3 when TYPE is not offered
//   tt-clipboard-probe stall TYPE SECONDS asks for TYPE like `read`, then reads nothing for
//                                         SECONDS with the pipe open (a reader that hangs)
//   tt-clipboard-probe offer TYPE TEXT    takes the selection, offering TEXT as TYPE; unmaps its
//                                         window (so focus goes back to the window under it),
//                                         prints "offering", and serves reads until the selection
//                                         is taken from it or it is terminated
//   tt-clipboard-probe offer-silent TYPE  the same, but sends nothing: it keeps each pipe open
//   tt-clipboard-probe offer-endless TYPE the same, but sends bytes without end, until the reader
//                                         closes its end. A read asked for while the probe takes
//                                         the selection is the compositor keeping a copy (Weston's
//                                         clipboard asks at once and reads to the end, some 2 GiB
//                                         of an endless stream): it gets nothing
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Wayland

/// Writes a line straight to `fd` (unbuffered: the tests read it while the probe runs).
func say(_ line: String, to fd: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = write(fd, bytes, bytes.count)
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    say("tt-clipboard-probe: \(message)", to: 2)
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let modes = ["read": 3, "stall": 3, "offer": 3, "offer-silent": 2, "offer-endless": 2]
guard let mode = arguments.first, modes[mode] == arguments.count else {
    fail("usage: tt-clipboard-probe read TYPE OUT | stall TYPE SECONDS | offer TYPE TEXT | offer-silent TYPE | offer-endless TYPE", status: 2)
}
let type = arguments[1]
let argument = arguments.count > 2 ? arguments[2] : ""
// offer-endless writes until the reader hangs up: that is an error to see, not a signal to die of.
signal(SIGPIPE, SIG_IGN)

final class Probe {
    let connection: Connection
    private let registry: WlRegistry
    private var compositor: WlCompositor?
    private var shm: WlShm?
    private var wmBase: XdgWmBase?
    private var seat: WlSeat?
    private var manager: WlDataDeviceManager?
    private var keyboard: WlKeyboard?
    private(set) var device: WlDataDevice?
    private var surface: WlSurface?
    private var xdgSurface: XdgSurface?
    private var toplevel: XdgToplevel?
    private var pool: ShmPool?
    private var buffer: WlBuffer?
    /// The serial of the keyboard focus coming to the probe's window.
    private(set) var focusSerial: UInt32?
    private var announced: [ObjectIdentifier: (offer: WlDataOffer, types: [String])] = [:]
    /// nil until the compositor named the selection; then the offer (or none) and its types.
    private(set) var selection: (offer: WlDataOffer, types: [String])??

    init() throws {
        connection = try Connection()
        registry = connection.display.getRegistry()
        registry.onEvent = { [unowned self] event in
            guard case .global(let name, let interface, let version) = event else { return }
            switch interface {
            case WlCompositor.interfaceName: self.compositor = self.registry.bind(name: name, as: WlCompositor.self, version: 4)
            case WlShm.interfaceName: self.shm = self.registry.bind(name: name, as: WlShm.self, version: 1)
            case XdgWmBase.interfaceName: self.wmBase = self.registry.bind(name: name, as: XdgWmBase.self, version: 1)
            case WlSeat.interfaceName where self.seat == nil: self.seat = self.registry.bind(name: name, as: WlSeat.self, version: min(version, 5))
            case WlDataDeviceManager.interfaceName:
                self.manager = self.registry.bind(name: name, as: WlDataDeviceManager.self, version: min(version, 3))
            default: break
            }
        }
        _ = try connection.roundtrip()
        guard let compositor, let shm, let wmBase, let seat, let manager else {
            fail("the compositor lacks wl_compositor, wl_shm, xdg_wm_base, wl_seat or wl_data_device_manager")
        }
        wmBase.onEvent = { [unowned wmBase] event in
            if case .ping(let serial) = event { wmBase.pong(serial: serial) }
        }
        let keyboard = seat.getKeyboard()
        keyboard.onEvent = { [unowned self] event in
            switch event {
            case .keymap(_, let fd, _): close(fd)
            case .enter(let serial, _, _): self.focusSerial = serial
            default: break
            }
        }
        self.keyboard = keyboard
        let device = manager.getDataDevice(seat: seat)
        device.onEvent = { [unowned self] event in
            switch event {
            case .dataOffer(let offer):
                let key = ObjectIdentifier(offer)
                self.announced[key] = (offer, [])
                offer.onEvent = { [unowned self] event in
                    if case .offer(let type) = event { self.announced[key]?.types.append(type) }
                }
            case .selection(let offer):
                self.selection = .some(offer.flatMap { self.announced.removeValue(forKey: ObjectIdentifier($0)) })
            default: break
            }
        }
        self.device = device

        // A small white window: focus comes with it.
        let surface = compositor.createSurface()
        let xdgSurface = wmBase.getXdgSurface(surface: surface)
        let toplevel = xdgSurface.getToplevel()
        toplevel.setAppId(appId: "tt-clipboard-probe")
        toplevel.setTitle(title: "tt-clipboard-probe")
        let pool = try ShmPool(shm: shm, size: 64 * 64 * 4)
        memset(pool.base, 0xFF, 64 * 64 * 4)
        let buffer = pool.createBuffer(offset: 0, width: 64, height: 64, stride: 64 * 4, format: .xrgb8888)
        xdgSurface.onEvent = { [unowned self, unowned xdgSurface, unowned surface] event in
            guard case .configure(let serial) = event else { return }
            xdgSurface.ackConfigure(serial: serial)
            surface.attach(buffer: self.buffer, x: 0, y: 0)
            surface.damageBuffer(x: 0, y: 0, width: 64, height: 64)
            surface.commit()
        }
        surface.commit()
        (self.surface, self.xdgSurface, self.toplevel, self.pool, self.buffer) = (surface, xdgSurface, toplevel, pool, buffer)
    }

    /// Dispatches events until `done` holds, for at most `timeout` seconds.
    func wait(_ what: String, timeout: Double = 10, until done: () -> Bool) throws {
        let deadline = tt_monotonic_now() + timeout
        while !done() {
            let left = deadline - tt_monotonic_now()
            guard left > 0 else { fail("timed out waiting for \(what)") }
            while !connection.prepareRead() { _ = try connection.dispatchPending() }
            _ = try connection.flush()
            var fd = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Int32(left * 1000) + 1) > 0 {
                try connection.readEvents()
            } else {
                connection.cancelRead()
            }
            _ = try connection.dispatchPending()
        }
    }

    func makeSource() -> WlDataSource? { manager?.createDataSource() }

    /// Takes the window away, so that the compositor focuses the window under it.
    func unmap() {
        toplevel = nil
        xdgSurface = nil
        surface = nil
    }
}

do {
    let probe = try Probe()
    try probe.wait("keyboard focus and the selection") { probe.focusSerial != nil && probe.selection != nil }
    let selection = probe.selection!
    say("types: \((selection?.types ?? []).joined(separator: " "))")
    if mode == "read" || mode == "stall" {
        guard let selection, selection.types.contains(type) else { fail("the selection does not offer \(type)", status: 3) }
        var fds: [Int32] = [-1, -1]
        guard tt_pipe_for_reading(&fds) == 0 else { fail("pipe: \(String(cString: strerror(errno)))") }
        selection.offer.receive(mimeType: type, fd: fds[1])
        close(fds[1])
        _ = try probe.connection.flush()
        if mode == "stall" {
            // Out of the way, so the app is seen and focused while the pipe hangs.
            probe.unmap()
            _ = try probe.connection.roundtrip()
            say("stalling")
            usleep(UInt32((Double(argument) ?? 1) * 1_000_000))
            close(fds[0])
            exit(0)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = tt_monotonic_now() + 10
        reading: while true {
            var fd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard tt_monotonic_now() < deadline, poll(&fd, 1, 1000) >= 0 else { fail("timed out reading \(type)") }
            let n = read(fds[0], &chunk, chunk.count)
            if n > 0 {
                bytes.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                break reading
            } else if errno != EAGAIN && errno != EINTR {
                fail("read: \(String(cString: strerror(errno)))")
            }
        }
        close(fds[0])
        let out = open(argument, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard out >= 0, write(out, bytes, bytes.count) == bytes.count, close(out) == 0 else { fail("cannot write \(argument)") }
        say("read \(bytes.count) bytes")
        exit(0)
    } else {
        guard let device = probe.device, let source = probe.makeSource() else { fail("no data device") }
        var taken = false
        var offering = false
        source.offer(mimeType: type)
        var held: [Int32] = []
        source.onEvent = { event in
            switch event {
            case .send(_, let fd):
                switch mode {
                case "offer-silent":
                    held.append(fd)
                case "offer-endless" where !offering:
                    say("a copy asked for while taking the selection: sent nothing")
                    close(fd)
                case "offer-endless":
                    let block = [UInt8](repeating: UInt8(ascii: " "), count: 65536)
                    var sent = 0
                    while write(fd, block, block.count) > 0 { sent += block.count }
                    say("sent \(sent) bytes: \(String(cString: strerror(errno)))")
                    close(fd)
                default:
                    let text = Array(argument.utf8)
                    _ = write(fd, text, text.count)
                    close(fd)
                }
            case .cancelled: taken = true
            default: break
            }
        }
        device.setSelection(source: source, serial: probe.focusSerial!)
        probe.unmap()
        _ = try probe.connection.roundtrip()
        offering = true
        say("offering")
        try probe.wait("the selection to be taken", timeout: 3600) { taken }
        exit(0)
    }
} catch {
    fail("\(error)")
}
