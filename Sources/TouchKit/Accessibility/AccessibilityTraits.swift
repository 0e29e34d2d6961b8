/// What kind of thing an accessibility element is and what state it is in, as a screen reader
/// says it ("Undo, button, dimmed"). Several combine: a chosen tool is `[.button, .selected]`.
///
/// The platform layer turns traits into the desktop's roles and states (AT-SPI's push button,
/// checked, insensitive...); docs/accessibility.md has the table.
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Pressing it does something.
    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    /// Following it opens a link.
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    /// It is a picture.
    public static let image = AccessibilityTraits(rawValue: 1 << 2)
    /// It is chosen now: the current tool, a toggle that is on, the selected line.
    public static let selected = AccessibilityTraits(rawValue: 1 << 3)
    /// It cannot be used now (a disabled control).
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 4)
    /// Text that does not change.
    public static let staticText = AccessibilityTraits(rawValue: 1 << 5)
    /// A heading over the content that follows it.
    public static let header = AccessibilityTraits(rawValue: 1 << 6)
    /// Its value goes up and down (``View/accessibilityIncrement()``, ``View/accessibilityDecrement()``).
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 7)
    /// Its value changes often by itself: tools read it again rather than remember it.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 8)
    /// Text the user can search in.
    public static let searchField = AccessibilityTraits(rawValue: 1 << 9)
    /// Playing a sound of its own: tools keep quiet while it does.
    public static let playsSound = AccessibilityTraits(rawValue: 1 << 10)
    /// A keyboard key.
    public static let keyboardKey = AccessibilityTraits(rawValue: 1 << 11)
    /// A summary read when the app starts.
    public static let summaryElement = AccessibilityTraits(rawValue: 1 << 12)
    /// Touched directly rather than through a tool's gestures (a drawing surface, a piano).
    public static let allowsDirectInteraction = AccessibilityTraits(rawValue: 1 << 13)
    /// Activating it moves to the next page.
    public static let causesPageTurn = AccessibilityTraits(rawValue: 1 << 14)
    /// A tab of a tab bar.
    public static let tabBar = AccessibilityTraits(rawValue: 1 << 15)
    /// A toggle: a button that stays on or off (reported with ``selected`` when on).
    public static let toggleButton = AccessibilityTraits(rawValue: 1 << 16)
}
