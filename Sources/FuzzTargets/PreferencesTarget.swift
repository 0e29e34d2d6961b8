// The preferences file: never refused (a bad line is skipped with a warning), so the check is that
// what was read writes back to a file that reads the same, without a warning.
import TouchTrackerKit

extension FuzzTarget {
    static let preferences = FuzzTarget("preferences", maxLength: 4096, """
        the preferences file: each warning one line, at most one a line; the settings read write \
        back to a file that reads the same with no warning
        """) { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        let (read, warnings) = Preferences.parse(text)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).count
        try require(warnings.count <= lines, "\(warnings.count) warnings for \(lines) lines")
        for warning in warnings {
            try require(!warning.contains("\n"), "a warning of more than one line: \(warning)")
        }
        let (again, warningsAgain) = Preferences.parse(read.text)
        try require(warningsAgain.isEmpty, "the written preferences read back with warnings: \(warningsAgain)")
        try require(again == read, "the written preferences read back different: \(read) → \(again)")
        return warnings.isEmpty ? .accepted : .rejected(warnings.joined(separator: "; "))
    }
}
