// Object paths for the things a tool sees: the application at AT-SPI's root path, the window and
// every view or element under it at a number of their own, kept while the object lives (a tool
// holds on to a line by its path while it moves). Objects are held weakly: the app owns them.
import TouchKit

/// What a path names: the application, or one accessible object (the window or something in it).
enum AtspiNode {
    case application
    case object(Accessible)
}

final class AtspiObjects {
    private struct Entry {
        weak var object: Accessible?
    }

    private static let prefix = "/org/a11y/atspi/accessible/"
    private var numbers: [ObjectIdentifier: Int] = [:]
    private var entries: [Int: Entry] = [:]
    private var next = 1
    let window: Window
    /// The edit menu's name for tools, and the menu while it shows (MenuAccessibility.swift).
    let menuName: String
    var menuPopup: MenuPopupElement?

    init(window: Window, menuName: String) {
        self.window = window
        self.menuName = menuName
    }

    /// The path of `object`, numbering it on first sight.
    func path(of object: Accessible) -> String {
        let key = ObjectIdentifier(object)
        if let number = numbers[key], entries[number]?.object === object { return Self.prefix + String(number) }
        let number = next
        next += 1
        // Objects come and go (lines deleted, undone): now and then the dead are forgotten.
        if number % 1024 == 0 { sweep() }
        numbers[key] = number
        entries[number] = Entry(object: object)
        return Self.prefix + String(number)
    }

    /// What `path` names, or nil for a path never handed out or whose object is gone.
    func node(at path: String) -> AtspiNode? {
        if path == AccessibilityBus.rootPath { return .application }
        guard path.hasPrefix(Self.prefix), let number = Int(path.dropFirst(Self.prefix.count)) else { return nil }
        guard let object = entries[number]?.object else {
            entries[number] = nil
            return nil
        }
        return .object(object)
    }

    /// Forgets objects that are gone.
    func sweep() {
        for (number, entry) in entries where entry.object == nil { entries[number] = nil }
        numbers = numbers.filter { entries[$0.value] != nil }
    }

    // MARK: The tree as a tool sees it

    func children(of node: AtspiNode) -> [Accessible] {
        switch node {
        case .application: [window] + (shownMenu(name: menuName).map { [$0] } ?? [])
        case .object(let object): object.accessibilityChildren
        }
    }

    /// The parent's node: the window's is the application.
    func parent(of object: Accessible) -> AtspiNode? {
        if object === window || object is MenuPopupElement { return .application }
        return object.accessibilityParent.map { .object($0) } ?? .application
    }
}
