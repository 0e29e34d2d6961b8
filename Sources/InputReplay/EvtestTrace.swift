// `evtest /dev/input/eventN` output: the device's description, then one `Event:` line an event.
// Pasted excerpts are read too: event lines without the header (or with part of it), the
// separators evtest prints for a plain sync ("-------------- EV_SYN ------------" in older
// versions, "SYN_REPORT" in newer), for a protocol-A contact ("++++ SYN_MT_REPORT ++++") and for
// lost events (SYN_DROPPED, with or without a time).
import Limits

public enum EvtestTrace {
    /// The largest event time taken, in seconds either side of 0: far beyond any clock's, and the
    /// difference of two such is still a finite Double.
    static let maxTime = Limit.traceTime

    static let example = "'Event: time 12.345678, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 1200'"

    /// The trace in `text` decoded for a replay.
    public static func reading(_ text: String, options: TraceOptions) throws(RecordingError) -> InputReading {
        try TraceDecoding.decode(read(text), options: options)
    }

    static func read(_ text: String) throws(RecordingError) -> TraceEvents {
        var trace = TraceEvents(format: "evtest")
        var header = DescriptionReader()
        let (numbered, last) = traceLines(text)
        for (number, _, line) in numbered {
            if line.hasPrefix("Event: time") {
                guard let e = event(line) else {
                    throw RecordingError(line: number, "expected an evtest event such as \(example), found '\(line.prefix(80))'")
                }
                trace.append(e, line: number)
            } else if line.contains("SYN_DROPPED") {
                // Newer evtest prints the loss without a time: it happened after the last event.
                trace.append(EvdevEvent(time: trace.events.last?.time ?? 0, type: 0, code: 3, value: 0), line: number)
            } else if trace.events.isEmpty {
                header.take(line)
            }
        }
        trace.description = header.description
        trace.lastLine = last
        return trace
    }

    /// "Event: time 1700000000.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 1200"
    /// or "Event: time 1700000000.123456, -------------- SYN_REPORT ------------".
    static func event(_ line: Substring) -> EvdevEvent? {
        let fields = line.dropFirst("Event: time".count).split(separator: ",")
        // Seconds as a kernel stamps them: within this the times between events are finite too
        // (Double reads "nan", "inf" and 1e308 alike).
        guard let first = fields.first, let time = Double(first.drop { $0 == " " }), abs(time) <= maxTime else { return nil }
        if fields.count == 2 {
            let marker = fields[1]
            if marker.contains("SYN_MT_REPORT") { return EvdevEvent(time: time, type: 0, code: 2, value: 0) }
            if marker.contains("SYN_DROPPED") { return EvdevEvent(time: time, type: 0, code: 3, value: 0) }
            if marker.contains("SYN_REPORT") || marker.contains("EV_SYN") || marker.contains("Report Sync") {
                return EvdevEvent(time: time, type: 0, code: 0, value: 0)
            }
            // Another sync (SYN_CONFIG ...): nothing a replay acts on.
            return marker.contains("SYN_") ? EvdevEvent(time: time, type: 0, code: 99, value: 0) : nil
        }
        guard fields.count == 4 else { return nil }
        func value(_ field: Substring, _ name: String) -> Int64? {
            let words = field.split(separator: " ")
            guard words.count >= 2, words[0] == name else { return nil }
            return integer(words[1])
        }
        guard let type = value(fields[1], "type"), let code = value(fields[2], "code"), let v = value(fields[3], "value"),
              let type16 = UInt16(exactly: type), let code16 = UInt16(exactly: code), let v32 = Int32(exactly: v) else { return nil }
        return EvdevEvent(time: time, type: type16, code: code16, value: v32)
    }
}
