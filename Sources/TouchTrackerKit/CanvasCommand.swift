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
    /// Ctrl+plus and Ctrl+minus: zoom in or out a step about the middle of what is shown.
    case zoomIn
    case zoomOut
    /// Ctrl+0: the drawing at 100 %.
    case actualSize
    /// Ctrl+F: the whole drawing in view.
    case fitDrawing
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
        case .zoomIn:
            scrollView.zoom(by: CanvasScrollView.zoomStep, animated: true)
        case .zoomOut:
            scrollView.zoom(by: 1 / CanvasScrollView.zoomStep, animated: true)
        case .actualSize:
            scrollView.setZoomScale(1, animated: true)
        case .fitDrawing:
            scrollView.fitDrawing(animated: true)
        }
        return true
    }
}
