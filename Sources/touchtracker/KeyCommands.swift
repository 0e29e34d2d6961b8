// Key presses to the app's shortcuts: the table is AppCommandLine's `KeyCommand.all`, which the
// help lists too; TouchTracker.run() performs each action.
import AppCommandLine
import WaylandHost

extension KeyCommand {
    /// The first shortcut that `press` is, if any.
    static func matching(_ press: KeyPress) -> KeyCommand? {
        all.first { $0.matches(press) }
    }

    /// Whether `press` is this key with exactly these modifiers.
    func matches(_ press: KeyPress) -> Bool {
        var needed: KeyPress.Modifiers = []
        if modifiers.contains(.control) { needed.insert(.control) }
        if modifiers.contains(.shift) { needed.insert(.shift) }
        return press.modifiers == needed && press.name.lowercased() == key
    }
}
