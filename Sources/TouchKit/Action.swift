/// The name of an action message, TouchKit's stand-in for an Objective-C selector.
///
/// Swift on Linux has no `perform(_:)` by name, so an action is a plain value and a responder says
/// what it can do in one of two ways:
/// - register a closure with ``Responder/addActionHandler(_:_:)`` (easiest for app code), or
/// - override ``Responder/canPerformAction(_:withSender:)`` and ``Responder/perform(_:sender:event:)``
///   (for reusable subclasses, where a stored closure capturing `self` would be a retain cycle).
///
/// Declare actions once, as static members, so a typo is a compile error:
/// ```swift
/// extension Action {
///     static let delete: Action = "delete"
/// }
/// ```
public struct Action: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The message name, e.g. `"delete"` or `"paletteColorChosen"`.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral value: String) {
        self.name = value
    }

    public var description: String { name }

    /// Standard edit actions, as the menu uses them.
    public static let cut: Action = "cut"
    public static let copy: Action = "copy"
    public static let paste: Action = "paste"
    public static let delete: Action = "delete"
    public static let selectAll: Action = "selectAll"
    public static let undo: Action = "undo"
}

/// Something that action messages can be sent to: every ``Responder``, and any other object that
/// wants to be a control's target without joining the responder chain (a model controller, say).
public protocol ActionTarget: AnyObject {
    /// Whether this object handles `action` now.
    func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool
    /// Handles `action`. Called only after ``canPerformAction(_:withSender:)`` returned true.
    func perform(_ action: Action, sender: Any?, event: Event?)
}
