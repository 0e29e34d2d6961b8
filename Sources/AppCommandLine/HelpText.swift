// Help, usage and error text for a CommandSpec, wrapped for an 80-column terminal.

extension CommandSpec {
    /// The help for this command, or for its subcommand called `subcommand`: what it does, its
    /// usage, the discussion and its tables, then its arguments, visible options and visible
    /// subcommands.
    public func help(for subcommand: String? = nil, width: Int = 80) -> String {
        let command = command(subcommand)
        var sections = [command.abstract, usage(for: subcommand)]
        // Each line of the discussion is a paragraph.
        sections += command.discussion.split(separator: "\n").map { wrap($0, width: width).joined(separator: "\n") }
        sections += command.tables.map { "\($0.title):\n" + table($0.rows, width: width) }
        if !command.arguments.isEmpty {
            sections.append("Arguments:\n" + table(command.arguments.map { ("<\($0.name)>", $0.help) }, width: width))
        }
        // --version works everywhere but is news only in the main help.
        let options = command.options.filter { !$0.isHidden }.map { ($0.label, $0.help) }
            + (subcommand == nil ? [("--version", "Print the version.")] : [])
            + [("-h, --help", "Print this help.")]
        sections.append("Options:\n" + table(options, width: width))
        let commands = command.subcommands.filter { !$0.isHidden }
        if !commands.isEmpty {
            sections.append("Commands:\n" + table(commands.map { ($0.name, $0.abstract) }, width: width)
                            + "\n\n'\(name) <command> --help' shows a command's help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// "Usage: " and the command's usage lines, or one made from its visible options and arguments.
    public func usage(for subcommand: String? = nil) -> String {
        let command = command(subcommand)
        var lines = command.usage
        if lines.isEmpty {
            let words = [subcommand.map { "\(name) \($0)" } ?? name]
                + command.options.filter { !$0.isHidden }.map { "[\($0.label)]" }
                + command.arguments.map { "[<\($0.name)>]" }
            lines = [words.joined(separator: " ")]
        }
        return "Usage: " + lines.joined(separator: "\n       ")
    }

    /// A usage error as standard error shows it: what is wrong, the usage, where to read more.
    public func report(_ error: UsageError) -> String {
        let helpCommand = ([name] + (error.subcommand.map { [$0] } ?? []) + ["--help"]).joined(separator: " ")
        return "\(name): \(error.message)\n\(usage(for: error.subcommand))\nSee '\(helpCommand)' for more.\n"
    }
}

/// Names in a column, their texts wrapped beside them; a name too long for the column gets a line
/// to itself.
func table(_ rows: [(name: String, text: String)], width: Int) -> String {
    let column = 24
    let indent = String(repeating: " ", count: column)
    return rows.map { row in
        let lines = wrap(Substring(row.text), width: width - column)
        let name = "  " + row.name
        guard name.count + 2 <= column else { return ([name] + lines.map { indent + $0 }).joined(separator: "\n") }
        let first = name + String(repeating: " ", count: column - name.count) + lines[0]
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }.joined(separator: "\n")
}

/// `text`'s words in lines of at most `width` characters (a longer word gets a line to itself);
/// at least one line.
func wrap(_ text: Substring, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if line.isEmpty {
            line = String(word)
        } else if line.count + 1 + word.count <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = String(word)
        }
    }
    return lines + [line]
}
