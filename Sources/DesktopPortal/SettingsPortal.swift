// The desktop's style through org.freedesktop.portal.Settings (xdg-desktop-portal): the
// `org.freedesktop.appearance` namespace's color-scheme, accent-color and contrast, the desktops'
// own settings the portal passes on (`SettingsAppearance.swift`), and the icon theme (GNOME's
// `icon-theme` through the GTK backend, Plasma's `Theme` of kdeglobals' Icons through the KDE
// one), read once with ReadAll and followed through SettingChanged. A key no portal has (1.16 and
// Debian 12's backends have no accent-color or contrast) stays unset. Nothing blocks: the caller
// reads the bus when its fd is readable.
// With several backends installed (GTK's and KDE's, as on a machine with both desktops), 1.16's
// ReadAll answers each namespace once per backend, the desktop's own first: the first answer for
// a setting is taken, as the portal's Read does (the KDE backend says "prefer light" under GNOME).
// The desktops' own settings are the running desktop's: on Plasma kdeglobals' (the icon theme
// Breeze when it names none, as Plasma's Qt apps take), elsewhere GNOME's, whatever the other
// backend says.
// Only the portal's signals are taken: the bus is asked for them from the portal's name alone, and
// each is checked against the unique name that answered ReadAll.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages

public final class SettingsPortal {
    static let namespace = "org.freedesktop.appearance"
    /// Every namespace read: the style's, and where each desktop names its icon theme.
    static let namespaces = [namespace, gnomeInterface, gnomeA11y, kdeIcons, kdeGeneral, kdeKDE]
    static let interface = "org.freedesktop.portal.Settings"
    static let path = "/org/freedesktop/portal/desktop"

    /// Plasma's icon theme when kdeglobals names none.
    static let plasmaIconTheme = "breeze"
    /// The desktops' own namespaces the portal passes on: where each keeps its icon theme, GNOME's
    /// high-contrast switch, Plasma's accent colour.
    static let gnomeInterface = "org.gnome.desktop.interface", gnomeA11y = "org.gnome.desktop.a11y.interface"
    static let kdeIcons = "org.kde.kdeglobals.Icons", kdeGeneral = "org.kde.kdeglobals.General"
    /// Plasma's animation speed.
    static let kdeKDE = "org.kde.kdeglobals.KDE"

    private let bus: SessionBus
    /// Whether the session is Plasma's (`XDG_CURRENT_DESKTOP` names KDE).
    private let onPlasma: Bool
    /// The other desktop's namespaces, not taken.
    private var ignored: Set<String> {
        onPlasma ? [Self.gnomeInterface, Self.gnomeA11y] : [Self.kdeIcons, Self.kdeGeneral, Self.kdeKDE]
    }
    private var readSerial: UInt32?
    /// The portal's unique name, from its answer to ReadAll.
    private var portal: String?
    public private(set) var current = Appearance()
    /// Called with the desktop's style when ReadAll is answered and after each change.
    public var onChange: ((Appearance) -> Void)?

    /// Connects to the session bus and asks for the style; throws when there is no bus. A bus
    /// with no portal answers ReadAll with an error, and the style stays unset.
    public init(environment: (String) -> String?) throws(PortalError) {
        bus = try SessionBus(environment: environment)
        onPlasma = Self.isPlasma(environment("XDG_CURRENT_DESKTOP"))
        bus.addMatch("type='signal',sender='\(FileChooserPortal.portalName)',interface='\(Self.interface)',"
                     + "member='SettingChanged',path='\(Self.path)'")
        guard let message = tt_dbus_message_new_method_call(FileChooserPortal.portalName, Self.path, Self.interface, "ReadAll") else {
            throw PortalError("out of memory")
        }
        var writer = MessageWriter(message)
        writer.container(tt_dbus_type_array, "s") { list in for namespace in Self.namespaces { list.string(namespace) } }
        readSerial = try bus.send(message)
    }

    /// The bus's file descriptor: readable when something arrived (watch it, then ``read()``).
    public var fileDescriptor: Int32? {
        var fd: Int32 = -1
        return tt_dbus_connection_get_unix_fd(bus.connection, &fd) != 0 && fd >= 0 ? fd : nil
    }

    /// Waits at most `seconds` for the answer to ReadAll (the window's first frame then shows the
    /// desktop's style instead of flashing light); a portal slower than that answers later
    /// through ``read()``. Timed by the clock: the bus's other messages end some reads early.
    public func waitForAnswer(seconds: Double) {
        let deadline = Self.now() + seconds
        while readSerial != nil, Self.now() < deadline, read(waiting: 10) {}
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Reads what has arrived, waiting up to `milliseconds` for it; false once the bus is gone.
    @discardableResult
    public func read(waiting milliseconds: Int32 = 0) -> Bool {
        var anyChange = false
        let open = bus.readAvailable(waiting: milliseconds) { message in
            if changed(by: message) { anyChange = true }
        }
        if anyChange { onChange?(current) }
        return open
    }

    private func changed(by message: OpaquePointer) -> Bool {
        let sender = tt_dbus_message_get_sender(message).map { String(cString: $0) }
        if let serial = readSerial, tt_dbus_message_get_reply_serial(message) == serial {
            readSerial = nil
            guard tt_dbus_message_get_type(message) != tt_dbus_message_error else { return false }
            portal = sender
            guard var reader = MessageReader(message) else { return false }
            let took = Self.takeReadAll(&reader, into: &current, ignoring: ignored)
            guard onPlasma, current.iconTheme == nil else { return took }
            current.iconTheme = Self.plasmaIconTheme
            return true
        }
        guard tt_dbus_message_is_signal(message, Self.interface, "SettingChanged") != 0,
              let portal, sender == portal, var reader = MessageReader(message) else { return false }
        return Self.takeSettingChanged(&reader, into: &current, ignoring: ignored)
    }

    /// Whether `XDG_CURRENT_DESKTOP` (a colon-separated list) names Plasma.
    static func isPlasma(_ desktops: String?) -> Bool {
        (desktops ?? "").split(separator: ":").contains { $0.uppercased() == "KDE" }
    }

    /// ReadAll's answer, a{sa{sv}}: namespaces with their keys and values; of a setting said twice
    /// (by two backends) the first.
    static func takeReadAll(_ reader: inout MessageReader, into appearance: inout Appearance,
                            ignoring ignored: Set<String> = []) -> Bool {
        var taken: Set<Appearance.Setting> = []
        reader.forEach { group in
            var entry = group.recurse()
            guard let namespace = entry.string(), !ignored.contains(namespace) else { return }
            entry.next()
            entry.forEach { setting in
                var fields = setting.recurse()
                guard let key = fields.string() else { return }
                fields.next()
                var value = fields.recurse()
                var candidate = appearance
                if let setting = candidate.take(namespace: namespace, key: key, value: &value), taken.insert(setting).inserted {
                    appearance = candidate
                }
            }
        }
        return !taken.isEmpty
    }

    /// SettingChanged (s namespace, s key, v value).
    static func takeSettingChanged(_ reader: inout MessageReader, into appearance: inout Appearance,
                                   ignoring ignored: Set<String> = []) -> Bool {
        guard let namespace = reader.string(), !ignored.contains(namespace) else { return false }
        reader.next()
        guard let key = reader.string() else { return false }
        reader.next()
        var value = reader.recurse()
        return appearance.take(namespace: namespace, key: key, value: &value) != nil
    }
}
