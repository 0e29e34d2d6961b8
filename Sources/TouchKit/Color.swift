/// A colour with red, green, blue and alpha components between 0 and 1 (sRGB, not premultiplied).
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey: `white` 0 is black, 1 is white.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// An opaque colour from `0xRRGGBB`, the notation designers hand over. Bits above 24 are ignored.
    public init(hex: UInt32) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255,
            green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255,
            alpha: 1)
    }

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let gray = Color(white: 0.5)
    public static let lightGray = Color(white: 2.0 / 3.0)
    public static let darkGray = Color(white: 1.0 / 3.0)
    /// `#FF0000`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// `#00FF00` (full green, as in UIKit, not CSS's darker `green`).
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// `#0000FF`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Fully transparent black.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    public var description: String { "Color(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}
