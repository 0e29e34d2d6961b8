// touchtracker's command line: what each form of each option means, the mistakes it names and
// the help it prints. The end-to-end tests run the binary; these check every case quickly.
import AppCommandLine
import Testing

let commandLine = TouchTrackerCommandLine(version: "1.2.3", appID: "org.example.Test")

/// The invocation for `arguments`, or the usage error's message as a failure.
func parse(_ arguments: [String]) -> Result<Invocation, UsageError> {
    Result { () throws(UsageError) in try commandLine.parse(arguments) }
}

/// The usage error `arguments` make; records an issue when they parse.
func mistake(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> UsageError? {
    guard case .failure(let error) = parse(arguments) else {
        Issue.record("\(arguments) parsed, expected a usage error", sourceLocation: sourceLocation)
        return nil
    }
    return error
}

func appOptions(_ change: (inout AppOptions) -> Void) -> Invocation {
    var options = AppOptions()
    change(&options)
    return .runApp(options)
}

@Suite("Command line: parsing")
struct CommandLineParsingTests {
    @Test("No arguments run the app with the defaults")
    func defaults() throws {
        let options = AppOptions()
        #expect(try commandLine.parse([]) == .runApp(options))
        #expect(options.file == nil && options.display == nil && options.autosaveDelay == 0.2)
        #expect(!options.trace && !options.verbose && !options.latency)
    }

    @Test("Every option of the app, with its value after a space or an equals sign")
    func everyOption() throws {
        let expected = appOptions {
            $0.trace = true
            $0.verbose = true
            $0.latency = true
            $0.display = "wayland-1"
            $0.file = "/tmp/a drawing.json"
            $0.autosaveDelay = 60
        }
        #expect(try commandLine.parse(["--trace", "--verbose", "--latency", "--display", "wayland-1",
                                       "--file", "/tmp/a drawing.json", "--autosave-delay", "60"]) == expected)
        #expect(try commandLine.parse(["--latency", "--display=wayland-1", "--file=/tmp/a drawing.json",
                                       "--autosave-delay=60", "--verbose", "--trace"]) == expected)
    }

    @Test("A repeated option keeps its last value; a value may hold '=' and start with '-' after '='")
    func repeatedAndOddValues() throws {
        #expect(try commandLine.parse(["--file", "a", "--file=b"]) == appOptions { $0.file = "b" })
        #expect(try commandLine.parse(["--file=x=y.json"]) == appOptions { $0.file = "x=y.json" })
        #expect(try commandLine.parse(["--autosave-delay=-1"]) == appOptions { $0.autosaveDelay = -1 })
        #expect(try commandLine.parse(["--file", "-"]) == appOptions { $0.file = "-" })
    }

    @Test("export takes the drawing positionally or with --file, before or after its name")
    func export() throws {
        #expect(try commandLine.parse(["export", "d.json", "--png", "o.png"])
                == .export(ExportOptions(drawing: "d.json", png: "o.png")))
        #expect(try commandLine.parse(["export", "--file", "d.json", "--svg=o.svg", "--png", "o.png"])
                == .export(ExportOptions(drawing: "d.json", png: "o.png", svg: "o.svg")))
        #expect(try commandLine.parse(["--file", "d.json", "export", "--svg", "o.svg"])
                == .export(ExportOptions(drawing: "d.json", svg: "o.svg")))
        // The positional drawing wins over --file; none at all means the default drawing.
        #expect(try commandLine.parse(["export", "--file", "f.json", "p.json", "--png", "o.png"])
                == .export(ExportOptions(drawing: "p.json", png: "o.png")))
        #expect(try commandLine.parse(["export", "--png", "o.png"]) == .export(ExportOptions(png: "o.png")))
        // The app's flags are accepted after the subcommand, as before, and do nothing there.
        #expect(try commandLine.parse(["export", "--trace", "--png", "o.png"]) == .export(ExportOptions(png: "o.png")))
    }

    @Test("After '--' every argument is positional, even one starting with '-'")
    func doubleDash() throws {
        #expect(try commandLine.parse(["export", "--png", "o.png", "--", "-odd.json"])
                == .export(ExportOptions(drawing: "-odd.json", png: "o.png")))
        #expect(mistake(["--", "--file"])?.message.hasPrefix("unexpected argument '--file' (a drawing is named") == true)
        // A subcommand's name after '--' is just a word.
        #expect(mistake(["--", "export"])?.message.hasPrefix("unexpected argument 'export'") == true)
    }

    @Test("measure-file (hidden) has its defaults and reads whole numbers")
    func measureFile() throws {
        #expect(try commandLine.parse(["measure-file"]) == .measureFile(MeasureFileOptions(lines: 100_000, folder: "/tmp", runs: 3)))
        #expect(try commandLine.parse(["measure-file", "--lines", "10", "--folder=/var/tmp", "--runs", "1"])
                == .measureFile(MeasureFileOptions(lines: 10, folder: "/var/tmp", runs: 1)))
    }

    @Test("--version prints the version, anywhere on the line")
    func version() throws {
        #expect(try commandLine.parse(["--version"]) == .version("1.2.3"))
        #expect(try commandLine.parse(["export", "--version"]) == .version("1.2.3"))
        #expect(try commandLine.parse(["--bogus", "--version"]) == .version("1.2.3"), "help and version win over mistakes")
    }
}

@Suite("Command line: mistakes")
struct CommandLineMistakeTests {
    @Test("An unknown option is named, with a near spelling suggested")
    func unknownOption() {
        #expect(mistake(["--bogus"])?.message == "unknown option '--bogus'")
        #expect(mistake(["--fil", "x"])?.message == "unknown option '--fil' (did you mean '--file'?)")
        #expect(mistake(["--vrebose"])?.message == "unknown option '--vrebose' (did you mean '--verbose'?)")
        #expect(mistake(["-x"])?.message == "unknown option '-x'")
        #expect(mistake(["---trace"])?.message == "unknown option '---trace' (did you mean '--trace'?)")
        // A subcommand's options belong to it alone.
        #expect(mistake(["--png", "o.png"])?.message == "unknown option '--png'")
        // Hidden options are accepted but never suggested.
        #expect(mistake(["--autosave-dela", "1"])?.message == "unknown option '--autosave-dela'")
    }

    @Test("An option without its value says which value is missing")
    func missingValue() {
        #expect(mistake(["--display"])?.message == "--display <display> needs a value")
        #expect(mistake(["--file="])?.message == "--file <path> needs a value")
        // The next word looks like an option: a forgotten value, not a file called --trace.
        #expect(mistake(["--file", "--trace"])?.message == "--file <path> needs a value")
        #expect(mistake(["--autosave-delay", "-1"])?.message == "--autosave-delay <seconds> needs a value")
        #expect(mistake(["export", "--png"])?.subcommand == "export")
    }

    @Test("A value that is not a number is named with what the option wants")
    func badNumbers() {
        #expect(mistake(["--autosave-delay", "soon"])?.message == "--autosave-delay wants a number, not 'soon'")
        let lines = mistake(["measure-file", "--lines=1.5"])
        #expect(lines?.message == "--lines wants a whole number, not '1.5'")
        #expect(lines?.subcommand == "measure-file")
        #expect(mistake(["measure-file", "--runs", "three"])?.message == "--runs wants a whole number, not 'three'")
    }

    @Test("A flag given a value, and arguments nothing expects, are mistakes")
    func unexpected() {
        #expect(mistake(["--trace=1"])?.message == "--trace takes no value")
        #expect(mistake(["extra"])?.message == "unexpected argument 'extra' (a drawing is named with its extension or folder, e.g. extra.json)")
        #expect(mistake(["exports"])?.message.hasPrefix("unexpected argument 'exports'") == true)
        #expect(mistake(["export", "a.json", "b.json", "--png", "o.png"])?.message == "unexpected argument 'b.json'")
    }

    @Test("The drawing to open, positionally (as a file manager passes it) or with --file, not both")
    func drawingArgument() throws {
        guard case .runApp(let positional) = try commandLine.parse(["my drawing.json", "--trace"]),
              case .runApp(let named) = try commandLine.parse(["--file", "other.json"]) else {
            Issue.record("not the app")
            return
        }
        #expect(positional.file == "my drawing.json" && positional.trace)
        #expect(named.file == "other.json")
        #expect(mistake(["a.json", "--file", "b.json"])?.message == "name the drawing once: as <drawing> or with --file, not both.")
        #expect(mistake(["a.json", "b.json"])?.message == "unexpected argument 'b.json'")
    }

    @Test("--record, --replay and --speed; replay's input, outputs, start drawing and size")
    func recordAndReplay() throws {
        guard case .runApp(let app) = try commandLine.parse(["--record", "r.ttrec", "--replay", "s.ttrec", "--speed", "0"]) else {
            Issue.record("not the app")
            return
        }
        #expect(app.record == "r.ttrec" && app.replay == "s.ttrec" && app.replaySpeed == 0)
        #expect(mistake(["--speed", "nan"])?.message.contains("--speed takes a factor") == true)
        guard case .replay(let replay) = try commandLine.parse(["replay", "t.txt", "--png", "o.png", "--size", "800x600", "--file", "d.json"]) else {
            Issue.record("not a replay")
            return
        }
        var expected = ReplayOptions(input: "t.txt")
        (expected.png, expected.width, expected.height, expected.drawing) = ("o.png", 800, 600, "d.json")
        #expect(replay == expected)
        #expect(mistake(["replay"])?.message == "say which recording or trace to replay.")
        #expect(mistake(["replay", "t.txt"])?.message.contains("say what to write") == true)
        #expect(mistake(["replay", "t.txt", "--trace", "--size", "0x5"])?.message.contains("--size takes") == true)
    }

    @Test("replay's device-trace options: an evemu description and its events, --tool and --axis-range in both forms")
    func replayTraceOptions() throws {
        guard case .replay(let replay) = try commandLine.parse(["replay", "d.desc", "e.events", "--svg", "o.svg", "--tool", "free",
                                                                 "--axis-range=-10:4095,0:2047"]) else {
            Issue.record("not a replay")
            return
        }
        var expected = ReplayOptions(input: "d.desc")
        (expected.events, expected.svg, expected.tool, expected.axisRange) = ("e.events", "o.svg", .free, [-10, 4095, 0, 2047])
        #expect(replay == expected)
        guard case .replay(let short) = try commandLine.parse(["replay", "t.txt", "--trace", "--axis-range", "4095x2047", "--tool", "circle"]) else {
            Issue.record("not a replay")
            return
        }
        #expect(short.axisRange == [0, 4095, 0, 2047] && short.tool == .circle && short.events == nil)
        #expect(mistake(["replay", "t.txt", "--trace", "--tool", "pen"])?.message == "--tool takes line, free or circle.")
        for bad in ["4095", "0:10", "10:0,0:10", "0:10,0:x", "x:1,2:3", "1:2,3:4,5:6"] {
            #expect(mistake(["replay", "t.txt", "--trace", "--axis-range", bad])?.message.hasPrefix("--axis-range takes") == true, "\(bad)")
        }
        #expect(mistake(["replay", "a", "b", "c", "--trace"])?.message == "unexpected argument 'c'")
    }

    @Test("export without --png or --svg says what to write")
    func exportNeedsOutput() {
        let error = mistake(["export", "d.json"])
        #expect(error?.message.contains("--png OUT, --svg OUT or both") == true)
        #expect(error?.subcommand == "export")
    }

    @Test("The report names the problem, shows the usage and where the help is; the exit status is EX_USAGE")
    func report() throws {
        let root = commandLine.report(try #require(mistake(["--bogus"])))
        #expect(root == """
            touchtracker: unknown option '--bogus'
            Usage: touchtracker [<drawing> | --file <path>] [--trace] [--verbose] [--display <display>]
                   touchtracker export [<drawing> | --file <path>] [--png <out>] [--svg <out>]
                   touchtracker replay <input> [--png <out>] [--svg <out>] [--trace]
            See 'touchtracker --help' for more.

            """)
        let measure = commandLine.report(try #require(mistake(["measure-file", "--runs", "x"])))
        #expect(measure.contains("\nUsage: touchtracker measure-file [--lines <lines>] [--folder <folder>] [--runs <runs>]\n"))
        #expect(measure.hasSuffix("See 'touchtracker measure-file --help' for more.\n"))
        #expect(UsageError.exitStatus == 64)
    }
}

@Suite("Command line: help")
struct CommandLineHelpTests {
    func help(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard case .success(.help(let text)) = parse(arguments) else {
            Issue.record("\(arguments) did not ask for help", sourceLocation: sourceLocation)
            return ""
        }
        return text
    }

    @Test("--help, -h and help print the app's help: what it does, usage, keys, every visible option and export")
    func appHelp() {
        let text = help(["--help"])
        #expect(text == help(["-h"]) && text == help(["help"]) && text == help(["--bogus", "--help"]))
        #expect(text.hasPrefix("A multi-touch drawing app for Wayland: every finger draws its own line.\n\nUsage: touchtracker [<drawing> | --file <path>]"))
        for option in ["--trace", "--verbose", "--display <display>", "--latency", "--file <path>", "--version", "-h, --help"] {
            #expect(text.contains("\n  \(option) "), "\(option) missing")
        }
        #expect(text.contains("\n  export                Write a drawing as a PNG picture"))
        #expect(text.contains("Ctrl+Shift+Z or Ctrl+Y") && text.contains("org.example.Test"))
        // Options for tests and the developer command stay out of the help.
        #expect(!text.contains("autosave-delay") && !text.contains("measure-file"))
    }

    @Test("the help's Keys are the app's shortcuts: every one of KeyCommand.all, by its label and title")
    func keysFromTheShortcuts() {
        let text = help(["--help"])
        for command in KeyCommand.all {
            #expect(text.contains(command.label), "\(command.label) missing")
            #expect(text.contains(command.title + "."), "\(command.title) missing")
        }
        #expect(KeyCommand.all.map(\.label).contains("Ctrl+Shift+Z"))
        #expect(text.contains("\nKeys:\n  Delete or Backspace   Delete the selected line.\n"))
    }

    @Test("export's help, by --help after it or by help export")
    func exportHelp() {
        let text = help(["export", "--help"])
        #expect(text == help(["help", "export"]) && text == help(["export", "-h", "--png"]))
        #expect(text.hasPrefix("Write a drawing as a PNG picture and/or an SVG file (no compositor needed).\n"))
        for option in ["<drawing>", "--png <out>", "--svg <out>", "--file <path>", "-h, --help"] {
            #expect(text.contains("\n  \(option) "), "\(option) missing")
        }
        #expect(text.contains("Examples: touchtracker export --png out.png;"))
        #expect(!text.contains("--trace"), "the app's own options are not export's")
    }

    @Test("The hidden measure-file has help too, with its defaults")
    func measureFileHelp() {
        let text = help(["measure-file", "--help"])
        #expect(text.contains("Usage: touchtracker measure-file [--lines <lines>] [--folder <folder>] [--runs <runs>]"))
        #expect(text.contains("(default: 100000)") && text.contains("(default: /tmp)") && text.contains("(default: 3)"))
    }

    @Test("Help fits 80 columns, and long option texts wrap under their column")
    func wrapping() {
        for arguments in [["--help"], ["export", "--help"], ["measure-file", "--help"]] {
            for line in help(arguments).split(separator: "\n") where line.count > 80 {
                // Only usage lines, which must stay whole to be copied, may be longer.
                #expect(line.contains("touchtracker "), "\(arguments): \(line)")
            }
        }
        #expect(help(["--help"]).contains("""
              --latency             Log, for every frame with input, input-to-commit and
                                    input-to-presentation times (wp_presentation) to
                                    standard error, and where the CPU time of any turn over
                                    2 ms went.
            """))
    }
}

@Suite("Command line: a command of one's own")
struct CommandSpecTests {
    let spec = CommandSpec(
        name: "tool", abstract: "Does a thing.",
        options: [.option("a-long-option-name", value: "value", help: "Has a name too long for the column."),
                  .flag("quiet", help: "Says less.")],
        arguments: [ArgumentSpec("input", help: "What to read.")])

    @Test("Usage is generated from the visible options and arguments when none is given")
    func generatedUsage() {
        #expect(spec.usage() == "Usage: tool [--a-long-option-name <value>] [--quiet] [<input>]")
    }

    @Test("A name too long for the column puts its text on the next line")
    func longName() {
        #expect(spec.help().contains("\n  --a-long-option-name <value>\n                        Has a name too long"))
        #expect(!spec.help().contains("Commands:"), "no subcommands, no list")
    }

    @Test("Without subcommands, 'help' is an ordinary argument")
    func helpWord() throws {
        #expect(try spec.parse(["help"]).arguments == ["help"])
    }
}
