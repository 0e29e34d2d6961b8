/// Anything an assistive tool can see: a ``View`` or an ``AccessibilityElement`` (UIKit's
/// informal `UIAccessibility` protocol, which every `NSObject` answers).
///
/// The tree a tool sees (E2): a window's ``accessibilityChildren`` are the nearest elements and
/// containers under it, in subview order (back to front); an element hides what lies inside it;
/// a view with ``accessibilityElements`` shows those instead of its subviews; a view that is
/// neither an element nor labelled is passed through, its children standing in its place.
public protocol Accessible: AnyObject {
    /// Whether a tool sees this as one element (it then hides its subviews).
    var isAccessibilityElement: Bool { get }
    /// Its name, in the user's language: "Undo".
    var accessibilityLabel: String? { get }
    /// Its current value, when it has one: "black", "40 %".
    var accessibilityValue: String? { get }
    /// What happens when it is activated, when the name does not say it.
    var accessibilityHint: String? { get }
    /// A name for tests and tools that does not change with the language.
    var accessibilityIdentifier: String? { get }
    /// Its kind and state (E3).
    var accessibilityTraits: AccessibilityTraits { get }
    /// Where it is, in window coordinates.
    var accessibilityFrame: Rect { get }
    /// The elements drawn inside it, in reading order, or nil when its subviews are its content.
    var accessibilityElements: [Accessible]? { get }
    /// Actions it offers besides activation (E6).
    var accessibilityCustomActions: [AccessibilityCustomAction] { get }
    /// The children a tool sees (E2).
    var accessibilityChildren: [Accessible] { get }
    /// The container a tool sees it in, nil for a window.
    var accessibilityParent: Accessible? { get }
    /// Performs the main action, as a tap would; false when it has none (E5).
    func accessibilityActivate() -> Bool
    /// Steps an adjustable element's value up.
    func accessibilityIncrement()
    /// Steps an adjustable element's value down.
    func accessibilityDecrement()
}

extension Accessible {
    /// Whether a tool shows it as a container of its own (it has elements drawn inside it or a
    /// label), rather than passing through to its children.
    public var isAccessibilityContainer: Bool {
        !isAccessibilityElement && (accessibilityElements != nil || accessibilityLabel != nil)
    }

    /// The index of `child` among ``accessibilityChildren``, or nil.
    public func indexOfAccessibilityChild(_ child: Accessible) -> Int? {
        accessibilityChildren.firstIndex { $0 === child }
    }
}

extension View: Accessible {
    /// The children a tool sees (E2): none for an element, ``accessibilityElements`` where set,
    /// else the visible subviews that are elements or containers, with the children of the others
    /// in their place. Hidden views, views below alpha 0.01 and views with
    /// ``accessibilityElementsHidden`` are left out with what lies inside them.
    public var accessibilityChildren: [Accessible] {
        if isAccessibilityElement { return [] }
        if let elements = accessibilityElements { return elements }
        var children: [Accessible] = []
        for sub in subviews where sub.isShownToAccessibility {
            if sub.isAccessibilityElement || sub.isAccessibilityContainer {
                children.append(sub)
            } else {
                children.append(contentsOf: sub.accessibilityChildren)
            }
        }
        return children
    }

    /// The nearest superview a tool sees (an element or a container), or the window.
    public var accessibilityParent: Accessible? {
        var view = superview
        while let v = view {
            if v is Window || v.isAccessibilityElement || v.isAccessibilityContainer { return v }
            view = v.superview
        }
        return nil
    }

    var isShownToAccessibility: Bool {
        !isHidden && alpha >= 0.01 && !accessibilityElementsHidden
    }
}
