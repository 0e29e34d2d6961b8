// What the desktop says about its style, from the portal's settings: the standard appearance keys,
// and where Debian 12's portals lack them, the desktops' own settings the same portal passes on
// (GNOME's high-contrast switch, Plasma's accent colour). A standard key, when a portal has it,
// counts over a desktop's own.
import CDBus
import DBusMessages

extension SettingsPortal {
    /// What the desktop says about its style; nil where it says nothing.
    public struct Appearance: Equatable, Sendable {
        /// 0: no preference, 1: prefer dark, 2: prefer light.
        public var colorScheme: UInt32?
        /// sRGB, each 0...1.
        public var accentColor: (red: Double, green: Double, blue: Double)? {
            get { standardAccent ?? desktopAccent }
            set { standardAccent = newValue }
        }
        /// 0: no preference, 1: high contrast.
        public var contrast: UInt32? {
            get { standardContrast ?? desktopContrast }
            set { standardContrast = newValue }
        }
        /// The icon theme's name.
        public var iconTheme: String?
        /// Whether the desktop turned its animations off: GNOME's `enable-animations` false,
        /// Plasma's animation speed at its instant end (`AnimationDurationFactor` 0).
        public var reduceMotion: Bool?

        private var standardAccent, desktopAccent: (red: Double, green: Double, blue: Double)?
        private var standardContrast, desktopContrast: UInt32?

        public init(colorScheme: UInt32? = nil, accentColor: (red: Double, green: Double, blue: Double)? = nil,
                    contrast: UInt32? = nil, iconTheme: String? = nil) {
            self.colorScheme = colorScheme
            standardAccent = accentColor
            standardContrast = contrast
            self.iconTheme = iconTheme
        }

        public static func == (a: Appearance, b: Appearance) -> Bool {
            a.colorScheme == b.colorScheme && a.contrast == b.contrast && a.iconTheme == b.iconTheme && a.reduceMotion == b.reduceMotion
                && a.accentColor.map { [$0.red, $0.green, $0.blue] } == b.accentColor.map { [$0.red, $0.green, $0.blue] }
        }

        /// The settings read, by where they come from.
        enum Setting: Hashable { case colorScheme, accentColor, contrast, iconTheme, desktopAccent, desktopContrast, reduceMotion }

        /// Takes one setting and says which; nil for a namespace or key it does not know or a
        /// value of the wrong type (which changes nothing).
        mutating func take(namespace: String, key: String, value reader: inout MessageReader) -> Setting? {
            switch (namespace, key) {
            case (SettingsPortal.gnomeInterface, "icon-theme"), (SettingsPortal.kdeIcons, "Theme"):
                guard let name = reader.string(), !name.isEmpty else { return nil }
                iconTheme = name
                return .iconTheme
            case (SettingsPortal.gnomeInterface, "enable-animations"):
                guard let on = reader.boolean() else { return nil }
                reduceMotion = !on
                return .reduceMotion
            case (SettingsPortal.kdeKDE, "AnimationDurationFactor"):
                // KConfig's text of a number: 0 is Plasma's "Instant" animation speed.
                guard let text = reader.string() else { return nil }
                guard let factor = Double(text.filter { $0 != " " }), factor.isFinite else { return nil }
                reduceMotion = factor <= 0
                return .reduceMotion
            case (SettingsPortal.gnomeA11y, "high-contrast"):
                // GNOME's Accessibility > High Contrast (43 has no contrast key in the portal).
                guard let on = reader.boolean() else { return nil }
                desktopContrast = on ? 1 : 0
                return .desktopContrast
            case (SettingsPortal.kdeGeneral, "AccentColor"):
                // Plasma's chosen accent colour, "r,g,b" (0-255) or "#rrggbb"; none when empty.
                guard let text = reader.string() else { return nil }
                desktopAccent = Self.kdeColor(text)
                return .desktopAccent
            case (SettingsPortal.namespace, _):
                return takeStandard(key: key, value: &reader)
            default:
                return nil
            }
        }

        private mutating func takeStandard(key: String, value reader: inout MessageReader) -> Setting? {
            switch key {
            case "color-scheme":
                guard let value = reader.uint32() else { return nil }
                colorScheme = value
                return .colorScheme
            case "contrast":
                guard let value = reader.uint32() else { return nil }
                standardContrast = value
                return .contrast
            case "accent-color":
                guard reader.type == tt_dbus_type_struct else { return nil }
                var fields = reader.recurse()
                var channels: [Double] = []
                while let value = fields.double() {
                    channels.append(value)
                    fields.next()
                }
                // Out of range means no accent (the specification's way of saying none).
                guard channels.count == 3, channels.allSatisfy({ (0...1).contains($0) }) else {
                    standardAccent = nil
                    return .accentColor
                }
                standardAccent = (channels[0], channels[1], channels[2])
                return .accentColor
            default:
                return nil
            }
        }

        /// A colour as KConfig writes it: "224,27,36" (an alpha after may follow) or "#e01b24".
        static func kdeColor(_ text: String) -> (red: Double, green: Double, blue: Double)? {
            let trimmed = text.filter { $0 != " " }
            if trimmed.hasPrefix("#"), trimmed.count == 7, let value = UInt32(trimmed.dropFirst(), radix: 16) {
                return (Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
            }
            let parts = trimmed.split(separator: ",").map { Int($0) }
            guard parts.count == 3 || parts.count == 4, parts.allSatisfy({ $0.map { (0...255).contains($0) } ?? false }) else { return nil }
            return (Double(parts[0]!) / 255, Double(parts[1]!) / 255, Double(parts[2]!) / 255)
        }
    }
}
