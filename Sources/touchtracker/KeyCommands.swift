// Key presses to the app's shortcuts: the table is AppCommandLine's `KeyCommand.all`, which the
// help lists too; `perform` does each action, for the live app and for a replay.
import AppCommandLine
import TouchTrackerKit
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

extension KeyCommand {
    /// Does what `press` stands for, if it is a shortcut: in the live app, and in a replay (which
    /// quits and exports nothing).
    static func perform(_ press: KeyPress, on controller: DrawViewController, quit: () -> Void, export: () -> Void,
                        exportAs: () -> Void) {
        // Focus, lines and controls by keyboard first (Tab, arrows, Space, Enter, Menu).
        if controller.keyboard.handle(key: press.name, shift: press.modifiers.contains(.shift),
                                      control: press.modifiers.contains(.control) || press.modifiers.contains(.alt)) { return }
        switch matching(press)?.action {
        case .quit: quit()
        case .export: export()
        case .exportAs: exportAs()
        case .deleteSelection: controller.perform(.deleteSelection)
        case .deselect: controller.perform(.cancel)
        case .undo: controller.perform(.undo)
        case .redo: controller.perform(.redo)
        case .copy: controller.perform(.copy)
        case .paste: controller.perform(.paste)
        case .zoomIn: controller.perform(.zoomIn)
        case .zoomOut: controller.perform(.zoomOut)
        case .actualSize: controller.perform(.actualSize)
        case .fitDrawing: controller.perform(.fitDrawing)
        case nil: break
        }
    }
}
