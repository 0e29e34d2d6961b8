// Every behaviour number that code and tests cite (T2, G6, A4, ...) is defined in
// docs/behaviours.md, so a reader can always look a number up inside the repository.
import Foundation
import Testing

@Suite("The behaviour catalogue (docs/behaviours.md)")
struct BehaviourCatalogueTests {
    /// The package's folder: this file is Tests/TouchKitTests/BehaviourCatalogueTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Words shaped like a behaviour number that are something else (a display system, a key).
    static let notBehaviours: Set<String> = ["X11", "F10"]

    /// The kinds of file searched for citations.
    static let searchedExtensions: Set<String> = ["swift", "md", "c", "h", "py", "js"]

    @Test("every behaviour number cited in Sources and Tests is defined in docs/behaviours.md")
    func everyCitedNumberIsDefined() throws {
        let defined = try Self.definedNumbers()
        #expect(defined.count > 50, "docs/behaviours.md defines only \(defined.count) behaviours")
        var undefined: [String] = []
        for folder in ["Sources", "Tests"] {
            for file in Self.files(under: folder) {
                let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(file), encoding: .utf8)
                for citation in Self.citations(in: text) where !defined.contains(citation.number) {
                    undefined.append("\(file):\(citation.line): \(citation.number)")
                }
            }
        }
        #expect(undefined.isEmpty, "cited but not defined in docs/behaviours.md:\n\(undefined.joined(separator: "\n"))")
    }

    @Test("citations are found as whole words, and ranges stand for every number in them")
    func citationShapes() {
        let text = "T2 and G5–G7; H1-H3.\nX11, UTF8, testG6, 0xA1, G100 and A4"
        #expect(Self.citations(in: text).map(\.number) == ["T2", "G5", "G6", "G7", "H1", "H2", "H3", "A4"])
        #expect(Self.citations(in: text).last?.line == 2)
    }

    @Test("each behaviour is defined once")
    func definedOnce() throws {
        let rows = try Self.catalogueRows()
        #expect(Set(rows).count == rows.count, "defined twice: \(rows.filter { n in rows.filter { $0 == n }.count > 1 })")
    }

    // MARK: Reading the catalogue and the sources

    /// The numbers in the first column of the catalogue's tables, in order.
    static func catalogueRows() throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/behaviours.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| ") else { return nil }
            let cell = line.dropFirst(2).prefix { $0 != " " }
            return isBehaviourNumber(cell) ? String(cell) : nil
        }
    }

    static func definedNumbers() throws -> Set<String> {
        Set(try catalogueRows())
    }

    /// The searched files under `folder`, relative to the package root.
    static func files(under folder: String) -> [String] {
        let root = packageRoot.appendingPathComponent(folder).path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { searchedExtensions.contains(($0 as NSString).pathExtension) }
            .map { folder + "/" + $0 }
            .sorted()
    }

    /// A letter and one or two digits, e.g. "T2", "G17".
    static func isBehaviourNumber(_ word: Substring) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard (2...3).contains(scalars.count), ("A"..."Z").contains(scalars[0]) else { return false }
        return scalars.dropFirst().allSatisfy { ("0"..."9").contains($0) }
    }

    /// The behaviour numbers cited in `text`, with their line: every whole word shaped like one
    /// (letters, digits and `_` join words), "G5–G7" and "G5-G7" giving G5, G6 and G7.
    static func citations(in text: String) -> [(number: String, line: Int)] {
        var found: [(number: String, line: Int)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var previous: (word: Substring, end: String.Index)?
            var i = line.startIndex
            while i < line.endIndex {
                guard isWordCharacter(line[i]) else {
                    i = line.index(after: i)
                    continue
                }
                let start = i
                while i < line.endIndex, isWordCharacter(line[i]) { i = line.index(after: i) }
                let word = line[start..<i]
                guard isBehaviourNumber(word), !notBehaviours.contains(String(word)) else {
                    previous = nil
                    continue
                }
                if let previous, ["-", "–"].contains(line[previous.end..<start]), previous.word.first == word.first,
                   let low = Int(previous.word.dropFirst()), let high = Int(word.dropFirst()), low < high {
                    // The first end of the range is in `found` already.
                    for n in (low + 1)...high { found.append(("\(word.first!)\(n)", index + 1)) }
                } else {
                    found.append((String(word), index + 1))
                }
                previous = (word, i)
            }
        }
        return found
    }

    static func isWordCharacter(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && (c.isLetter || c.isNumber))
    }
}
