// Every limit in Sources/Limits is listed in docs/security.md, the one page that says what the app
// trusts: a limit added without a word there fails here.
import Foundation
import Testing

@Suite("Limits are documented")
struct LimitsDocumentedTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Each Limit constant appears in docs/security.md's table")
    func everyLimitIsInTheSecurityPage() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/Limits/Limits.swift"), encoding: .utf8)
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/security.md"), encoding: .utf8)
        let names = source.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "public static let ") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
        }
        #expect(names.count >= 20, "\(names)")
        let missing = names.filter { !page.contains("`Limit.\($0)`") && !page.contains(", `\($0)`") }
        #expect(missing.isEmpty, "not in docs/security.md: \(missing)")
    }
}
