// The portal's appearance settings as they arrive: ReadAll's a{sa{sv}} and SettingChanged's
// (s, s, v), built with libdbus and read back without a bus.
import CDBus
import DBusMessages
import Testing
@testable import DesktopPortal

@Suite("Settings portal parsing")
struct SettingsParsingTests {
    /// A message whose body `fill` writes (its header does not matter to the parser).
    static func message(_ fill: (inout MessageWriter) -> Void) throws -> OpaquePointer {
        #expect(tt_dbus_load() != 0)
        let message = try #require(tt_dbus_message_new_signal("/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                                                              "SettingChanged"))
        var writer = MessageWriter(message)
        fill(&writer)
        return message
    }

    @Test("ReadAll: color-scheme, accent-color and contrast of the appearance namespace; other namespaces and keys ignored")
    func readAll() throws {
        let message = try Self.message { writer in
            writer.container(tt_dbus_type_array, "{sa{sv}}") { groups in
                for namespace in ["org.gnome.desktop.interface", "org.freedesktop.appearance"] {
                    groups.container(tt_dbus_type_dict_entry, nil) { entry in
                        entry.string(namespace)
                        entry.container(tt_dbus_type_array, "{sv}") { settings in
                            settings.option("color-scheme", "u") { $0.uint32(namespace.hasPrefix("org.gnome") ? 2 : 1) }
                            settings.option("contrast", "u") { $0.uint32(1) }
                            settings.option("accent-color", "(ddd)") { value in
                                value.container(tt_dbus_type_struct, nil) { for c in [0.2, 0.5, 1.0] { $0.double(c) } }
                            }
                            settings.option("unknown", "s") { $0.string("x") }
                        }
                    }
                }
            }
        }
        defer { tt_dbus_message_unref(message) }
        var reader = try #require(MessageReader(message))
        var appearance = SettingsPortal.Appearance()
        #expect(SettingsPortal.takeReadAll(&reader, into: &appearance))
        #expect(appearance == SettingsPortal.Appearance(colorScheme: 1, accentColor: (0.2, 0.5, 1.0), contrast: 1))
    }

    @Test("SettingChanged: a change of one key; a value of the wrong type or another namespace changes nothing")
    func settingChanged() throws {
        var appearance = SettingsPortal.Appearance(colorScheme: 1)
        for (namespace, key, signature, dark) in [("org.freedesktop.appearance", "color-scheme", "u", false),
                                                  ("org.freedesktop.appearance", "color-scheme", "s", true),
                                                  ("org.example", "color-scheme", "u", true)] {
            appearance.colorScheme = 1
            let message = try Self.message { writer in
                writer.string(namespace)
                writer.string(key)
                writer.container(tt_dbus_type_variant, signature) { value in
                    if signature == "u" { value.uint32(0) } else { value.string("dark") }
                }
            }
            defer { tt_dbus_message_unref(message) }
            var reader = try #require(MessageReader(message))
            #expect(SettingsPortal.takeSettingChanged(&reader, into: &appearance) == !dark)
            #expect((appearance.colorScheme == 1) == dark, "\(namespace) \(signature)")
        }
    }

    @Test("An accent out of range means none")
    func noAccent() throws {
        let message = try Self.message { writer in
            writer.string("org.freedesktop.appearance")
            writer.string("accent-color")
            writer.container(tt_dbus_type_variant, "(ddd)") { value in
                value.container(tt_dbus_type_struct, nil) { for c in [-1.0, -1, -1] { $0.double(c) } }
            }
        }
        defer { tt_dbus_message_unref(message) }
        var reader = try #require(MessageReader(message))
        var appearance = SettingsPortal.Appearance(accentColor: (1, 0, 0))
        #expect(SettingsPortal.takeSettingChanged(&reader, into: &appearance))
        #expect(appearance.accentColor == nil)
    }
}
