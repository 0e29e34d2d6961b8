// The app's keyboard shortcuts as data, in one table: the executable matches key presses against
// it and performs each command's action, and the help lists it under "Keys". A new shortcut is a
// line in `KeyCommand.all` and a case in the executable's switch over `KeyCommand.Action`.

/// A shortcut: a key, the modifiers held with it (exactly: Ctrl+Shift+E is not Ctrl+E), and what
/// it does.
public struct KeyCommand: Equatable, Sendable {
    /// A modifier key a shortcut is pressed with.
    public enum Modifier: Hashable, Sendable {
        case control, shift
    }

    /// What a shortcut does; the executable performs it.
    public enum Action: Equatable, Sendable {
        case deleteSelection, deselect, undo, redo, copy, paste, export, exportAs, quit
        case zoomIn, zoomOut, actualSize, fitDrawing
    }

    /// The key's XKB name in lowercase ("q", "e", "delete", "escape").
    public let key: String
    public let modifiers: Set<Modifier>
    /// What the command does, for help texts and menus.
    public let title: String
    public let action: Action

    public init(_ key: String, _ modifiers: Set<Modifier>, _ title: String, _ action: Action) {
        self.key = key
        self.modifiers = modifiers
        self.title = title
        self.action = action
    }

    /// The app's shortcuts, matched in order.
    public static let all: [KeyCommand] = [
        KeyCommand("delete", [], "Delete the selected line", .deleteSelection),
        KeyCommand("backspace", [], "Delete the selected line", .deleteSelection),
        KeyCommand("escape", [], "Deselect the line and hide the menu", .deselect),
        KeyCommand("z", [.control], "Undo", .undo),
        KeyCommand("z", [.control, .shift], "Redo", .redo),
        KeyCommand("y", [.control], "Redo", .redo),
        KeyCommand("c", [.control], "Copy the selected line, or else the whole drawing", .copy),
        KeyCommand("v", [.control], "Paste lines copied in TouchTracker", .paste),
        KeyCommand("e", [.control], "Export the drawing (PNG, SVG) to the pictures folder", .export),
        KeyCommand("e", [.control, .shift], "Export as PNG or SVG through the desktop's Save dialog", .exportAs),
        KeyCommand("q", [.control], "Quit", .quit),
        // Plus is shifted on some layouts and not on others; "=" is its key unshifted.
        KeyCommand("plus", [.control], "Zoom in", .zoomIn),
        KeyCommand("plus", [.control, .shift], "Zoom in", .zoomIn),
        KeyCommand("equal", [.control], "Zoom in", .zoomIn),
        KeyCommand("kp_add", [.control], "Zoom in", .zoomIn),
        KeyCommand("minus", [.control], "Zoom out", .zoomOut),
        KeyCommand("kp_subtract", [.control], "Zoom out", .zoomOut),
        KeyCommand("0", [.control], "Show the drawing at 100 %", .actualSize),
        KeyCommand("kp_0", [.control], "Show the drawing at 100 %", .actualSize),
        KeyCommand("f", [.control], "Fit the whole drawing in the window", .fitDrawing),
    ]

    /// The shortcut as help texts name it: "Ctrl+Shift+Z", "Escape".
    public var label: String {
        let name = key.count == 1 ? key.uppercased() : key.prefix(1).uppercased() + key.dropFirst()
        return (modifiers.contains(.control) ? "Ctrl+" : "") + (modifiers.contains(.shift) ? "Shift+" : "") + name
    }

    /// The help's rows for `commands`: the shortcuts that do the same thing share a row
    /// ("Ctrl+Shift+Z or Ctrl+Y"), in the order of their first one.
    static func helpRows(_ commands: [KeyCommand]) -> [(name: String, text: String)] {
        var titles: [String] = []
        var labels: [String: [String]] = [:]
        for command in commands {
            if labels[command.title] == nil { titles.append(command.title) }
            labels[command.title, default: []].append(command.label)
        }
        return titles.map { title in (labels[title]!.joined(separator: " or "), title + ".") }
    }
}
