// The styling maths of the book's chapter challenges and of the pen: how a stroke's colour follows
// its direction, how its width follows a finger's speed or a pen's pressure. Every result is in
// the steps a stroke stores compactly (8 bits a colour channel, 1/64 pt of width).
#if canImport(Glibc)
import Glibc
#endif
import TouchKit

extension DrawView {
    /// A pen's line width from its pressure (0...1): light strokes thin, firm ones thick. A pen
    /// that reports no pressure draws the default width. In 1/64 pt steps, which a stroke stores
    /// compactly.
    public static func penWidth(force: Double) -> Double {
        force > 0 ? ((3 + 17 * min(force, 1)) * 64).rounded() / 64 : lineWidth
    }

    /// The colour for a line at `angle` radians: the hue wheel, full saturation, in 8 bits a
    /// channel (what the screen shows, and what a stroke stores compactly).
    public static func color(forAngle angle: Double) -> Color {
        var hue = angle / (2 * Double.pi)
        hue -= hue.rounded(.down)
        let h = hue * 6, sector = Int(h) % 6, step = ((h - Double(Int(h))) * 255).rounded()
        // Both computed as n / 255, so that each is exactly an 8-bit value.
        let f = step / 255, rest = (255 - step) / 255
        switch sector {
        case 0: return Color(red: 1, green: f, blue: 0)
        case 1: return Color(red: rest, green: 1, blue: 0)
        case 2: return Color(red: 0, green: 1, blue: f)
        case 3: return Color(red: 0, green: rest, blue: 1)
        case 4: return Color(red: f, green: 0, blue: 1)
        default: return Color(red: 1, green: 0, blue: rest)
        }
    }

    /// The width for a finger that moved at `speed` points per second: 4 pt slow, up to 30 fast,
    /// in 1/64 pt steps (which a stroke stores compactly).
    public static func width(forSpeed speed: Double) -> Double {
        (min(30, max(4, 4 + speed / 40)) * 64).rounded() / 64
    }
}
