// How TouchKit's traits read as AT-SPI roles and states (the numbers of at-spi2-core's
// AtspiRole and AtspiStateType, which are part of the protocol). docs/accessibility.md has the
// table in words.
import TouchKit

enum AtspiRole: UInt32 {
    case canvas = 6, frame = 23, image = 27, label = 29, menuItem = 35, panel = 39, popupMenu = 41, pushButton = 43, slider = 51
    case toggleButton = 62, application = 75, heading = 83, link = 88

    /// English role names, as at-spi2-core's own list spells them.
    var name: String {
        switch self {
        case .canvas: "canvas"
        case .frame: "frame"
        case .image: "image"
        case .label: "label"
        case .menuItem: "menu item"
        case .popupMenu: "popup menu"
        case .panel: "panel"
        case .pushButton: "push button"
        case .slider: "slider"
        case .toggleButton: "toggle button"
        case .application: "application"
        case .heading: "heading"
        case .link: "link"
        }
    }

    /// The role of an element or container with these traits.
    init(traits: AccessibilityTraits, isElement: Bool) {
        if traits.contains(.toggleButton) { self = .toggleButton }
        else if traits.contains(.button) || traits.contains(.keyboardKey) { self = .pushButton }
        else if traits.contains(.link) { self = .link }
        else if traits.contains(.adjustable) { self = .slider }
        else if traits.contains(.header) { self = .heading }
        else if traits.contains(.image) { self = .image }
        else if traits.contains(.allowsDirectInteraction) && !isElement { self = .canvas }
        else if isElement { self = .label }
        else { self = .panel }
    }
}

/// A set of AT-SPI states, sent as two 32-bit words.
struct AtspiStates: Equatable {
    static let active = 1, checked = 4, defunct = 6, enabled = 8, focusable = 11, focused = 12, selectable = 22, selected = 23
    static let sensitive = 24, showing = 25, visible = 30, checkable = 41

    private(set) var bits: UInt64 = 0

    mutating func insert(_ state: Int) { bits |= 1 << UInt64(state) }
    func contains(_ state: Int) -> Bool { bits & (1 << UInt64(state)) != 0 }
    var words: [UInt32] { [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)] }

    /// The names state-change events carry, for the states the bridge follows.
    static let eventNames: [(Int, String)] = [
        (checked, "checked"), (selected, "selected"), (enabled, "enabled"), (sensitive, "sensitive"),
        (showing, "showing"), (visible, "visible"), (focused, "focused"),
    ]

    /// What an element shown on screen with these traits is: enabled unless `notEnabled`; a toggle
    /// checkable and checked while selected; anything else that can be selected selectable.
    init(traits: AccessibilityTraits, isElement: Bool) {
        insert(Self.showing)
        insert(Self.visible)
        // What the keyboard can reach: buttons, and a canvas whose lines it steps through.
        if traits.contains(.button) || traits.contains(.toggleButton) || traits.contains(.allowsDirectInteraction) {
            insert(Self.focusable)
        }
        if !traits.contains(.notEnabled) {
            insert(Self.enabled)
            insert(Self.sensitive)
        }
        if traits.contains(.toggleButton) {
            insert(Self.checkable)
            if traits.contains(.selected) { insert(Self.checked) }
        } else if isElement, !traits.contains(.button) {
            insert(Self.selectable)
            if traits.contains(.selected) { insert(Self.selected) }
        } else if traits.contains(.selected) {
            insert(Self.selected)
        }
    }

    init() {}
}
