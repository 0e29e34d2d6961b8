/// The desktop's style as the window shows it: light or dark, its accent colour, whether it asks
/// for high contrast, and its icon theme. The host reads it from the desktop and sets ``Window/appearance``;
/// every view reads its colours from here (UIKit's trait collection, narrowed to what a Linux
/// desktop says), so one change repaints the whole window in the new style.
public struct Appearance: Hashable, Sendable {
    public enum Scheme: Hashable, Sendable { case light, dark }

    public var scheme: Scheme
    /// The desktop's accent colour, nil when it names none (the app's blue then).
    public var accent: Color?
    public var highContrast: Bool
    /// The desktop's icon theme ("Adwaita", "breeze"), nil when it names none.
    public var iconTheme: String?
    /// The desktop asks for less motion (UIKit's `isReduceMotionEnabled`): content that a flick
    /// would carry on or a spring would bring back goes straight to where it rests (S4, S5, S12).
    public var reduceMotion: Bool

    public init(scheme: Scheme = .light, accent: Color? = nil, highContrast: Bool = false, iconTheme: String? = nil,
                reduceMotion: Bool = false) {
        self.scheme = scheme
        self.accent = accent
        self.highContrast = highContrast
        self.iconTheme = iconTheme
        self.reduceMotion = reduceMotion
    }

    /// What a window shows with no desktop to ask.
    public static let light = Appearance()

    public var isDark: Bool { scheme == .dark }

    // MARK: Colours of the window's parts

    /// What is on (the tool, the toggles), and the focus.
    public var accentColor: Color { accent ?? Color(hex: 0x3584E4) }
    /// Text and symbols on the window's bars.
    public var foreground: Color {
        isDark ? (highContrast ? .white : Color(hex: 0xF0F0F0)) : (highContrast ? .black : Color(hex: 0x2E2E2E))
    }
    /// Text and symbols on the accent colour: whichever of white and near black reads better on it.
    public var onAccent: Color { Self.luminance(accentColor) > 0.45 ? Color(hex: 0x1A1A1A) : .white }
    /// The toolbar and the title bar.
    public var barBackground: Color { isDark ? Color(hex: 0x303030) : Color(hex: 0xEBEBEB) }
    /// A button that is off: a shade of the bar it sits on.
    public var controlFill: Color {
        if highContrast { return isDark ? Color(hex: 0x525252) : Color(hex: 0xC7C7C7) }
        return isDark ? Color(hex: 0x464646) : Color(hex: 0xD6D6D6)
    }
    /// The line between a bar and the canvas, and around controls in high contrast.
    public var separator: Color {
        if highContrast { return isDark ? Color(hex: 0xD9D9D9) : Color(hex: 0x1A1A1A) }
        return isDark ? Color(hex: 0x1C1C1C) : Color(hex: 0xC8C8C8)
    }
    /// How wide outlines and the selection's rim are drawn: wider in high contrast.
    public var outlineWidth: Double { highContrast ? 2 : 1 }
    /// The canvas under the lines.
    public var paper: Color { isDark ? Color(hex: 0x1E1E1E) : .white }
    /// The palette's strip over the canvas.
    public var paletteBackground: Color {
        isDark ? Color(hex: 0x2A2A2A).withAlpha(0.96) : Color(white: 0.97, alpha: 0.96)
    }
    /// The edit menu and the overflow menu: dark on light windows, a lighter grey on dark ones, so
    /// that it stands out from the window either way.
    public var menuBackground: Color {
        isDark ? Color(hex: 0x3A3A3A).withAlpha(0.97) : Color(red: 0.11, green: 0.11, blue: 0.12, alpha: 0.94)
    }
    public var menuHighlight: Color { isDark ? Color(hex: 0x5A5A5A) : Color(red: 0.35, green: 0.35, blue: 0.38) }
    /// Banners: a notice, and an error.
    public var bannerInfo: Color { isDark ? Color(hex: 0x45505A) : Color(hex: 0x263238) }
    public var bannerError: Color { isDark ? Color(hex: 0xC01C28) : Color(hex: 0xB3261E) }

    /// About the relative luminance of a colour: its sRGB values squared (close enough to the
    /// 2.4 power of WCAG's formula to choose between light and dark, and needing no libm).
    public static func luminance(_ color: Color) -> Double {
        0.2126 * color.red * color.red + 0.7152 * color.green * color.green + 0.0722 * color.blue * color.blue
    }
}
