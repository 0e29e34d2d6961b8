// The window's style from what the desktop says (xdg-desktop-portal's appearance settings, as
// plain numbers), and from TOUCHTRACKER_STYLE, which overrides it: for a desktop with no portal
// (Weston, Sway) and for screenshots of each style.
import TouchKit

extension Appearance {
    /// The portal's `color-scheme` (1: prefer dark), `accent-color`, `contrast` (1: high), icon
    /// theme and whether animations are off; what it does not say stays as in the light style.
    public init(colorScheme: UInt32?, accent: (red: Double, green: Double, blue: Double)?, contrast: UInt32?,
                iconTheme: String? = nil, reduceMotion: Bool? = nil) {
        self.init(scheme: colorScheme == 1 ? .dark : .light,
                  accent: accent.map { Color(red: $0.red, green: $0.green, blue: $0.blue) },
                  highContrast: contrast == 1, iconTheme: iconTheme, reduceMotion: reduceMotion ?? false)
    }

    /// `style` with the words of `TOUCHTRACKER_STYLE` applied, comma-separated: `light`, `dark`,
    /// `high-contrast`, `reduce-motion`, `accent=RRGGBB`, `icons=THEME`. Words it does not know are returned, for a warning.
    public static func overriding(_ style: Appearance, with words: String) -> (Appearance, unknown: [String]) {
        var result = style, unknown: [String] = []
        for word in words.split(separator: ",").map({ $0.trimmingCharacters() }) where !word.isEmpty {
            switch word {
            case "light": result.scheme = .light
            case "dark": result.scheme = .dark
            case "high-contrast": result.highContrast = true
            case "reduce-motion": result.reduceMotion = true
            case _ where word.hasPrefix("icons="):
                result.iconTheme = String(word.dropFirst("icons=".count))
            default:
                let hex = word.hasPrefix("accent=") ? word.dropFirst("accent=".count).drop { $0 == "#" } : ""
                if hex.count == 6, let value = UInt32(hex, radix: 16) {
                    result.accent = Color(hex: value)
                } else {
                    unknown.append(word)
                }
            }
        }
        return (result, unknown)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
