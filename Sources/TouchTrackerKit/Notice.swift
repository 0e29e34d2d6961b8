// What the app has to tell the user, and who shows it. The document and the canvas say what (a
// save that fails, a file that could not be read, where an export went, a paste declined); the
// view side shows it, across the top of the canvas (BannerView), so the drawing's model knows no
// view.

/// A message for the user, in the user's language, and how it is shown.
public struct Notice: Equatable, Sendable {
    public enum Style: Equatable, Sendable {
        /// Something the user must know: saving fails, a file was unreadable.
        case error
        /// A confirmation: an export was written.
        case info
    }

    public var text: String
    public var style: Style

    public init(_ text: String, style: Style) {
        self.text = text
        self.style = style
    }
}

/// Shows the notice a ``DrawingDocument`` has for the user (the app's screen, in its banner).
public protocol NoticeDisplay: AnyObject {
    /// Shows `notice` in place of the one shown so far; nil shows none.
    func show(_ notice: Notice?)
}
