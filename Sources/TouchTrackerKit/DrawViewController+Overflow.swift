// The narrow toolbar's More menu: New and the toggles, which the bar has no room for on a phone,
// in the host's popup (an xdg_popup, as the edit menu is) above the More button. Each item does
// what its button in the wide bar does; a toggle that is on carries a check mark.
import TouchKit

extension DrawViewController {
    /// The action each overflow item sends up the responder chain to the controller.
    static func overflowAction(_ item: ToolbarView.Item) -> Action { Action("toolbar.\(item)") }

    /// The controller answers the overflow menu's actions by acting as the button would.
    func wireOverflowMenu() {
        for item in ToolbarView.overflowItems {
            addActionHandler(Self.overflowAction(item)) { [unowned self] _, _ in
                self.toolbar.button(item).sendActions(for: .touchUpInside)
            }
        }
        toolbar.moreButton.addHandler(for: .touchUpInside) { [unowned self] _, _ in self.showOverflowMenu() }
    }

    /// The menu's items: each overflow control's words, checked when it is on; right to left,
    /// the first at the right (A12).
    var overflowMenuItems: [MenuController.Item] {
        toolbar.direction.ordered(ToolbarView.overflowItems).map { item in
            let button = toolbar.button(item)
            return MenuController.Item(title: (button.isOn ? "✓ " : "") + button.title, action: Self.overflowAction(item))
        }
    }

    func showOverflowMenu() {
        guard let menu = view.window?.application?.menuController else { return }
        if observedMenu !== menu {
            observedMenu = menu
            // More shows as on while its menu is open, as a menu button does; any other menu in
            // its place, or none, turns it off.
            menu.addVisibilityObserver { [weak self] visible in
                guard let self else { return }
                if !visible { self.showsOverflowMenu = false }
                self.toolbar.moreButton.isOn = visible && self.showsOverflowMenu
            }
        }
        // The canvas is the first responder the menu's actions start from; they travel up to
        // this controller.
        drawView.becomeFirstResponder()
        menu.menuItems = overflowMenuItems
        menu.setTargetRect(toolbar.moreButton.bounds, in: toolbar.moreButton)
        showsOverflowMenu = true
        menu.setMenuVisible(true)
        toolbar.moreButton.isOn = menu.isMenuVisible
    }
}
