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
