/// An action an element offers besides its main one (``View/accessibilityActivate()``): a line
/// offers Delete, say. A screen reader lists them by ``name``.
public final class AccessibilityCustomAction {
    /// What the action does, in the user's language.
    public let name: String
    private let handler: (AccessibilityCustomAction) -> Bool

    /// `handler` performs the action and returns whether it could.
    public init(name: String, actionHandler handler: @escaping (AccessibilityCustomAction) -> Bool) {
        self.name = name
        self.handler = handler
    }

    /// Performs the action; false when it could not be done (E6).
    @discardableResult
    public func perform() -> Bool { handler(self) }
}
