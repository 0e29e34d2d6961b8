// Entry points for coverage-guided fuzzing (docs/fuzzing.md): one per parser of outside data,
// each taking any bytes. A target parses them as the app would and, when the parser accepts
// them, drives the result a little further (written back and read again, loaded into the canvas,
// replayed, painted), checking what must then hold. A broken rule is thrown as a `FuzzFailure`,
// which the fuzz build turns into a crash for libFuzzer to save and the tests report.
// The same entry points run in the normal build, from the corpus replayer and the tests, so that
// they and the seed corpora (Tests/FuzzCorpus) never rot.

/// What a parser made of an input.
public enum FuzzOutcome: Equatable, Sendable {
    /// Read, and every check on the result held.
    case accepted
    /// Refused, with the parser's own message.
    case rejected(String)
}

/// A rule the parsed result broke: a bug, whatever the input.
public struct FuzzFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// Throws `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(message()) }
}

/// One parser under fuzzing.
public struct FuzzTarget: Sendable {
    /// The name on the command line and of the seed folder, Tests/FuzzCorpus/NAME.
    public let name: String
    /// What it reads and what it checks, one line.
    public let summary: String
    /// The longest input worth generating (libFuzzer's -max_len): past it the parser only reads
    /// more of the same, or refuses.
    public let maxLength: Int
    private let body: @Sendable ([UInt8]) throws(FuzzFailure) -> FuzzOutcome

    init(_ name: String, maxLength: Int, _ summary: String,
         _ body: @escaping @Sendable ([UInt8]) throws(FuzzFailure) -> FuzzOutcome) {
        self.name = name
        self.summary = summary
        self.maxLength = maxLength
        self.body = body
    }

    /// Parses `bytes` and checks the result.
    ///
    /// - Throws: ``FuzzFailure`` when a rule the result must keep was broken.
    public func run(_ bytes: [UInt8]) throws(FuzzFailure) -> FuzzOutcome {
        try body(bytes)
    }

    /// Every target, in the order `--list` shows them.
    public static let all: [FuzzTarget] = [
        drawing, journal, clipboard, preferences, views, recording, evtest, libinputRecord, evemu, pastedTrace, xcursor,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
