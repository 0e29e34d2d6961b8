// The desktop's style on a private session bus of our own: a stand-in portal owns the portal's
// name, answers ReadAll and announces a change; another program on the bus announces changes of
// its own, which are not taken.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages
import Testing
@testable import DesktopPortal

@Suite("The portal's settings on a bus")
struct SettingsBusTests {
    /// A SettingChanged of the appearance's color-scheme.
    static func colorScheme(_ calls: StandInCalls, _ value: UInt32) -> OpaquePointer? {
        guard let signal = calls.newSignal("/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", "SettingChanged") else {
            return nil
        }
        var writer = MessageWriter(signal)
        writer.string("org.freedesktop.appearance")
        writer.string("color-scheme")
        writer.container(tt_dbus_type_variant, "u") { $0.uint32(value) }
        return signal
    }

    @Test("ReadAll's answer is taken, and SettingChanged from the portal; another program's SettingChanged is not")
    func onlyThePortal() throws {
        let calls = try #require(StandInCalls())
        let bus = try #require(PrivateBus())
        let portal = try Peer(address: bus.address), intruder = try Peer(address: bus.address)
        #expect(calls.requestName(portal.connection, "org.freedesktop.portal.Desktop", 0, nil) == 1)

        let settings = try SettingsPortal(environment: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? bus.address : nil })
        #expect(settings.fileDescriptor != nil)
        var seen: [UInt32?] = []
        settings.onChange = { seen.append($0.colorScheme) }
        func appReads() {
            for _ in 0..<30 {
                settings.read()
                usleep(10_000)
            }
        }

        let call = try #require(portal.next { calls.getMember($0).map { String(cString: $0) } == "ReadAll" })
        defer { tt_dbus_message_unref(call) }
        // Before the portal has answered, nobody's signal is taken.
        intruder.send(try #require(Self.colorScheme(calls, 1)))
        appReads()
        #expect(seen.isEmpty)

        let reply = try #require(calls.newMethodReturn(call))
        var writer = MessageWriter(reply)
        writer.container(tt_dbus_type_array, "{sa{sv}}") { groups in
            groups.container(tt_dbus_type_dict_entry, nil) { entry in
                entry.string("org.freedesktop.appearance")
                entry.container(tt_dbus_type_array, "{sv}") { $0.option("color-scheme", "u") { $0.uint32(1) } }
            }
        }
        portal.send(reply)
        appReads()
        #expect(seen == [1], "the portal's answer: dark")

        intruder.send(try #require(Self.colorScheme(calls, 2)))
        appReads()
        #expect(seen == [1], "another program cannot restyle the window")
        portal.send(try #require(Self.colorScheme(calls, 0)))
        appReads()
        #expect(seen == [1, 0], "the portal's change is followed")
    }
}
