// The touchtracker command line: its commands, options and help texts, and what a parse means as
// typed values for the executable's main.

/// What the user asked touchtracker to do.
public enum Invocation: Equatable, Sendable {
    case runApp(AppOptions)
    case export(ExportOptions)
    case measureFile(MeasureFileOptions)
    case replay(ReplayOptions)
    /// Print this text (the help asked for) to standard output.
    case help(String)
    case version(String)
}

/// Options of the app itself.
public struct AppOptions: Equatable, Sendable {
    public var trace = false
    public var verbose = false
    public var latency = false
    /// Off (`--no-prediction`): touches carry no predicted positions and lines in progress end
    /// where the finger was last seen, whatever the preferences say.
    public var prediction = true
    /// nil: $WAYLAND_DISPLAY.
    public var display: String?
    /// nil: the default drawing under $XDG_DATA_HOME.
    public var file: String?
    /// Seconds from a change to its autosave; tests make it long to check the saves on quitting.
    public var autosaveDelay = 0.2
    /// Write every input event to this file as it comes (`--record`).
    public var record: String?
    /// Play this recording or touchscreen trace into the window (`--replay`), at `replaySpeed`
    /// times its pace (0: as fast as possible).
    public var replay: String?
    public var replaySpeed = 1.0

    public init() {}
}

/// The tool a device trace draws with (`--tool`); a recording brings its own.
public enum ReplayTool: String, Equatable, Sendable, CaseIterable {
    case line, free, circle
}

/// `touchtracker replay`: a recording or trace played without a compositor, and what to write.
public struct ReplayOptions: Equatable, Sendable {
    public var input: String
    /// The events, when `input` is an evemu device description kept apart from them.
    public var events: String?
    /// The whole drawing at the end as a picture, as `export` writes it.
    public var png: String?
    /// The window at the end, as the live app showed it.
    public var windowPNG: String?
    public var svg: String?
    /// The drawing the replay starts from (read, never written); nil: an empty one.
    public var drawing: String?
    /// The window a device trace is scaled onto (a recording brings its own).
    public var width = 1024.0
    public var height = 768.0
    public var trace = false
    public var tool = ReplayTool.line
    /// A trace's position axes as [x minimum, x maximum, y minimum, y maximum] (`--axis-range`),
    /// for an excerpt that lost its device's description.
    public var axisRange: [Int32]?

    public init(input: String) { self.input = input }
}

/// `touchtracker export`: at least one of `png` and `svg` is set.
public struct ExportOptions: Equatable, Sendable {
    /// The drawing as given, positionally or with --file; nil: the default drawing.
    public var drawing: String?
    public var png: String?
    public var svg: String?

    public init(drawing: String? = nil, png: String? = nil, svg: String? = nil) {
        self.drawing = drawing
        self.png = png
        self.svg = svg
    }
}

/// `touchtracker measure-file` (hidden).
public struct MeasureFileOptions: Equatable, Sendable {
    public var lines = 100_000
    public var folder = "/tmp"
    public var runs = 3

    public init(lines: Int = 100_000, folder: String = "/tmp", runs: Int = 3) {
        self.lines = lines
        self.folder = folder
        self.runs = runs
    }
}

/// touchtracker's commands. The version and app id are the executable's, shown in the help.
public struct TouchTrackerCommandLine: Sendable {
    public let version: String
    public let appID: String
    public let spec: CommandSpec

    public init(version: String, appID: String) {
        self.version = version
        self.appID = appID
        spec = Self.spec(appID: appID)
    }

    /// Reads `arguments` (without the program's name).
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let parsed = try spec.parse(arguments)
        if parsed.wantsHelp { return .help(spec.help(for: parsed.subcommand)) }
        if parsed.wantsVersion { return .version(version) }
        switch parsed.subcommand {
        case "export":
            let export = ExportOptions(drawing: parsed.arguments.first ?? parsed.values["file"],
                                       png: parsed.values["png"], svg: parsed.values["svg"])
            if export.png == nil, export.svg == nil {
                throw UsageError("say what to write: --png OUT, --svg OUT or both.", subcommand: "export")
            }
            return .export(export)
        case "replay":
            guard let input = parsed.arguments.first else {
                throw UsageError("say which recording or trace to replay.", subcommand: "replay")
            }
            var replay = ReplayOptions(input: input)
            replay.events = parsed.arguments.dropFirst().first
            replay.png = parsed.values["png"]
            replay.windowPNG = parsed.values["window-png"]
            replay.svg = parsed.values["svg"]
            replay.drawing = parsed.values["file"]
            replay.trace = parsed.flag("trace")
            if let size = parsed.values["size"] {
                let parts = size.split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= 32_768 }) else {
                    throw UsageError("--size takes WIDTHxHEIGHT in points, e.g. 1024x768.", subcommand: "replay")
                }
                (replay.width, replay.height) = (parts[0], parts[1])
            }
            if let tool = parsed.values["tool"] {
                guard let chosen = ReplayTool(rawValue: tool) else {
                    throw UsageError("--tool takes line, free or circle.", subcommand: "replay")
                }
                replay.tool = chosen
            }
            if let range = parsed.values["axis-range"] {
                guard let values = Self.axisRange(range) else {
                    throw UsageError("--axis-range takes XMIN:XMAX,YMIN:YMAX (or XMAXxYMAX from 0) in device units, e.g. 0:4095,0:4095.",
                                     subcommand: "replay")
                }
                replay.axisRange = values
            }
            if replay.png == nil, replay.windowPNG == nil, replay.svg == nil, !replay.trace {
                throw UsageError("say what to write: --png OUT, --window-png OUT, --svg OUT, --trace, or several.", subcommand: "replay")
            }
            return .replay(replay)
        case "measure-file":
            let defaults = MeasureFileOptions()
            return .measureFile(MeasureFileOptions(lines: try parsed.value("lines", default: defaults.lines),
                                                   folder: parsed.values["folder"] ?? defaults.folder,
                                                   runs: try parsed.value("runs", default: defaults.runs)))
        default:
            var app = AppOptions()
            app.trace = parsed.flag("trace")
            app.verbose = parsed.flag("verbose")
            app.latency = parsed.flag("latency")
            app.prediction = !parsed.flag("no-prediction")
            app.display = parsed.values["display"]
            // The drawing, positionally (a file manager's "open with") or with --file.
            if let drawing = parsed.arguments.first {
                guard parsed.values["file"] == nil else {
                    throw UsageError("name the drawing once: as <drawing> or with --file, not both.")
                }
                // A bare word is more likely a mistyped command than a drawing to create.
                guard drawing.contains(".") || drawing.contains("/") else {
                    throw UsageError("unexpected argument '\(drawing)' (a drawing is named with its extension or folder, e.g. \(drawing).json)")
                }
            }
            app.file = parsed.arguments.first ?? parsed.values["file"]
            app.autosaveDelay = try parsed.value("autosave-delay", default: app.autosaveDelay)
            app.record = parsed.values["record"]
            app.replay = parsed.values["replay"]
            app.replaySpeed = try parsed.value("speed", default: app.replaySpeed)
            guard app.replaySpeed >= 0, app.replaySpeed.isFinite else {
                throw UsageError("--speed takes a factor of the recording's pace, 0 for as fast as possible.", subcommand: nil)
            }
            return .runApp(app)
        }
    }

    /// "0:4095,0:2047" or "4095x2047" as [x min, x max, y min, y max], each axis's maximum above
    /// its minimum; nil for anything else.
    static func axisRange(_ text: String) -> [Int32]? {
        var values: [Int32]
        if text.contains(":") {
            let axes = text.split(separator: ",", omittingEmptySubsequences: false)
            values = axes.flatMap { $0.split(separator: ":", omittingEmptySubsequences: false) }.compactMap { Int32($0) }
            guard axes.count == 2, values.count == 4 else { return nil }
        } else {
            let maxima = text.split(separator: "x", omittingEmptySubsequences: false).compactMap { Int32($0) }
            guard maxima.count == 2 else { return nil }
            values = [0, maxima[0], 0, maxima[1]]
        }
        return values[0] < values[1] && values[2] < values[3] ? values : nil
    }

    /// A usage error for standard error: the problem, the usage and where to read more.
    public func report(_ error: UsageError) -> String { spec.report(error) }

    private static func spec(appID: String) -> CommandSpec {
        let export = CommandSpec(
            name: "export",
            abstract: "Write a drawing as a PNG picture and/or an SVG file (no compositor needed).",
            usage: ["touchtracker export [<drawing> | --file <path>] [--png <out>] [--svg <out>]"],
            discussion: """
                The picture shows the canvas from its top-left corner: at least 1024x768, larger when \
                lines reach further, white behind the lines. The drawing file is only read. \
                Examples: touchtracker export --png out.png; touchtracker export --file my.json --svg out.svg
                """,
            options: [
                // The main command's --file, listed again because it names what is exported.
                .option("file", value: "path", help: "The drawing to export, as <drawing> does."),
                .option("png", value: "out", help: "Write a PNG picture to this path."),
                .option("svg", value: "out", help: "Write an SVG file to this path."),
            ],
            arguments: [ArgumentSpec("drawing", help: "The drawing to export (default: --file, else $XDG_DATA_HOME/touchtracker/drawing.json).")])
        let replay = CommandSpec(
            name: "replay",
            abstract: "Play a recording or a touchscreen trace without a compositor and write the result.",
            usage: [
                "touchtracker replay <input> [--png <out>] [--svg <out>] [--trace] [--file <path>] [--size <w>x<h>]",
                "touchtracker replay <trace> [<events>] [--tool <tool>] [--axis-range <ranges>]",
            ],
            discussion: """
                <input> is a recording made with --record, or a touchscreen's trace: the text evtest \
                prints, an evemu-record file (or its description, with the events as <events>), or a \
                libinput record YAML; whole or an excerpt pasted from a bug report. The events go \
                through the same input adapter as live input, on a clock that follows the recording, \
                so a recording comes out as the live session drew it. --png and --svg write the whole \
                drawing at the end (as export does), --window-png the window as it looks then; \
                --trace logs every touch method call as the app's --trace does. A device's panel keeps its proportions, fitted inside a window of \
                --size points (default 1024x768) and centred, and draws with --tool. The replay ends \
                by saying what it drew. docs/input-recording.md describes the formats.
                """,
            options: [
                .option("png", value: "out", help: "Write the whole drawing at the end as a PNG picture."),
                .option("window-png", value: "out", help: "Write the window at the end, as the app showed it, as a PNG picture."),
                .option("svg", value: "out", help: "Write the drawing at the end as an SVG file."),
                .flag("trace", help: "Log every touch method call (phase, touch, location) to standard error."),
                .option("file", value: "path", help: "Start from this drawing (only read; default: an empty one)."),
                .option("size", value: "WxH", help: "The window a device trace is fitted inside (default: 1024x768)."),
                .option("tool", value: "tool", help: "The tool a device trace draws with: line, free or circle (default: line; a recording brings its own)."),
                .option("axis-range", value: "ranges", help: "A trace's position ranges in device units, XMIN:XMAX,YMIN:YMAX (or XMAXxYMAX), for an excerpt without its device's description."),
            ],
            arguments: [
                ArgumentSpec("input", help: "The recording or trace to replay, or an evemu device description."),
                ArgumentSpec("events", help: "The evemu events, when <input> is their device's description."),
            ])
        let measureFile = CommandSpec(
            name: "measure-file", abstract: "Time saving and loading a drawing of many lines.",
            options: [
                .option("lines", value: "lines", help: "Lines in the drawing (default: 100000)."),
                .option("folder", value: "folder", help: "The folder to write in (default: /tmp)."),
                .option("runs", value: "runs", help: "Runs to take the best of (default: 3)."),
            ],
            hidden: true)
        return CommandSpec(
            name: "touchtracker",
            abstract: "A multi-touch drawing app for Wayland: every finger draws its own line.",
            usage: [
                "touchtracker [<drawing> | --file <path>] [--trace] [--verbose] [--display <display>]",
                "touchtracker export [<drawing> | --file <path>] [--png <out>] [--svg <out>]",
                "touchtracker replay <input> [--png <out>] [--svg <out>] [--trace]",
            ],
            discussion: """
                Runs on the Wayland compositor named by WAYLAND_DISPLAY (GNOME, Sway, Weston, ...). \
                Touch draws with any number of fingers; the left mouse button and a pen draw like one \
                finger. Double tap clears; tap a line to select it and get Delete; long-press a line \
                and drag to move it; swipe up with three fingers for the colours. The toolbar has \
                Undo, Redo, the Line, Free and Circle tools and the Angle, Speed and Fingers toggles.

                Every finished line is saved at once to the drawing file (default: \
                $XDG_DATA_HOME/touchtracker/drawing.json, else ~/.local/share/touchtracker/drawing.json) \
                and restored on the next start. The window's app id is \(appID).
                """,
            tables: [HelpTable("Keys", rows: KeyCommand.helpRows(KeyCommand.all)), HelpTable("Keyboard", rows: KeyboardPath.keys)],
            options: [
                .flag("trace", help: "Log every touch method call (phase, touch, location) to standard error."),
                .flag("verbose", help: "Log debugging detail (window sizes, buffers, saves) to standard error."),
                .option("display", value: "display", help: "The Wayland display to connect to (default: $WAYLAND_DISPLAY)."),
                .flag("latency", help: "Log, for every frame with input, input-to-commit and input-to-presentation times (wp_presentation) to standard error, and where the CPU time of any turn over 2 ms went."),
                .flag("no-prediction", help: "Draw lines in progress only to where the finger was last seen, not to where it is expected when the frame is shown (the preference prediction = false keeps this)."),
                .option("file", value: "path", help: "The drawing to open, created if missing (default: $XDG_DATA_HOME/touchtracker/drawing.json)."),
                .option("autosave-delay", value: "seconds", help: "Seconds from a change to its autosave.", hidden: true),
                .option("record", value: "file", help: "Write every input event to this file as it comes, to replay it or attach it to a bug report."),
                .option("replay", value: "file", help: "Play this recording (or evtest / libinput record trace) into the window."),
                .option("speed", value: "factor", help: "How fast --replay plays: 2 is twice the recorded pace, 0 as fast as possible (default: 1)."),
            ],
            arguments: [ArgumentSpec("drawing", help: "The drawing to open, created if missing (as --file does).")],
            subcommands: [export, replay, measureFile])
    }
}
