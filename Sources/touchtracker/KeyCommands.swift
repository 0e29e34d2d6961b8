// The app's keyboard shortcuts in one table: add a line to the list in TouchTracker.run() for a
// new command.
import WaylandHost

/// A shortcut: a key, the modifiers held with it (exactly: Ctrl+Shift+E is not Ctrl+E), and
/// what it does.
struct KeyCommand {
    /// The key's XKB name in lowercase ("q", "e", "delete", "escape").
    let key: String
    let modifiers: KeyPress.Modifiers
    /// What the command does, for help texts and menus.
    let title: String
    let action: () -> Void

    init(_ key: String, modifiers: KeyPress.Modifiers, _ title: String, action: @escaping () -> Void) {
        self.key = key
        self.modifiers = modifiers
        self.title = title
        self.action = action
    }

    func matches(_ press: KeyPress) -> Bool {
        press.modifiers == modifiers && press.name.lowercased() == key
    }
}

/// The shortcuts, matched in order.
struct KeyCommands {
    let commands: [KeyCommand]

    init(_ commands: [KeyCommand]) { self.commands = commands }

    /// Runs the first command matching `press`; returns whether one did.
    @discardableResult
    func perform(_ press: KeyPress) -> Bool {
        guard let command = commands.first(where: { $0.matches(press) }) else { return false }
        command.action()
        return true
    }
}
