// Touch for KWin: a client of KDE's org_kde_kwin_fake_input (protocols/fake-input.xml, v4), on
// bindings our WaylandBindingsPlugin generates from this target's own protocols folder. KWin adds
// a touch device to its seat when this client authenticates and removes it when the client
// disconnects, so one `FakeInput` lives as long as its session. Coordinates are global, logical.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Wayland
import CompositorHarness

/// A touch event for ``FakeInput/touchFrames(_:)``, in global logical coordinates.
public enum FakeTouch: Sendable {
    case down(id: Int, x: Double, y: Double)
    case motion(id: Int, x: Double, y: Double)
    case up(id: Int)
}

/// The session's one injecting client. Each call is sent and round-tripped, so KWin has handled
/// it when the call returns; a KWin that does not answer within `timeout` seconds fails the call
/// instead of hanging the test run.
final class FakeInput {
    let connection: Connection
    private let fakeInput: OrgKdeKwinFakeInput
    private var down: Set<Int> = []
    private var buttonsDown: Set<Int> = []
    private var keysDown: Set<Int> = []
    private let version: UInt32
    let timeout: Double

    init(socketPath: String, timeout: Double = 10) throws {
        self.timeout = timeout
        connection = try Connection(name: socketPath)
        let registry = connection.display.getRegistry()
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        registry.onEvent = { event in
            if case .global(let name, let interface, let version) = event { globals[interface] = (name, version) }
        }
        try Self.sync(connection, timeout: timeout)
        guard let global = globals[OrgKdeKwinFakeInput.interfaceName], global.version >= 2 else {
            throw HarnessError("KWin offers no \(OrgKdeKwinFakeInput.interfaceName) (version 2 or later; is "
                               + "KWIN_WAYLAND_NO_PERMISSION_CHECKS set?): \(globals)")
        }
        version = min(global.version, OrgKdeKwinFakeInput.maxVersion)
        fakeInput = registry.bind(name: global.name, as: OrgKdeKwinFakeInput.self, version: version)
        fakeInput.authenticate(application: "TouchTracker tests", reason: "end-to-end tests inject touches")
        try sync()
        // KWin has now added the fake touch device to its seat; give it a moment to announce the
        // touch capability to the seat's clients.
        usleep(200_000)
        try sync()
    }

    /// `wl_display.sync`, waiting at most `timeout` seconds for its answer and dispatching what
    /// arrives meanwhile (a round trip that cannot hang).
    private func sync() throws { try Self.sync(connection, timeout: timeout) }

    static func sync(_ connection: Connection, timeout: Double) throws {
        var done = false
        let callback = connection.display.sync()
        callback.onEvent = { _ in done = true }
        let deadline = Date().addingTimeInterval(timeout)
        do {
            while !done {
                guard connection.prepareRead() else {
                    try connection.dispatchPending()
                    continue
                }
                try connection.flush()
                var descriptor = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
                guard ready > 0 else {
                    connection.cancelRead()
                    if ready < 0, errno == EINTR { continue }
                    throw HarnessError("KWin did not answer the fake-input client within \(timeout) s")
                }
                try connection.readEvents()
                try connection.dispatchPending()
            }
        } catch let error as HarnessError {
            throw error
        } catch {
            throw HarnessError("fake input: \(error)")
        }
        withExtendedLifetime(callback) {}
    }

    private func send(_ body: () -> Void) throws {
        body()
        try sync()
    }

    /// A touch lands, as its own frame.
    func touchDown(_ id: Int, x: Double, y: Double) throws {
        try send {
            fakeInput.touchDown(id: UInt32(id), x: x, y: y)
            fakeInput.touchFrame()
        }
        down.insert(id)
    }

    func touchMotion(_ id: Int, x: Double, y: Double) throws {
        try send {
            fakeInput.touchMotion(id: UInt32(id), x: x, y: y)
            fakeInput.touchFrame()
        }
    }

    func touchUp(_ id: Int) throws {
        try send {
            fakeInput.touchUp(id: UInt32(id))
            fakeInput.touchFrame()
        }
        down.remove(id)
    }

    /// Touch events, each in a frame of its own, sent together and round-tripped once: a stream as
    /// fast as KWin takes it, where a round trip per event would pace it to the injector's.
    func touchFrames(_ events: [FakeTouch]) throws {
        try send {
            for event in events {
                switch event {
                case .down(let id, let x, let y): fakeInput.touchDown(id: UInt32(id), x: x, y: y)
                case .motion(let id, let x, let y): fakeInput.touchMotion(id: UInt32(id), x: x, y: y)
                case .up(let id): fakeInput.touchUp(id: UInt32(id))
                }
                fakeInput.touchFrame()
            }
        }
        for event in events {
            switch event {
            case .down(let id, _, _): down.insert(id)
            case .up(let id): down.remove(id)
            case .motion: break
            }
        }
    }

    /// KWin cancels the whole touch sequence: its clients get `wl_touch.cancel`.
    func touchCancel() throws {
        try send { fakeInput.touchCancel() }
        down.removeAll()
    }

    /// The pointer moves to a global point (version 3).
    func pointerMotion(x: Double, y: Double) throws {
        guard version >= 3 else { throw HarnessError("KWin's fake input is version \(version): no absolute pointer motion") }
        try send { fakeInput.pointerMotionAbsolute(x: x, y: y) }
    }

    /// A pointer button (evdev code) is pressed or released.
    func button(_ code: Int, down: Bool) throws {
        try send { fakeInput.button(button: UInt32(code), state: down ? 1 : 0) }
        if down { buttonsDown.insert(code) } else { buttonsDown.remove(code) }
    }

    /// A key (evdev code) is pressed or released (version 4).
    func key(_ code: Int, down: Bool) throws {
        guard version >= 4 else { throw HarnessError("KWin's fake input is version \(version): no keys") }
        try send { fakeInput.keyboardKey(button: UInt32(code), state: down ? 1 : 0) }
        if down { keysDown.insert(code) } else { keysDown.remove(code) }
    }

    /// Lifts every touch, button and key still down.
    func releaseAll() throws {
        for id in down.sorted() { try touchUp(id) }
        for code in buttonsDown.sorted() { try button(code, down: false) }
        for code in keysDown.sorted() { try key(code, down: false) }
    }
}
