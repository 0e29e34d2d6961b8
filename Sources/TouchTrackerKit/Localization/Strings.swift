// Every word the app shows in its window, in the user's language (Localization, gettext).
//
// This file is the one place for them: po/POTFILES lists it, and xgettext finds each `tr("...")`
// call and the `// Translators:` comment above it. To add a string, add a property or function
// here and update the catalogues (docs/translations.md). Placeholders are `{name}`, filled by
// Localization.fill, so a translation can put them in its own order.

public enum Strings {
    static func tr(_ msgid: String) -> String { Localization.translate(msgid) }

    // Translators: the window's title, also the app's name in launchers (the .desktop file's Name).
    public static var appName: String { tr("TouchTracker") }
    // Translators: the title bar's button that closes the window, as a screen reader names it.
    public static var closeWindow: String { tr("Close") }
    // Translators: the title bar's button that maximizes the window (or restores it), as a screen reader names it.
    public static var maximizeWindow: String { tr("Maximize") }
    // Translators: the title bar's button that minimizes the window, as a screen reader names it.
    public static var minimizeWindow: String { tr("Minimize") }
    // Translators: the popup's item that deletes the selected line.
    public static var delete: String { tr("Delete") }
    // Translators: the popup's item that copies the selected line (or the whole drawing) to the clipboard.
    public static var copy: String { tr("Copy") }
    // Translators: the popup's item that pastes lines copied in TouchTracker.
    public static var paste: String { tr("Paste") }

    // The toolbar: short, a button is about 80 points wide.
    // Translators: toolbar button, starts a new empty drawing in a new file (the current one is kept).
    static var newDrawing: String { tr("New") }
    // Translators: toolbar button, undoes the last change.
    static var undo: String { tr("Undo") }
    // Translators: toolbar button, redoes the change just undone.
    static var redo: String { tr("Redo") }
    // Translators: toolbar button, the tool that draws straight lines.
    static var line: String { tr("Line") }
    // Translators: toolbar button, the tool that draws freehand strokes.
    static var freehand: String { tr("Free") }
    // Translators: toolbar button, the tool where two fingers span a circle.
    static var circle: String { tr("Circle") }
    // Translators: toolbar toggle, a line's colour follows its direction (angle).
    static var angle: String { tr("Angle") }
    // Translators: toolbar toggle, faster fingers draw thicker lines.
    static var speed: String { tr("Speed") }
    // Translators: toolbar toggle, whether fingers draw (off: only pen and mouse).
    static var fingers: String { tr("Fingers") }

    // The zoom control over the canvas's corner.
    // Translators: the zoom control's button that zooms out, as a screen reader names it.
    static var zoomOut: String { tr("Zoom out") }
    // Translators: the zoom control's button that zooms in, as a screen reader names it.
    static var zoomIn: String { tr("Zoom in") }
    /// The zoom as the control shows it.
    static func zoomPercent(_ percent: Int) -> String {
        // Translators: the zoom control's middle button, the drawing's zoom in percent (tapping it shows 100 % or the whole drawing). Write the number and the sign as your language does.
        Localization.fill(tr("{percent} %"), ["percent": String(percent)])
    }
    /// The zoom as a screen reader names the middle button.
    static func zoomLevel(_ percent: Int) -> String {
        // Translators: the zoom control's middle button as a screen reader names it: the drawing's zoom in percent.
        Localization.fill(tr("Zoom {percent} %"), ["percent": String(percent)])
    }
    // Translators: toolbar button, shows the colour palette.
    static var colours: String { tr("Colours") }

    // Banners across the top of the canvas.
    /// A drawing file could not be read and was moved aside.
    static func unreadableMovedAside(name: String, problem: String, keptAs: String) -> String {
        // Translators: banner; {problem} is the reason in English, {kept} the file's new name.
        Localization.fill(tr("Could not read {name} ({problem}). It was kept as {kept}."),
                          ["name": name, "problem": problem, "kept": keptAs])
    }

    /// A drawing file could not be read nor moved aside; the drawing saves elsewhere.
    static func unreadableSavingElsewhere(name: String, problem: String, savePath: String) -> String {
        // Translators: banner; {path} is where the new drawing is saved instead.
        Localization.fill(tr("Could not read {name} ({problem}). Saving to {path}."),
                          ["name": name, "problem": problem, "path": savePath])
    }

    /// A journal could be replayed only in part.
    static func damagedJournal(name: String, problem: String, keptAs: String?) -> String {
        guard let keptAs else {
            // Translators: banner; the journal holds the drawing's latest changes.
            return Localization.fill(tr("The last changes to {name} could not all be restored ({problem})."),
                                     ["name": name, "problem": problem])
        }
        // Translators: banner; {kept} is the journal's new file name.
        return Localization.fill(tr("The last changes to {name} could not all be restored ({problem}). The journal was kept as {kept}."),
                                 ["name": name, "problem": problem, "kept": keptAs])
    }

    /// Saving fails (disk full, read-only folder); the app keeps trying.
    static func cannotSave(name: String, reason: String) -> String {
        // Translators: banner; {reason} is the system's reason, e.g. "No space left on device".
        Localization.fill(tr("Cannot save {name}: {reason}. Your drawing is kept; retrying…"),
                          ["name": name, "reason": reason])
    }

    /// Ctrl+E wrote the pictures.
    static func exported(png: String, svg: String, folder: String) -> String {
        // Translators: banner after Ctrl+E; {png} and {svg} are file names, {folder} a folder.
        Localization.fill(tr("Exported {png} and {svg} to {folder}"), ["png": png, "svg": svg, "folder": folder])
    }

    /// Ctrl+V or Paste found only another program's text or pictures on the clipboard (P5).
    static var nothingToPaste: String {
        // Translators: banner after Ctrl+V when the clipboard holds another program's text or picture.
        tr("The clipboard holds nothing TouchTracker can paste (it takes lines copied in TouchTracker)")
    }

    /// A paste was damaged, broke a limit or never came (P4).
    static func pasteFailed(_ reason: String) -> String {
        // Translators: banner; {reason} is the reason in English, e.g. "the drawing would have more than 250000 lines".
        Localization.fill(tr("Cannot paste: {reason}. Your drawing is unchanged"), ["reason": reason])
    }

    /// A paste was cut off at the drawing file's size limit (P4).
    static func pasteTooLarge(_ limit: String) -> String {
        // Translators: banner; {limit} is a size such as "128 MiB".
        Localization.fill(tr("Cannot paste: the clipboard holds more than {limit}, the largest drawing TouchTracker reads. Your drawing is unchanged"),
                          ["limit": limit])
    }

    /// The compositor or the app could not take the clipboard (P2).
    static var copyFailed: String {
        // Translators: banner when Ctrl+C or Copy could not put anything on the clipboard.
        tr("Cannot copy: the compositor offers no clipboard, or no key or touch authorised it")
    }

    /// Export As wrote the file the Save dialog chose.
    static func exportedFile(name: String, folder: String) -> String {
        // Translators: banner after Export As (Ctrl+Shift+E); {name} is a file name, {folder} a folder.
        Localization.fill(tr("Exported {name} to {folder}"), ["name": name, "folder": folder])
    }

    /// New started a drawing in a new file; the old one stays in its file (A9).
    static func newDrawingStarted(name: String, folder: String, kept: String) -> String {
        // Translators: banner after New; {name} is the new file's name, {folder} its folder, {kept} the old file's name.
        Localization.fill(tr("New drawing {name} in {folder}; {kept} is kept"), ["name": name, "folder": folder, "kept": kept])
    }

    /// New on an empty drawing does nothing (A9).
    static func alreadyEmpty(name: String) -> String {
        // Translators: banner after New when the drawing has no lines yet; {name} is its file name.
        Localization.fill(tr("{name} is empty: draw here"), ["name": name])
    }

    /// New could not save the current drawing first, so it changed nothing (A9).
    static func noNewDrawing(_ error: String) -> String {
        // Translators: banner; {error} names the file and the reason.
        Localization.fill(tr("No new drawing: {error}. Your drawing is kept."), ["error": error])
    }

    /// Ctrl+E failed.
    static func exportFailed(_ error: String) -> String {
        // Translators: banner; {error} names the file and the reason.
        Localization.fill(tr("Export failed: {error}"), ["error": error])
    }
}
