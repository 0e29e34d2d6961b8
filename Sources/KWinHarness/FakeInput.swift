// Touch for KWin: a client of KDE's org_kde_kwin_fake_input (protocols/fake-input.xml, v4), on
// bindings our WaylandBindingsPlugin generates from this target's own protocols folder. KWin adds
// a touch device to its seat when this client authenticates and removes it when the client
// disconnects, so one `FakeInput` lives as long as its session. Coordinates are global, logical.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Wayland
import WestonHarness

/// The session's one injecting client. Each call is sent and round-tripped, so KWin has handled
/// it when the call returns.
final class FakeInput {
    let connection: Connection
    private let fakeInput: OrgKdeKwinFakeInput
    private var down: Set<Int> = []

    init(socketPath: String) throws {
        connection = try Connection(name: socketPath)
        let registry = connection.display.getRegistry()
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        registry.onEvent = { event in
            if case .global(let name, let interface, let version) = event { globals[interface] = (name, version) }
        }
        try connection.roundtrip()
        guard let global = globals[OrgKdeKwinFakeInput.interfaceName], global.version >= 2 else {
            throw HarnessError("KWin offers no \(OrgKdeKwinFakeInput.interfaceName) (version 2 or later; is "
                               + "KWIN_WAYLAND_NO_PERMISSION_CHECKS set?): \(globals)")
        }
        fakeInput = registry.bind(name: global.name, as: OrgKdeKwinFakeInput.self,
                                  version: min(global.version, OrgKdeKwinFakeInput.maxVersion))
        fakeInput.authenticate(application: "TouchTracker tests", reason: "end-to-end tests inject touches")
        try connection.roundtrip()
        // KWin has now added the fake touch device to its seat; give it a moment to announce the
        // touch capability to the seat's clients.
        usleep(200_000)
        try connection.roundtrip()
    }

    deinit {
        _ = try? releaseAll()
    }

    private func send(_ body: () -> Void) throws {
        body()
        do {
            try connection.roundtrip()
        } catch {
            throw HarnessError("fake input: \(error)")
        }
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

    /// KWin cancels the whole touch sequence: its clients get `wl_touch.cancel`.
    func touchCancel() throws {
        try send { fakeInput.touchCancel() }
        down.removeAll()
    }

    /// Lifts every touch still down.
    func releaseAll() throws {
        for id in down.sorted() { try touchUp(id) }
    }
}
