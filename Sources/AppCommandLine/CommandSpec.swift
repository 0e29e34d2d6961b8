// The touchtracker app's command-line parser, in place of swift-argument-parser: that package
// brings FoundationEssentials, CoreFoundation's tables and libdispatch into the app binary, code
// that stays resident just to read a few options. This module imports nothing; it
// knows the app's commands only in TouchTrackerCommandLine.swift.
//
// CommandSpec.swift: what a command accepts, as plain values. The parser reads them to parse and
// HelpText.swift to explain.

/// An option: `--name VALUE` or `--name=VALUE`; a flag (`--name`) when `valueName` is nil.
public struct OptionSpec: Sendable {
    /// The long name, without the dashes.
    public let name: String
    /// What the value is, shown as `<valueName>` in help; nil for a flag.
    public let valueName: String?
    public let help: String
    /// Accepted but left out of help and usage (options for tests).
    public let isHidden: Bool

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, isHidden: false)
    }

    public static func option(_ name: String, value: String, help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: value, help: help, isHidden: hidden)
    }

    var isFlag: Bool { valueName == nil }
    /// `--name <value>` or `--name`, as usage and help show it.
    var label: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
}

/// A positional argument. All are optional: no command of ours needs one.
public struct ArgumentSpec: Sendable {
    public let name: String
    public let help: String

    public init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}

/// A titled table in a command's help, shown after the discussion: names and what they do.
public struct HelpTable: Sendable {
    public let title: String
    public let rows: [(name: String, text: String)]

    public init(_ title: String, rows: [(name: String, text: String)]) {
        self.title = title
        self.rows = rows
    }
}

/// A command, or one of its subcommands (one level deep: all the app needs).
public struct CommandSpec: Sendable {
    public let name: String
    /// One line saying what the command does; heads its help and the parent's command list.
    public let abstract: String
    /// Usage lines when the generated one would not say enough; empty to generate it.
    public let usage: [String]
    /// Paragraphs (separated by blank lines) wrapped to the terminal width in help.
    public let discussion: String
    /// Tables shown after the discussion (the app's keys).
    public let tables: [HelpTable]
    public let options: [OptionSpec]
    public let arguments: [ArgumentSpec]
    public let subcommands: [CommandSpec]
    /// Runs when named but is left out of the parent's help (developer tools).
    public let isHidden: Bool

    public init(name: String, abstract: String, usage: [String] = [], discussion: String = "",
                tables: [HelpTable] = [], options: [OptionSpec] = [], arguments: [ArgumentSpec] = [],
                subcommands: [CommandSpec] = [], hidden: Bool = false) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.tables = tables
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
        self.isHidden = hidden
    }

    /// The subcommand called `name`, or this command for nil.
    func command(_ name: String?) -> CommandSpec {
        name.flatMap { name in subcommands.first { $0.name == name } } ?? self
    }
}
