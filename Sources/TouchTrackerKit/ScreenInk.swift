// How the drawing shows on screen in the window's style. A dark canvas shows the darkest inks
// light, as the dark styles of note-taking apps do: black, which most lines are, would otherwise
// vanish into the paper. Only the screen maps colours: the drawing, its files, the clipboard,
// exports and replays keep each line's own colour (docs/using.md, "Light and dark").
import TouchKit

public struct ScreenInk: Hashable, Sendable {
    /// The canvas under the lines.
    public let paper: Color
    /// Whether dark inks are shown light.
    public let lightensDarkInk: Bool
    /// How much wider than itself a selected line is drawn (``DrawView/selectionOutline`` at
    /// least): wider in high contrast, so the selection shows at a glance.
    public let selectionWidening: Double

    public init(_ appearance: Appearance) {
        paper = appearance.paper
        lightensDarkInk = appearance.isDark
        selectionWidening = appearance.highContrast ? 4 : DrawView.selectionOutline
    }

    /// Every line in its own colour on white paper: the light style, and every picture made of
    /// the drawing (exports, the clipboard's PNG and SVG).
    public static let trueColors = ScreenInk(.light)

    /// The lightest a dark ink is shown: a light grey that reads on the dark paper without glaring.
    static let lightest = 0.92

    /// `color` as the screen shows it. On a dark canvas a colour darker than mid-grey (lightness
    /// below a half, in HSL terms) is shown as light as it was dark, with its hue and chroma kept:
    /// black becomes light grey, navy a light blue, brown tan. The book's red and green, the
    /// palette's bright colours and every colour of the angle wheel are at a half or above, and
    /// stay as they are.
    public func color(_ color: Color) -> Color {
        guard lightensDarkInk else { return color }
        let high = max(color.red, color.green, color.blue), low = min(color.red, color.green, color.blue)
        let lightness = (high + low) / 2
        guard lightness < 0.5 else { return color }
        // Adding the same amount to each channel moves the lightness and keeps hue and chroma:
        // 1 - 2L takes it to 1 - L, capped at `lightest`.
        let shift = min(1 - 2 * lightness, Self.lightest - lightness)
        return Color(red: color.red + shift, green: color.green + shift, blue: color.blue + shift, alpha: color.alpha)
    }
}
