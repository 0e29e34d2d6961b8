// The few words the app shows, in English or Chinese by the user's locale.
#if canImport(Glibc)
import Glibc
#endif

public enum Strings {
    /// Whether the user's messages locale is Chinese (LC_ALL, then LC_MESSAGES, then LANG).
    public static var isChinese: Bool {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                return value.hasPrefix("zh")
            }
        }
        return false
    }

    /// The menu item that deletes the selected line (删除 in Chinese).
    public static var delete: String { isChinese ? "删除" : "Delete" }
    /// The menu items that copy (the selected line, else the drawing) and paste (P2, P3).
    public static var copy: String { isChinese ? "拷贝" : "Copy" }
    public static var paste: String { isChinese ? "粘贴" : "Paste" }
    // Banners of copy and paste (P4, P5).
    static var nothingToPaste: String { "The clipboard holds nothing TouchTracker can paste (it takes lines copied in TouchTracker)" }
    static func pasteFailed(_ reason: String) -> String { "Cannot paste: \(reason). Your drawing is unchanged" }
    static func pasteTooLarge(_ limit: String) -> String { "Cannot paste: the clipboard holds more than \(limit), the largest drawing TouchTracker reads. Your drawing is unchanged" }
    static var copyFailed: String { "Cannot copy: the compositor offers no clipboard, or no key or touch authorised it" }
    // The toolbar.
    static var undo: String { isChinese ? "撤销" : "Undo" }
    static var redo: String { isChinese ? "重做" : "Redo" }
    static var line: String { isChinese ? "直线" : "Line" }
    static var freehand: String { isChinese ? "自由" : "Free" }
    static var circle: String { isChinese ? "圆" : "Circle" }
    static var angle: String { isChinese ? "角度色" : "Angle" }
    static var speed: String { isChinese ? "速度宽" : "Speed" }
    static var fingers: String { isChinese ? "手指" : "Fingers" }
    static var colours: String { isChinese ? "颜色" : "Colours" }
}
