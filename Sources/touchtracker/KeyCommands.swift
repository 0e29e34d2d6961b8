// The app's keyboard shortcuts in one table: add a line to the list in TouchTracker.run() for a
// new command.
import TouchTrackerKit
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

extension KeyCommands {
    /// The app's shortcuts: the live app's, and a replay's (which quits and exports nothing).
    static func app(controller: DrawViewController, quit: @escaping () -> Void, export: @escaping () -> Void) -> KeyCommands {
        KeyCommands([
            KeyCommand("q", modifiers: .control, "Quit", action: quit),
            KeyCommand("e", modifiers: .control, "Export the drawing as PNG and SVG next to its file", action: export),
            KeyCommand("delete", modifiers: [], "Delete the selected line") { controller.perform(.deleteSelection) },
            KeyCommand("backspace", modifiers: [], "Delete the selected line") { controller.perform(.deleteSelection) },
            KeyCommand("escape", modifiers: [], "Deselect the line and hide the menu") { controller.perform(.cancel) },
            KeyCommand("z", modifiers: .control, "Undo") { controller.perform(.undo) },
            KeyCommand("z", modifiers: [.control, .shift], "Redo") { controller.perform(.redo) },
            KeyCommand("y", modifiers: .control, "Redo") { controller.perform(.redo) },
        ])
    }
}
