// ReadAll from a portal with two backends (GTK's and KDE's installed side by side, as Debian
// allows): xdg-desktop-portal 1.16 answers each namespace once per backend, the desktop's own
// first, and the app takes the first answer for each setting, as the portal's Read does; the icon
// theme from the namespace of the desktop it runs on.
import CDBus
import Testing
@testable import DesktopPortal

@Suite("Settings portal with two backends")
struct SettingsBackendsTests {
    /// ReadAll's answer as the portal gave it under GNOME Shell with both backends: the GTK
    /// backend's namespaces, then the KDE backend's.
    static func twoBackends() throws -> OpaquePointer {
        // As captured from the portal under GNOME Shell with both backends: the GTK backend's
        // namespaces, then the KDE backend's.
        let groups: [(String, String, UInt32?, String?)] = [
            ("org.freedesktop.appearance", "color-scheme", 1, nil),
            ("org.gnome.desktop.interface", "icon-theme", nil, "Adwaita"),
            ("org.freedesktop.appearance", "color-scheme", 2, nil),
            ("org.kde.kdeglobals.Icons", "Theme", nil, "breeze"),
        ]
        return try SettingsParsingTests.message { writer in
            writer.container(tt_dbus_type_array, "{sa{sv}}") { list in
                for (namespace, key, number, text) in groups {
                    list.container(tt_dbus_type_dict_entry, nil) { entry in
                        entry.string(namespace)
                        entry.container(tt_dbus_type_array, "{sv}") { settings in
                            if let number { settings.option(key, "u") { $0.uint32(number) } }
                            if let text { settings.option(key, "s") { $0.string(text) } }
                        }
                    }
                }
            }
        }
    }

    @Test("A10: a setting said twice, the first answer counts (GNOME's prefer-dark, not KDE's prefer-light); the icon theme GTK's, off Plasma")
    func firstAnswerCounts() throws {
        let message = try Self.twoBackends()
        defer { tt_dbus_message_unref(message) }
        var reader = try #require(MessageReader(message))
        var appearance = SettingsPortal.Appearance()
        #expect(SettingsPortal.takeReadAll(&reader, into: &appearance, ignoring: [SettingsPortal.kdeIcons]))
        #expect(appearance == SettingsPortal.Appearance(colorScheme: 1, iconTheme: "Adwaita"))
    }

    @Test("On Plasma the icon theme is kdeglobals', not GTK's, though GTK's backend answers first")
    func plasmaIcons() throws {
        let message = try Self.twoBackends()
        defer { tt_dbus_message_unref(message) }
        var reader = try #require(MessageReader(message))
        var appearance = SettingsPortal.Appearance()
        #expect(SettingsPortal.takeReadAll(&reader, into: &appearance, ignoring: [SettingsPortal.gnomeInterface]))
        #expect(appearance.iconTheme == "breeze")
        #expect(SettingsPortal.isPlasma("KDE") && SettingsPortal.isPlasma("X-Cinnamon:KDE") && !SettingsPortal.isPlasma("GNOME")
            && !SettingsPortal.isPlasma(nil) && !SettingsPortal.isPlasma("ubuntu:GNOME"))
    }
}
