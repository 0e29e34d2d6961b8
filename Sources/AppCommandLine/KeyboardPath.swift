// The keys that work the app without touch or a mouse (the app's CanvasKeyboard), for the help's
// "Keyboard" table and the man page.

public enum KeyboardPath {
    /// Each key and what it does, in the order the help lists them.
    public static let keys: [(name: String, text: String)] = [
        ("Tab, Shift+Tab", "Move the focus (a ring) through the canvas and the toolbar; in the canvas, step through the lines in drawing order, selecting each."),
        ("Left, Right, Up, Down", "In the canvas, move the selected line 10 points (with Shift, 50), one undoable step a press; with none selected, select the first or last line."),
        ("Space, Enter", "Press the focused button; in the canvas, open the edit menu."),
        ("Menu, Shift+F10", "Open the edit menu for the selected line, or for the canvas."),
    ]
}
