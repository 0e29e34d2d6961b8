/// What an app tells assistive tools about changes they cannot see in the tree by themselves
/// (E7). The platform layer receives them through ``Window/accessibilityNotificationHandler``.
public enum AccessibilityNotification {
    /// Part of the screen changed (an element appeared, went or moved); `focus` is the element
    /// the tool should move to, if any.
    case layoutChanged(focus: Accessible?)
    /// Most of the screen changed (a new drawing, a menu opened); `focus`, if any, is read first.
    case screenChanged(focus: Accessible?)
    /// Words to be read out now, without moving the tool's focus (a banner's message).
    case announcement(String)
}

extension View {
    /// Hands `notification` to the platform layer through the window's
    /// ``Window/accessibilityNotificationHandler`` (E7). A view outside a window, or in a window
    /// nobody listens to, posts nothing. UIKit posts through a global call; TouchKit has no shared
    /// application, so the view says which window the change is in.
    public func postAccessibilityNotification(_ notification: AccessibilityNotification) {
        window?.accessibilityNotificationHandler?(notification)
    }
}
