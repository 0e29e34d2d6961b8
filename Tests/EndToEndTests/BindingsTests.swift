// The generated Wayland bindings against a real compositor: requests go out, typed events come
// back, destructor events end objects, protocol errors are reported, nothing crashes.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import Wayland
import CompositorHarness

/// A bare client of a private Weston, written with the generated bindings only.
final class BareClient {
    let connection: Connection
    let registry: WlRegistry
    var globals: [String: (name: UInt32, version: UInt32)] = [:]

    init(_ session: WestonSession) throws {
        connection = try Connection(name: session.runtimeDirectory + "/" + session.socketName)
        registry = connection.display.getRegistry()
        registry.onEvent = { [unowned self] event in
            if case .global(let name, let interface, let version) = event {
                self.globals[interface] = (name, version)
            }
        }
        try connection.roundtrip()
    }

    func bind<T: WaylandProxy>(_ type: T.Type) throws -> T {
        let global = try #require(globals[T.interfaceName], "the compositor offers no \(T.interfaceName)")
        return registry.bind(name: global.name, as: type, version: global.version)
    }
}

@Suite("Generated bindings under Weston", .serialized)
struct BindingsTests {
    @Test("Registry, typed events, a toplevel with a green shm buffer that the compositor shows")
    func roundTrip() throws {
        let session = try WestonSession()
        defer { session.stop() }
        let client = try BareClient(session)
        for name in ["wl_compositor", "wl_shm", "wl_seat", "xdg_wm_base"] {
            #expect(client.globals[name] != nil, "missing \(name) in \(client.globals.keys.sorted())")
        }

        let shm = try client.bind(WlShm.self)
        var formats: [WlShm.Format] = []
        shm.onEvent = { if case .format(let format) = $0 { formats.append(format) } }
        let seat = try client.bind(WlSeat.self)
        var seatName: String?
        var capabilities: WlSeat.Capability = []
        seat.onEvent = { event in
            switch event {
            case .name(let name): seatName = name
            case .capabilities(let caps): capabilities = caps
            }
        }
        // A sync callback: its done event is a destructor event, delivered once.
        var syncDone = 0
        let callback = client.connection.display.sync()
        callback.onEvent = { if case .done = $0 { syncDone += 1 } }
        try client.connection.roundtrip()
        #expect(formats.contains(.argb8888) && formats.contains(.xrgb8888))
        #expect(syncDone == 1)
        #expect(capabilities.contains(.touch) && capabilities.contains(.pointer) && capabilities.contains(.keyboard))
        if seat.version >= 2 { #expect(seatName == "tt-seat") }

        let compositor = try client.bind(WlCompositor.self)
        let wmBase = try client.bind(XdgWmBase.self)
        wmBase.onEvent = { if case .ping(let serial) = $0 { wmBase.pong(serial: serial) } }
        let surface = compositor.createSurface()
        let xdgSurface = wmBase.getXdgSurface(surface: surface)
        let toplevel = xdgSurface.getToplevel()
        toplevel.setTitle(title: "bindings test ✓")
        toplevel.setAppId(appId: "tt.bindings.test")
        var configureSerial: UInt32?
        var configuredSize: (Int32, Int32)?
        toplevel.onEvent = { if case .configure(let width, let height, _) = $0 { configuredSize = (width, height) } }
        xdgSurface.onEvent = { if case .configure(let serial) = $0 { configureSerial = serial } }
        surface.commit()
        while configureSerial == nil { try client.connection.dispatch() }
        xdgSurface.ackConfigure(serial: configureSerial!)
        #expect(configuredSize != nil)

        let (width, height) = (200, 100)
        let pool = try ShmPool(shm: shm, size: width * height * 4)
        let pixels = pool.base.bindMemory(to: UInt32.self, capacity: width * height)
        for i in 0..<(width * height) { pixels[i] = 0xFF00_FF00 }  // opaque green
        let buffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height),
                                       stride: Int32(width * 4), format: .argb8888)
        surface.attach(buffer: buffer, x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: Int32(width), height: Int32(height))
        surface.commit()
        try client.connection.roundtrip()

        let window = try session.waitForWindow(appID: "tt.bindings.test")
        #expect(window.title == "bindings test ✓")
        #expect(window.width == Double(width) && window.height == Double(height))
        let shot = try session.waitForScreen("the green buffer") { shot in
            shot.pixel(x: window.x + 100, y: window.y + 50) == .green
        }
        #expect(shot.pixel(x: window.x + 2, y: window.y + 2) == .green)
        session.removeFiles()
    }

    @Test("A protocol error is reported with its interface and code, without a crash")
    func protocolError() throws {
        let session = try WestonSession()
        defer { session.stop() }
        let client = try BareClient(session)
        let compositor = try client.bind(WlCompositor.self)
        let wmBase = try client.bind(XdgWmBase.self)
        let surface = compositor.createSurface()
        let xdgSurface = wmBase.getXdgSurface(surface: surface)
        // An xdg_surface without a role (no toplevel, no popup) must not ack a configure:
        // Weston answers with xdg_surface error 1 (not_constructed) and closes the connection.
        xdgSurface.ackConfigure(serial: 12345)
        #expect(throws: WaylandError.self) { try client.connection.roundtrip() }
        let error = try #require(client.connection.protocolError)
        #expect(error.interfaceName == "xdg_surface" && error.code == XdgSurface.ErrorCode.notConstructed.rawValue, "\(error)")
        _ = surface
        session.removeFiles()
    }
}
