// The compositor's globals as the host finds them: what the registry announces in its first round
// trip, the globals the window is built on, bound from those before the window exists, and the
// seats bound as they come.
import Wayland

/// A global the registry announced.
struct Announcement {
    let name: UInt32
    let interface: String
    let version: UInt32

    /// The globals the registry announces in a first round trip (less any removed meanwhile).
    static func first(of registry: WlRegistry, on connection: Connection) throws -> [Announcement] {
        var announced: [Announcement] = []
        registry.onEvent = { event in
            switch event {
            case let .global(name, interface, version): announced.append(Announcement(name: name, interface: interface, version: version))
            case .globalRemove(let name): announced.removeAll { $0.name == name }
            }
        }
        try connection.roundtrip()
        return announced
    }
}

/// The globals the window is built on: required (wl_compositor, wl_shm, xdg_wm_base) or taken
/// only when the window is made (decorations, fractional scale).
struct WindowGlobals {
    let compositor: WlCompositor
    let shm: WlShm
    let wmBase: XdgWmBase
    let decorationManager: ZxdgDecorationManagerV1?
    let fractionalScaleManager: WpFractionalScaleManagerV1?
    let viewporter: WpViewporter?

    /// Binds the last announcement of each; answers xdg_wm_base's pings.
    init(binding announced: [Announcement], from registry: WlRegistry) throws {
        func bind<Proxy: WaylandProxy>(_ type: Proxy.Type, version: (UInt32) -> UInt32) -> Proxy? {
            announced.last { $0.interface == Proxy.interfaceName }
                .map { registry.bind(name: $0.name, as: type, version: version($0.version)) }
        }
        guard let compositor = bind(WlCompositor.self, version: { min($0, 4) }),
              let shm = bind(WlShm.self, version: { _ in 1 }),
              let wmBase = bind(XdgWmBase.self, version: { min($0, XdgWmBase.maxVersion) }) else {
            throw HostError("the compositor lacks wl_compositor, wl_shm or xdg_wm_base")
        }
        wmBase.onEvent = { [unowned wmBase] event in
            if case .ping(let serial) = event { wmBase.pong(serial: serial) }
        }
        self.compositor = compositor
        self.shm = shm
        self.wmBase = wmBase
        decorationManager = bind(ZxdgDecorationManagerV1.self, version: { _ in 1 })
        fractionalScaleManager = bind(WpFractionalScaleManagerV1.self, version: { _ in 1 })
        viewporter = bind(WpViewporter.self, version: { _ in 1 })
    }
}

/// The seats the host bound, by registry name.
final class SeatList {
    private(set) var byName: [UInt32: Seat] = [:]

    /// The seat that delivered the latest input: its serial authorises moves, popup grabs and the
    /// clipboard.
    var lastInput: Seat? { byName.values.max { $0.lastSerialTime < $1.lastSerialTime } }

    func add(_ seat: Seat, name: UInt32) { byName[name] = seat }

    func remove(name: UInt32) -> Seat? { byName.removeValue(forKey: name) }
}
