// ReadAll from a portal with two backends (GTK's and KDE's installed side by side, as Debian
// allows): xdg-desktop-portal 1.16 answers each namespace once per backend, the desktop's own
// first, and the app takes the first answer for each setting, as the portal's Read does; the icon
// theme from the namespace of the desktop it runs on.
import CDBus
import DBusMessages
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

    @Test("A11: a setting said twice, the first answer counts (GNOME's prefer-dark, not KDE's prefer-light); the icon theme GTK's, off Plasma")
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

    /// ReadAll's answer with one `namespace` of `key` = a value `write` puts in a variant of `signature`.
    static func readAll(_ entries: [(namespace: String, key: String, signature: String, write: (inout MessageWriter) -> Void)],
                        ignoring: Set<String>) throws -> SettingsPortal.Appearance {
        let message = try SettingsParsingTests.message { writer in
            writer.container(tt_dbus_type_array, "{sa{sv}}") { list in
                for entry in entries {
                    list.container(tt_dbus_type_dict_entry, nil) { group in
                        group.string(entry.namespace)
                        group.container(tt_dbus_type_array, "{sv}") { $0.option(entry.key, entry.signature, entry.write) }
                    }
                }
            }
        }
        defer { tt_dbus_message_unref(message) }
        var reader = try #require(MessageReader(message))
        var appearance = SettingsPortal.Appearance()
        _ = SettingsPortal.takeReadAll(&reader, into: &appearance, ignoring: ignoring)
        return appearance
    }

    @Test("GNOME's high-contrast switch is high contrast off Plasma; the standard contrast key, where a portal has it, counts over it")
    func gnomeHighContrast() throws {
        func boolean(_ on: Bool) -> (inout MessageWriter) -> Void {
            { writer in
                var value: UInt32 = on ? 1 : 0
                _ = tt_dbus_message_iter_append_basic(&writer.iter, Int32(UInt8(ascii: "b")), &value)
            }
        }
        let offPlasma: Set<String> = [SettingsPortal.kdeIcons, SettingsPortal.kdeGeneral]
        #expect(try Self.readAll([(SettingsPortal.gnomeA11y, "high-contrast", "b", boolean(true))], ignoring: offPlasma).contrast == 1)
        #expect(try Self.readAll([(SettingsPortal.gnomeA11y, "high-contrast", "b", boolean(false))], ignoring: offPlasma).contrast == 0)
        #expect(try Self.readAll([(SettingsPortal.gnomeA11y, "high-contrast", "b", boolean(true))],
                                 ignoring: [SettingsPortal.gnomeInterface, SettingsPortal.gnomeA11y]).contrast == nil)
        let both = try Self.readAll([(SettingsPortal.gnomeA11y, "high-contrast", "b", boolean(true)),
                                     ("org.freedesktop.appearance", "contrast", "u", { $0.uint32(0) })], ignoring: offPlasma)
        #expect(both.contrast == 0)
    }

    @Test("Plasma's AccentColor as KConfig writes it is the accent on Plasma; a malformed one is none",
          arguments: [("224,27,36", true), ("224,27,36,255", true), ("#e01b24", true), ("", false), ("300,0,0", false), ("red", false)])
    func plasmaAccent(_ text: String, _ valid: Bool) throws {
        let onPlasma: Set<String> = [SettingsPortal.gnomeInterface, SettingsPortal.gnomeA11y]
        let accent = try Self.readAll([(SettingsPortal.kdeGeneral, "AccentColor", "s", { $0.string(text) })], ignoring: onPlasma).accentColor
        if valid {
            let channels = try #require(accent)
            #expect(abs(channels.red - 224.0 / 255) < 1e-9 && abs(channels.green - 27.0 / 255) < 1e-9 && abs(channels.blue - 36.0 / 255) < 1e-9)
        } else {
            #expect(accent == nil)
        }
        let offPlasma: Set<String> = [SettingsPortal.kdeIcons, SettingsPortal.kdeGeneral]
        #expect(try Self.readAll([(SettingsPortal.kdeGeneral, "AccentColor", "s", { $0.string(text) })], ignoring: offPlasma).accentColor == nil)
    }

    @Test("Less motion: GNOME's enable-animations off, or Plasma's animation speed at instant, each on its own desktop")
    func reduceMotion() throws {
        func boolean(_ on: Bool) -> (inout MessageWriter) -> Void {
            { writer in
                var value: UInt32 = on ? 1 : 0
                _ = tt_dbus_message_iter_append_basic(&writer.iter, Int32(UInt8(ascii: "b")), &value)
            }
        }
        let offPlasma: Set<String> = [SettingsPortal.kdeIcons, SettingsPortal.kdeGeneral, SettingsPortal.kdeKDE]
        let onPlasma: Set<String> = [SettingsPortal.gnomeInterface, SettingsPortal.gnomeA11y]
        #expect(try Self.readAll([(SettingsPortal.gnomeInterface, "enable-animations", "b", boolean(false))], ignoring: offPlasma).reduceMotion == true)
        #expect(try Self.readAll([(SettingsPortal.gnomeInterface, "enable-animations", "b", boolean(true))], ignoring: offPlasma).reduceMotion == false)
        #expect(try Self.readAll([(SettingsPortal.kdeKDE, "AnimationDurationFactor", "s", { $0.string("0") })], ignoring: onPlasma).reduceMotion == true)
        #expect(try Self.readAll([(SettingsPortal.kdeKDE, "AnimationDurationFactor", "s", { $0.string("0.5") })], ignoring: onPlasma).reduceMotion == false)
        #expect(try Self.readAll([(SettingsPortal.kdeKDE, "AnimationDurationFactor", "s", { $0.string("fast") })], ignoring: onPlasma).reduceMotion == nil)
        #expect(try Self.readAll([(SettingsPortal.kdeKDE, "AnimationDurationFactor", "s", { $0.string("0") })], ignoring: offPlasma).reduceMotion == nil)
    }
}
