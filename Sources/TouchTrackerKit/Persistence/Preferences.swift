// What the user chose in the toolbar and the palette (the tool, the three toggles, the pen's
// colour) and whether lines in progress show their predicted extension, kept in `$XDG_CONFIG_HOME/touchtracker/preferences` so that the app starts as it was
// left. A line a setting, `name = value`; a file that cannot be read, a line that makes no sense
// or a value out of range is skipped with a warning naming it, and that setting keeps its default:
// preferences are never worth refusing to start over.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import TouchKit

public struct Preferences: Equatable, Sendable {
    public var tool = DrawView.Tool.line
    public var colorsByAngle = false
    public var widthFollowsSpeed = false
    public var drawsWithFingers = true
    public var penColor = Color.black
    /// Lines in progress reach where the finger is expected when the frame is shown (A13).
    public var drawsPredictedTouches = true

    public init() {}

    /// The file: `$XDG_CONFIG_HOME/touchtracker/preferences`, else `~/.config/touchtracker/preferences`.
    public static func defaultFile(environment: (String) -> String? = DrawingLocation.environment) -> String {
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? DrawingFile.join(DrawingLocation.homeDirectory(environment: environment), ".config")
        return DrawingFile.join(DrawingFile.join(config, "touchtracker"), "preferences")
    }

    /// The file's text.
    public var text: String {
        let c = penColor
        return """
            # TouchTracker's preferences, written by the app.
            tool = \(tool.rawValue)
            colours-by-angle = \(colorsByAngle)
            width-by-speed = \(widthFollowsSpeed)
            fingers-draw = \(drawsWithFingers)
            pen-colour = \(c.red) \(c.green) \(c.blue) \(c.alpha)
            prediction = \(drawsPredictedTouches)

            """
    }

    /// Each setting as (name, value), as the file writes them (a recording carries them too).
    public var settings: [(name: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals].trimmingSpaces), String(line[line.index(after: equals)...].trimmingSpaces))
        }
    }

    /// Reads `text`; what cannot be read is left at its default and named in `warnings`.
    public static func parse(_ text: String) -> (preferences: Preferences, warnings: [String]) {
        var result = Preferences()
        var warnings: [String] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                warnings.append("line \(number): '\(line.prefix(60))' is not 'name = value'")
                continue
            }
            let name = line[..<equals].trimmingSpaces, value = line[line.index(after: equals)...].trimmingSpaces
            func flag() -> Bool? {
                switch value {
                case "true": return true
                case "false": return false
                default:
                    warnings.append("line \(number): \(name) is true or false, not '\(value.prefix(40))'")
                    return nil
                }
            }
            switch name {
            case "tool":
                if let tool = DrawView.Tool(rawValue: String(value)) {
                    result.tool = tool
                } else {
                    warnings.append("line \(number): unknown tool '\(value.prefix(40))' (line, freehand, circle)")
                }
            case "colours-by-angle": if let v = flag() { result.colorsByAngle = v }
            case "width-by-speed": if let v = flag() { result.widthFollowsSpeed = v }
            case "fingers-draw": if let v = flag() { result.drawsWithFingers = v }
            case "prediction": if let v = flag() { result.drawsPredictedTouches = v }
            case "pen-colour":
                let parts = value.split(separator: " ").compactMap { Double($0) }
                if parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }) {
                    result.penColor = Color(red: parts[0], green: parts[1], blue: parts[2], alpha: parts[3])
                } else {
                    warnings.append("line \(number): pen-colour is four numbers from 0 to 1 (red green blue alpha), not '\(value.prefix(40))'")
                }
            default:
                // A newer version's setting: kept out of the way, not an error.
                continue
            }
        }
        return (result, warnings)
    }

    /// Reads the file at `path`: defaults when it is missing; defaults and a warning when it
    /// cannot be read.
    public static func load(_ path: String) -> (preferences: Preferences, warnings: [String]) {
        do {
            switch try DrawingFile.read(path, maxBytes: Limit.settingsFileBytes) {
            case .missing: return (Preferences(), [])
            case .bytes(let bytes):
                let (preferences, warnings) = parse(String(decoding: bytes, as: UTF8.self))
                return (preferences, warnings.map { "\(path): \($0)" })
            }
        } catch {
            return (Preferences(), [error.message])
        }
    }

    /// Writes the file at `path` whole (atomically), making its folder.
    public func save(to path: String) throws(FileIOError) {
        try DrawingFile.createFolder(DrawingFile.folder(of: path))
        try DrawingFile.writeAtomically(Array(text.utf8), to: path)
    }
}

private extension StringProtocol {
    var trimmingSpaces: SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
