// What the keyboard can ask of the canvas, apart from the keys themselves (the executable maps keys
// to these commands).
import TouchKit

/// Commands the canvas understands from the keyboard (the executable maps keys to them).
public enum CanvasCommand: Sendable {
    /// Delete or Backspace: delete the selected line.
    case deleteSelection
    /// Escape: deselect and hide the menu.
    case cancel
    /// Ctrl+Z and Ctrl+Shift+Z.
    case undo
    case redo
    /// Ctrl+C: copy the selected line, or the whole drawing (P2).
    case copy
    /// Ctrl+V: paste lines copied in TouchTracker (P3, P5).
    case paste
}

extension DrawViewController {
    /// Performs a keyboard command; returns whether it applied.
    @discardableResult
    public func perform(_ command: CanvasCommand) -> Bool {
        switch command {
        case .deleteSelection:
            guard drawView.selectedStrokeID != nil else { return false }
            drawView.deleteSelectedLine()
        case .cancel:
            drawView.select(nil)
            isPaletteVisible = false
        case .undo:
            guard drawView.drawing.undoStack.canUndo else { return false }
            drawView.select(nil)
            drawView.drawing.undoStack.undo()
        case .redo:
            guard drawView.drawing.undoStack.canRedo else { return false }
            drawView.select(nil)
            drawView.drawing.undoStack.redo()
        case .copy:
            return drawView.copy()
        case .paste:
            drawView.paste()
        }
        return true
    }
}
