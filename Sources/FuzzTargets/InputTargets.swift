// Input files a replay reads (docs/input-recording.md): the app's own recordings and the device
// traces users attach to bug reports. Whatever a reader accepts is written as a recording and
// read back, then replayed into the canvas and painted, as `touchtracker replay` would.
import InputReplay
import TouchKit

/// `entry` as the writer keeps it on one line: without the line breaks a hand-made failed paste's
/// reason may hold, or the carriage return that would end a setting's value.
private func oneLine(_ entry: RecordingEntry) -> RecordingEntry {
    switch entry {
    case .paste(.failed(let reason)): .paste(.failed(reason.filter { $0 != "\n" && $0 != "\r" }))
    case let .setting(name, value) where value.hasSuffix("\r"):
        .setting(name: name, value: String(value.reversed().drop { $0 == "\r" }.reversed()))
    default: entry
    }
}

/// Throws unless `entries`, written as a recording, read back the same.
private func requireRecordingRoundTrip(_ entries: [RecordingEntry], _ what: String) throws(FuzzFailure) {
    let text = ([RecordingFormat.header] + entries.map(RecordingFormat.line)).joined(separator: "\n") + "\n"
    let again: [RecordingEntry]
    do throws(RecordingError) {
        again = try RecordingFormat.parse(text)
    } catch {
        throw FuzzFailure("\(what): the reader refuses what the writer wrote: \(error)")
    }
    try require(again.count == entries.count, "\(what): \(entries.count) entries written, \(again.count) read back")
    for (written, read) in zip(entries, again) where oneLine(written) != read {
        throw FuzzFailure("\(what): '\(RecordingFormat.line(written))' read back as '\(RecordingFormat.line(read))'")
    }
}

/// Throws unless `entries` are a touch stream a device could give: a finger goes down once before
/// it moves or lifts, a cancel ends every finger, each turn's calls end with a frame, and every
/// number is finite. Time may go back, as a trace's clock may (the replay's clock does not).
private func requireWellFormedStream(_ entries: [RecordingEntry]) throws(FuzzFailure) {
    var down = Set<TouchInput.ID>()
    var framed = true
    for (i, entry) in entries.enumerated() {
        let at = "entry \(i + 1) ('\(RecordingFormat.line(entry))')"
        switch entry {
        case .turn(let t), .timers(let t):
            try require(t.isFinite, "\(at): not finite")
            try require(framed, "\(at): a turn's calls end without a frame")
        case .input(let event):
            switch event {
            case let .down(id, p, _, _, force):
                try require(p.x.isFinite && p.y.isFinite && force.isFinite, "\(at): not finite")
                try require(down.insert(id).inserted, "\(at): a finger down twice")
                framed = false
            case let .motion(id, p, _, _):
                try require(p.x.isFinite && p.y.isFinite, "\(at): not finite")
                try require(down.contains(id), "\(at): a finger moves that is not down")
                framed = false
            case let .up(id, _):
                try require(down.remove(id) != nil, "\(at): a finger lifts that is not down")
                framed = false
            case .cancel(let source):
                down = down.filter { $0.source != source }
            case .frame: framed = true
            case .beginBatch, .endBatch, .hover, .hoverEnded, .attributes: break
            case .scroll, .scrollEnded, .pinchBegan, .pinchChanged, .pinchEnded, .zoom:
                throw FuzzFailure("\(at): a touchscreen's trace gave a pointer's scroll or zoom")
            }
        default:
            throw FuzzFailure("\(at): a device trace gave an entry that is not input")
        }
    }
    try require(framed, "the last calls end without a frame")
}

/// Replays `entries` into the canvas and paints it; every line drawn must be one a file can hold.
private func requireReplays(_ entries: [RecordingEntry], _ what: String) throws(FuzzFailure) {
    let start = entries.lazy.compactMap { entry -> Double? in
        if case .turn(let t) = entry { t } else { nil }
    }.first ?? 0
    let stage = Stage(now: start)
    stage.replay(entries)
    try stage.requireSavable(what)
}

/// The reader's outcome for a device trace, checked the same way for every format: besides the
/// entries, each warning is one line, and the palms counted are never more than the trace has
/// contacts for.
private func traceOutcome(_ read: () throws(RecordingError) -> InputReading, _ what: String) throws(FuzzFailure) -> FuzzOutcome {
    let reading: InputReading
    do throws(RecordingError) {
        reading = try read()
    } catch {
        try require(!error.reason.isEmpty && !error.reason.contains("\n") && error.line >= 1, "error: \(error)")
        return .rejected(error.description)
    }
    let entries = reading.entries
    for warning in reading.warnings {
        try require(!warning.isEmpty && !warning.contains("\n"), "warning: '\(warning)'")
    }
    let summary = ReplaySummary(entries, palms: reading.palms)
    try require(summary.taps + summary.cancelled <= summary.contacts && summary.palms >= 0, "summary: \(summary)")
    try requireWellFormedStream(entries)
    try requireRecordingRoundTrip(entries, "the \(what) as a recording")
    try requireReplays(entries, "replaying the \(what)")
    return .accepted
}

extension FuzzTarget {
    static let recording = FuzzTarget("recording", maxLength: 64 << 10, """
        input recordings: every entry read writes back and reads back the same; then the recording \
        replays into the canvas, painted at each turn, and every line drawn is one a file can hold
        """) { bytes throws(FuzzFailure) in
        let entries: [RecordingEntry]
        do throws(RecordingError) {
            entries = try RecordingFormat.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            try require(!error.reason.isEmpty && !error.reason.contains("\n") && error.line >= 1, "error: \(error)")
            return .rejected(error.description)
        }
        try requireRecordingRoundTrip(entries, "the recording")
        try requireReplays(entries, "replaying the recording")
        return .accepted
    }

    static let evtest = FuzzTarget("evtest", maxLength: 64 << 10, """
        evtest traces, on a 400 x 300 window: the touch stream is well formed (down before moves \
        and lifts, frames, finite numbers), reads back as a recording, replays and paints
        """) { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        return try traceOutcome({ () throws(RecordingError) in
            try EvtestTrace.reading(text, options: Stage.traceOptions)
        }, "evtest trace")
    }

    static let libinputRecord = FuzzTarget("libinput-record", maxLength: 64 << 10, """
        libinput record traces, checked as evtest's are
        """) { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        return try traceOutcome({ () throws(RecordingError) in
            try LibinputRecordTrace.reading(text, options: Stage.traceOptions)
        }, "libinput record trace")
    }

    static let evemu = FuzzTarget("evemu", maxLength: 64 << 10, """
        evemu-record files, checked as evtest's are; the text before its first 'E:' line is also \
        read as a description file of its own, and the rest replayed with it
        """) { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        let whole = try traceOutcome({ () throws(RecordingError) in
            try EvemuTrace.reading(text, options: Stage.traceOptions)
        }, "evemu recording")
        // The description and the events as two files, split where the events begin.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let split = lines.firstIndex(where: { $0.hasPrefix("E:") }), split > 0 {
            let description = lines[..<split].joined(separator: "\n"), events = lines[split...].joined(separator: "\n")
            _ = try traceOutcome({ () throws(RecordingError) in
                try EvemuTrace.reading(events, description: try EvemuTrace.description(description), options: Stage.traceOptions)
            }, "evemu events with their description apart")
        }
        return whole
    }

    static let pastedTrace = FuzzTarget("pasted-trace", maxLength: 64 << 10, """
        any input file as pasted into a bug report (indented, quoted, cut), recognised by its lines \
        and read by the reader it names, with --axis-range given: checked as evtest's are
        """) { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        let options = TraceOptions(width: Stage.size.width, height: Stage.size.height,
                                   axisRanges: [AxisRange(minimum: 0, maximum: 4095), AxisRange(minimum: 0, maximum: 4095)])
        guard InputFileKind.detect(Substring(text)) != .recording else { return .rejected("a recording: the recording target's") }
        return try traceOutcome({ () throws(RecordingError) in try readInput(text, options: options) }, "pasted trace")
    }
}
