// The edit menu (TouchKit's MenuController, shown by the host in a popup surface of its own) as
// tools see it: while it shows, a popup menu beside the window under the application, its items
// menu items whose action picks them as a tap would.
import TouchKit

/// The shown menu: its items are its children.
final class MenuPopupElement: AccessibilityElement {
    let items: [MenuController.Item]
    private(set) var itemElements: [MenuItemElement] = []

    init(menu: MenuController, window: Window, name: String) {
        items = menu.visibleItems
        super.init(accessibilityContainer: window)
        accessibilityLabel = name
        isAccessibilityElement = false
        accessibilityFrame = menu.targetRect
        itemElements = items.map { MenuItemElement(item: $0, menu: menu, popup: self) }
        accessibilityElements = itemElements
    }
}

/// One item of the shown menu.
final class MenuItemElement: AccessibilityElement {
    private let item: MenuController.Item
    private weak var menu: MenuController?

    init(item: MenuController.Item, menu: MenuController, popup: MenuPopupElement) {
        self.item = item
        self.menu = menu
        super.init(accessibilityContainer: popup)
        accessibilityLabel = item.title
        accessibilityTraits = .button
        accessibilityFrame = menu.targetRect
    }

    /// Picks the item, as a tap on it does (M1).
    override func accessibilityActivate() -> Bool {
        guard let menu, menu.isMenuVisible else { return false }
        menu.choose(item)
        return true
    }
}

extension AtspiObjects {
    /// The popup for `window`'s menu while it shows, kept while it shows the same items.
    func shownMenu(name: String) -> MenuPopupElement? {
        guard let menu = window.application?.menuController, menu.isMenuVisible, menu.targetWindow === window else {
            menuPopup = nil
            return nil
        }
        if let popup = menuPopup, popup.items == menu.visibleItems { return popup }
        menuPopup = MenuPopupElement(menu: menu, window: window, name: name)
        return menuPopup
    }
}
