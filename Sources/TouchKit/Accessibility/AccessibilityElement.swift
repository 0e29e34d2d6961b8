/// An element a tool sees that is no view: a thing a view draws inside itself, such as a line on
/// the canvas (UIKit's `UIAccessibilityElement`). Its container lists it in
/// ``View/accessibilityElements``.
open class AccessibilityElement: Accessible {
    /// The view (or element) that lists this one; held weakly, as the container owns its elements.
    public weak var accessibilityContainer: Accessible?

    open var isAccessibilityElement = true
    open var accessibilityLabel: String?
    open var accessibilityValue: String?
    open var accessibilityHint: String?
    open var accessibilityIdentifier: String?
    open var accessibilityTraits: AccessibilityTraits = []
    open var accessibilityElements: [Accessible]?
    open var accessibilityCustomActions: [AccessibilityCustomAction] = []

    /// Where the element is in its container's coordinates (E4): it follows the container when
    /// that moves.
    open var accessibilityFrameInContainerSpace: Rect = .zero

    private var explicitFrame: Rect?

    public init(accessibilityContainer: Accessible) {
        self.accessibilityContainer = accessibilityContainer
    }

    /// In window coordinates: set directly, or ``accessibilityFrameInContainerSpace`` converted
    /// through the container (a view, or an element whose frame gives the origin) (E4).
    open var accessibilityFrame: Rect {
        get {
            if let explicitFrame { return explicitFrame }
            let local = accessibilityFrameInContainerSpace
            if let view = accessibilityContainer as? View { return view.convert(local, to: nil) }
            let origin = accessibilityContainer?.accessibilityFrame.origin ?? .zero
            return local.offsetBy(dx: origin.x, dy: origin.y)
        }
        set { explicitFrame = newValue }
    }

    public var accessibilityChildren: [Accessible] {
        isAccessibilityElement ? [] : accessibilityElements ?? []
    }

    public var accessibilityParent: Accessible? { accessibilityContainer }

    /// Default: no main action.
    open func accessibilityActivate() -> Bool { false }
    open func accessibilityIncrement() {}
    open func accessibilityDecrement() {}
}
