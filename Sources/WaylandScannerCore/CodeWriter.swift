// The text side of generating code: indented lines, `///` comments from XML summaries, and Swift
// string literals.

/// A Swift string literal for a plain ASCII name or summary.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// Accumulates indented lines.
struct CodeWriter {
    private(set) var text = ""
    private var level = 0

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: level) + content + "\n"
        }
    }

    mutating func open(_ content: String) {
        line(content)
        level += 1
    }

    mutating func close(_ content: String) {
        level -= 1
        line(content)
    }

    mutating func indent() { level += 1 }
    mutating func dedent() { level -= 1 }

    /// A one-line `///` comment from an XML summary, with the version it appeared in.
    @discardableResult
    mutating func doc(_ summary: String?, since: UInt32 = 1) -> Bool {
        var text = summary.map(oneLine) ?? ""
        if since > 1 { text += text.isEmpty ? "Since version \(since)." : " (since version \(since))" }
        if !text.isEmpty { line("/// " + text) }
        return !text.isEmpty
    }
}
