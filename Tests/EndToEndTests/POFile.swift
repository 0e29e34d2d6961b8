// The translation catalogues in po/, read as gettext writes them: for the checks of the catalogues
// and for the words the end-to-end tests expect on screen.
import CompositorHarness
import Foundation

/// A `.po` or `.pot` file: its messages (the header left out), in order.
struct POFile {
    struct Message: Equatable {
        var msgid: String
        var msgstr: String
        var isFuzzy: Bool
    }

    var messages: [Message] = []

    /// `po/NAME` in the package.
    static func path(_ name: String) -> String { HarnessPaths.packageRoot + "/po/" + name }

    /// Reads `po/NAME`.
    init(_ name: String) throws {
        try self.init(contentsOf: Self.path(name))
    }

    init(contentsOf path: String) throws {
        var message: Message?
        var field: WritableKeyPath<Message, String>?
        var fuzzy = false
        func finish() {
            if let done = message, !done.msgid.isEmpty { messages.append(done) }
            message = nil
            field = nil
        }
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#,") {
                finish()
                fuzzy = line.contains("fuzzy")
            } else if line.hasPrefix("msgid ") {
                finish()
                message = Message(msgid: Self.unquote(line.dropFirst(6)), msgstr: "", isFuzzy: fuzzy)
                field = \.msgid
                fuzzy = false
            } else if line.hasPrefix("msgstr "), message != nil {
                message?.msgstr = Self.unquote(line.dropFirst(7))
                field = \.msgstr
            } else if line.hasPrefix("\""), let field, message != nil {
                message?[keyPath: field] += Self.unquote(line)
            } else if line.isEmpty || line.hasPrefix("#") {
                if line.isEmpty { finish() }
            }
        }
        finish()
    }

    /// msgid -> msgstr, translated messages only.
    var translations: [String: String] {
        Dictionary(messages.filter { !$0.msgstr.isEmpty && !$0.isFuzzy }.map { ($0.msgid, $0.msgstr) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The text of one quoted PO string, escapes undone.
    static func unquote(_ quoted: Substring) -> String {
        var body = quoted
        if body.hasPrefix("\"") { body = body.dropFirst() }
        if body.hasSuffix("\"") { body = body.dropLast() }
        var result = "", escaped = false
        for character in body {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// The languages po/LINGUAS lists.
func catalogueLanguages() throws -> [String] {
    try String(contentsOfFile: POFile.path("LINGUAS"), encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
}
