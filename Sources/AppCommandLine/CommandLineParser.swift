// Arguments -> ParsedArguments, or a UsageError naming the first mistake.

/// A mistake on the command line. Reported with the usage and exit status 64, EX_USAGE from
/// sysexits.h, the status the app had with swift-argument-parser: scripts may test for it.
public struct UsageError: Error, Equatable, Sendable {
    public static let exitStatus: Int32 = 64

    public let message: String
    /// The subcommand whose usage to show; nil for the main command.
    public let subcommand: String?

    public init(_ message: String, subcommand: String? = nil) {
        self.message = message
        self.subcommand = subcommand
    }
}

/// What the command line said, still as text: typed values come from ``value(_:default:)``.
public struct ParsedArguments: Equatable, Sendable {
    /// The subcommand named, nil for the main command.
    public internal(set) var subcommand: String?
    /// Option values by name (without dashes); a repeated option keeps its last value.
    public internal(set) var values: [String: String] = [:]
    public internal(set) var flags: Set<String> = []
    /// Positional arguments, in order.
    public internal(set) var arguments: [String] = []
    /// `--help`, `-h` or `help [subcommand]`.
    public internal(set) var wantsHelp = false
    public internal(set) var wantsVersion = false

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's value converted to `T`, `default` when absent; a value that does not convert is
    /// a usage error naming the option and what it wants.
    public func value<T: OptionValue>(_ name: String, default: T) throws(UsageError) -> T {
        guard let text = values[name] else { return `default` }
        guard let value = T(text) else {
            throw UsageError("--\(name) wants \(T.kind), not '\(text)'", subcommand: subcommand)
        }
        return value
    }
}

/// A type an option's value can be read as; `kind` says what it is in errors.
public protocol OptionValue: LosslessStringConvertible {
    static var kind: String { get }
}

extension Int: OptionValue {
    public static var kind: String { "a whole number" }
}

extension Double: OptionValue {
    public static var kind: String { "a number" }
}

extension CommandSpec {
    /// Parses `arguments` (without the program's name) for this command and its subcommands.
    ///
    /// The main command's options are accepted after a subcommand's name too, so that
    /// `touchtracker export --file X` works as typed. `--help`, `-h` and `--version` win over any
    /// mistake elsewhere on the line, so asking for help always gets it. After `--` every argument
    /// is positional (a file called `-x`).
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var firstMistake: String?
        func mistake(_ message: String) { firstMistake = firstMistake ?? message }

        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            let current = command(parsed.subcommand)
            if !optionsEnded, argument == "--" {
                optionsEnded = true
            } else if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                // A subcommand's name counts only first, before anything positional.
                let atStart = parsed.subcommand == nil && parsed.arguments.isEmpty && !optionsEnded
                if atStart, !parsed.wantsHelp, argument == "help", !subcommands.isEmpty {
                    parsed.wantsHelp = true
                } else if atStart, subcommands.contains(where: { $0.name == argument }) {
                    parsed.subcommand = argument
                } else if parsed.arguments.count < current.arguments.count {
                    parsed.arguments.append(argument)
                } else {
                    mistake("unexpected argument '\(argument)'")
                }
            } else if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
            } else if argument == "--version" {
                parsed.wantsVersion = true
            } else {
                // --name, --name=value or --name value; no short options but -h.
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard argument.hasPrefix("--"), let option = option(name, in: current) else {
                    let guess = closestOption(to: argument, in: current).map { " (did you mean '\($0)'?)" } ?? ""
                    mistake("unknown option '\(argument)'\(guess)")
                    continue
                }
                if option.isFlag {
                    if inline == nil { parsed.flags.insert(name) } else { mistake("--\(name) takes no value") }
                    continue
                }
                // A following word that looks like an option is not taken as the value: `--file
                // --trace` is a forgotten path. A value starting with "-" goes as `--name=-1`.
                var value = inline
                if value == nil, let next = rest.first, !next.hasPrefix("-") || next == "-" {
                    value = rest.popFirst()
                }
                if let value, !value.isEmpty {
                    parsed.values[name] = value
                } else {
                    mistake("\(option.label) needs a value")
                }
            }
        }
        if let firstMistake, !parsed.wantsHelp, !parsed.wantsVersion {
            throw UsageError(firstMistake, subcommand: parsed.subcommand)
        }
        return parsed
    }

    /// The subcommand's own option called `name`, else the main command's.
    private func option(_ name: String, in command: CommandSpec) -> OptionSpec? {
        command.options.first { $0.name == name } ?? options.first { $0.name == name }
    }

    /// A visible option spelled within two edits of `typed`, for "did you mean".
    private func closestOption(to typed: String, in command: CommandSpec) -> String? {
        let typedName = String(typed.prefix { $0 != "=" })
        let names = (command.options + options).filter { !$0.isHidden }.map { "--" + $0.name } + ["--help", "--version"]
        let scored = names.map { (name: $0, distance: editDistance(typedName, $0)) }
        return scored.filter { $0.distance <= 2 }.min { $0.distance < $1.distance }?.name
    }
}

/// Levenshtein distance: insertions, deletions and substitutions of one character.
func editDistance(_ a: String, _ b: String) -> Int {
    let b = Array(b)
    // previous[j]: the distance between the part of `a` seen so far and b's first j characters.
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}
