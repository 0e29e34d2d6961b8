/// The edit menu of UIKit's `UIMenuController` (M1): a few titled actions shown next to a target
/// rectangle, offering only what the first responder chain can perform now.
///
/// One per application (`application.menuController`). TouchKit decides what the menu holds and
/// when it shows; a ``MenuPresenter`` set by the host puts it on screen (on Wayland an
/// `xdg_popup`, M2) and reports back when the user picks an item or dismisses it.
public final class MenuController {
    /// One entry: a title and the action sent through the responder chain when it is chosen.
    public struct Item: Hashable, Sendable {
        public var title: String
        public var action: Action
        public init(title: String, action: Action) {
            self.title = title
            self.action = action
        }
    }

    /// The items the menu may show; ``visibleItems`` filters them.
    public var menuItems: [Item] = []
    /// Whether the menu is on screen.
    public private(set) var isMenuVisible = false {
        didSet { if isMenuVisible != oldValue { for observer in visibilityObservers { observer(isMenuVisible) } } }
    }
    private var visibilityObservers: [(Bool) -> Void] = []

    /// Calls `observer` with the menu's visibility each time it shows or hides (UIKit's
    /// `didShowMenuNotification` and `didHideMenuNotification`), as a control that opened it
    /// shows itself pressed while its menu is open.
    public func addVisibilityObserver(_ observer: @escaping (Bool) -> Void) {
        visibilityObservers.append(observer)
    }
    /// Where the menu points, in window coordinates, and the window.
    public private(set) var targetRect: Rect = .zero
    public var targetWindow: Window? { targetWindowLink.view }
    private var targetWindowLink = ViewLink<Window>(nil)
    /// The host's on-screen menu. Without one the menu is tracked but not drawn (tests).
    public var presenter: MenuPresenter?

    unowned let application: Application

    init(application: Application) {
        self.application = application
    }

    /// Sets the rectangle the menu points at, given in `view`'s coordinates.
    public func setTargetRect(_ rect: Rect, in view: View) {
        targetRect = view.convert(rect, to: nil)
        targetWindowLink = ViewLink(view.window)
    }

    /// The items whose action someone in the first responder chain can perform now (M1).
    public var visibleItems: [Item] {
        menuItems.filter { item in
            let start = targetWindow?.firstResponder ?? application.keyWindow?.firstResponder
            return start?.target(forAction: item.action, withSender: self) != nil
        }
    }

    /// Shows or hides the menu (UIKit's `setMenuVisible(_:animated:)`). Showing with no item the
    /// responder chain can perform shows nothing, as in UIKit.
    public func setMenuVisible(_ visible: Bool) {
        if visible {
            let items = visibleItems
            guard !items.isEmpty, let window = targetWindow else {
                setMenuVisible(false)
                return
            }
            if isMenuVisible {
                // Another menu in its place: observers see the old one go and the new one come.
                presenter?.dismissMenu()
                isMenuVisible = false
            }
            isMenuVisible = true
            presenter?.presentMenu(items, pointingAt: targetRect, in: window)
        } else {
            guard isMenuVisible else { return }
            isMenuVisible = false
            presenter?.dismissMenu()
        }
    }

    /// The presenter reports the user's choice: the menu hides and the item's action travels the
    /// first responder chain, re-checked now as UIKit does (M1).
    public func choose(_ item: Item) {
        setMenuVisible(false)
        let start = targetWindow?.firstResponder ?? application.keyWindow?.firstResponder
        guard let responder = start?.target(forAction: item.action, withSender: self) else { return }
        responder.perform(item.action, sender: self, event: nil)
    }

    /// The presenter reports that the platform dismissed the menu (a tap elsewhere, `popup_done`).
    public func menuWasDismissed() {
        isMenuVisible = false
    }
}

/// Puts a ``MenuController``'s menu on screen; implemented by the host.
public protocol MenuPresenter: AnyObject {
    /// Shows `items` next to `rect` (window coordinates) of `window`.
    func presentMenu(_ items: [MenuController.Item], pointingAt rect: Rect, in window: Window)
    /// Removes the menu from the screen.
    func dismissMenu()
}
