// The files a replay reads: the app's own recordings, and the touchscreen traces users attach to
// bug reports (evtest's text, evemu-record's, libinput record's YAML), whole or as a forum pastes
// them: event lines without their header, indented, quoted. Each trace reader gives the device's
// description and its events; `TraceDecoding` turns those into the adapter's calls. Anything
// unreadable is named by its line.
import Limits
import TouchKit

/// The kinds of input file a replay reads.
public enum InputFileKind: Equatable, Sendable {
    case recording, evtest, evemu, libinputRecord

    /// Which kind `text` is, from the first of its lines that only one kind writes.
    public static func detect(_ text: Substring) -> InputFileKind? {
        for raw in lines(of: text).prefix(Limit.inputKindLines) {
            let t = pasted(raw)
            if t.hasPrefix("touchtracker-input") { return .recording }
            if t.hasPrefix("# EVEMU") || t.hasPrefix("E: ") || t.hasPrefix("A: ") || t.hasPrefix("N: ") { return .evemu }
            if t.hasPrefix("Input driver version") || t.hasPrefix("Input device name") || t.hasPrefix("Event: time")
                || t.hasPrefix("Event type ") || t.hasPrefix("Event code ") {
                return .evtest
            }
            if t.hasPrefix("libinput:") || t.hasPrefix("ndevices:") || t.hasPrefix("devices:") || t.hasPrefix("- evdev:")
                || t.hasPrefix("- [") {
                return .libinputRecord
            }
        }
        return nil
    }
}

/// What a replay is asked to do with a device trace.
public struct TraceOptions: Equatable, Sendable {
    /// The window the panel is fitted into, in points.
    public var width: Double
    public var height: Double
    /// The position axes' ranges when the trace lacks them (`--axis-range`); they win over the
    /// trace's own when given.
    public var axisRanges: [AxisRange]?

    public init(width: Double, height: Double, axisRanges: [AxisRange]? = nil) {
        self.width = width
        self.height = height
        self.axisRanges = axisRanges
    }
}

/// An input file read: the entries to replay, what the user should know about how they were
/// had, and the contacts cancelled as palms.
public struct InputReading: Equatable, Sendable {
    public var entries: [RecordingEntry]
    public var warnings: [String] = []
    public var palms = 0
    /// A device trace (not a recording): it draws with the tool the replay is given.
    public var isTrace = false

    public init(entries: [RecordingEntry], warnings: [String] = [], palms: Int = 0, isTrace: Bool = false) {
        self.entries = entries
        self.warnings = warnings
        self.palms = palms
        self.isTrace = isTrace
    }
}

/// Reads any input file the replay takes. `description` is an evemu device description given as
/// a file of its own, for the events in `text`.
public func readInput(_ text: String, description: DeviceDescription? = nil, options: TraceOptions) throws(RecordingError) -> InputReading {
    let kind = description != nil ? .evemu : InputFileKind.detect(Substring(text))
    let trace: TraceEvents
    switch kind {
    case .recording: return InputReading(entries: try RecordingFormat.parse(text))
    case .evtest: trace = try EvtestTrace.read(text)
    case .evemu: trace = try EvemuTrace.read(text, description: description)
    case .libinputRecord: trace = try LibinputRecordTrace.read(text)
    case nil:
        throw RecordingError(line: 1, """
            expected a TouchTracker recording or a touchscreen trace (evtest, evemu-record or libinput record), \
            and found none of their lines in the first \(Limit.inputKindLines)
            """)
    }
    return try TraceDecoding.decode(trace, options: options)
}

/// The entries of any input file, a device trace fitted inside a window of `width` x `height`
/// points.
public func readInputFile(_ text: String, width: Double, height: Double) throws(RecordingError) -> [RecordingEntry] {
    try readInput(text, options: TraceOptions(width: width, height: height)).entries
}

/// A line as a trace's reader sees it: without the indentation, the quote marks ("> ") and the
/// carriage return that pasting it into a forum or a mail may have added.
func pasted(_ line: Substring) -> Substring {
    var t = line.drop { $0 == " " || $0 == "\t" }
    while t.first == ">" { t = t.dropFirst().drop { $0 == " " || $0 == "\t" } }
    while t.last == "\r" || t.last == " " || t.last == "\t" { t = t.dropLast() }
    return t
}

/// The lines of a trace, numbered from 1, each as written and as its reader sees it (`pasted`);
/// and the number of the last line with anything on it, where a missing end is named.
func traceLines(_ text: String) -> (lines: [(number: Int, raw: Substring, line: Substring)], last: Int) {
    var result: [(Int, Substring, Substring)] = []
    var last = 1
    for (i, raw) in lines(of: text).enumerated() {
        let line = pasted(raw)
        if !line.isEmpty { last = i + 1 }
        result.append((i + 1, raw, line))
    }
    return (result, last)
}

/// A device trace as read: the device's description and its events, each with its line.
struct TraceEvents {
    var description = DeviceDescription()
    var events: [EvdevEvent] = []
    var lines: [Int] = []
    /// The file's last line, for what is missing at its end.
    var lastLine = 1
    /// What the events are read as, for messages ("evtest").
    var format: String

    init(format: String) { self.format = format }

    mutating func append(_ event: EvdevEvent, line: Int) {
        events.append(event)
        lines.append(line)
    }
}
