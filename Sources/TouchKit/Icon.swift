/// A symbolic icon: the names the desktop's icon theme may know it by (freedesktop icon naming),
/// tried in order, and the app's own drawing of it, used when the theme has none. Drawn in one
/// colour, as desktops draw symbolic icons (``GraphicsContext/drawIcon(_:in:color:theme:)``).
public struct Icon: Hashable, Sendable {
    public var names: [String]
    /// SVG source, the app's own work: a 16-unit view box, shapes in any opaque colour.
    public var fallback: String

    public init(names: [String], fallback: String) {
        self.names = names
        self.fallback = fallback
    }
}

extension GraphicsContext {
    /// Contexts that draw no icons (test stand-ins) draw nothing.
    public func drawIcon(_ icon: Icon, in rect: Rect, color: Color, theme: String?) {}
}
