// The touchscreen traces users attach to bug reports, read into recording entries: `evtest`'s text
// and `libinput record`'s YAML. Both are read line by line without a YAML library (the app carries
// no Foundation); only what a multitouch replay needs is taken, and anything unreadable is named
// by its line.
import Limits
import TouchKit

/// The kinds of input file a replay reads.
public enum InputFileKind: Equatable, Sendable {
    case recording, evtest, libinputRecord

    /// Which kind `text` is, from its first lines.
    public static func detect(_ text: Substring) -> InputFileKind? {
        for line in lines(of: text).prefix(40) {
            let t = line.drop { $0 == " " }
            if t.hasPrefix("touchtracker-input") { return .recording }
            if t.hasPrefix("Input driver version") || t.hasPrefix("Input device name") || t.hasPrefix("Event: time") {
                return .evtest
            }
            if t.hasPrefix("libinput:") || t.hasPrefix("ndevices:") || t.hasPrefix("devices:") { return .libinputRecord }
        }
        return nil
    }
}

/// Reads any input file the replay takes: a recording as it is; a device trace decoded onto a
/// window of `width` x `height` points.
public func readInputFile(_ text: String, width: Double, height: Double) throws(RecordingError) -> [RecordingEntry] {
    switch InputFileKind.detect(Substring(text)) {
    case .recording: return try RecordingFormat.parse(text)
    case .evtest: return try EvtestTrace.entries(text, width: width, height: height)
    case .libinputRecord: return try LibinputRecordTrace.entries(text, width: width, height: height)
    case nil:
        throw RecordingError(line: 1, "neither a TouchTracker recording nor an evtest or libinput record trace of a touchscreen")
    }
}

/// The axes a multitouch trace needs, or the error saying which is missing.
private func multitouchAxes(_ ranges: [UInt16: AxisRange], line: Int) throws(RecordingError) -> (AxisRange, AxisRange) {
    guard ranges[EvdevEvent.mtSlot] != nil else {
        throw RecordingError(line: line, "the device has no ABS_MT_SLOT: not a multitouch (protocol B) touchscreen")
    }
    guard let x = ranges[EvdevEvent.mtPositionX], let y = ranges[EvdevEvent.mtPositionY] else {
        throw RecordingError(line: line, "the device describes no ABS_MT_POSITION_X and ABS_MT_POSITION_Y ranges")
    }
    return (x, y)
}

private func integer(_ s: Substring) -> Int64? {
    if s.hasPrefix("0x") { return Int64(s.dropFirst(2), radix: 16) }
    return Int64(s)
}

/// `evtest /dev/input/eventN` output: the device's description, then one `Event:` line each.
public enum EvtestTrace {
    /// The largest event time taken, in seconds either side of 0: far beyond any clock's, and the
    /// difference of two such is still a finite Double.
    static let maxTime = Limit.traceTime

    public static func entries(_ text: String, width: Double, height: Double) throws(RecordingError) -> [RecordingEntry] {
        var ranges: [UInt16: AxisRange] = [:]
        var code: UInt16?
        var minimum: Int32?
        var decoder: MultitouchDecoder?
        var entries: [RecordingEntry] = []
        var number = 0
        for raw in lines(of: text) {
            number += 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("Event: time ") {
                if decoder == nil {
                    let (x, y) = try multitouchAxes(ranges, line: number)
                    decoder = MultitouchDecoder(x: x, y: y, width: width, height: height)
                }
                guard let event = event(line) else {
                    throw RecordingError(line: number, "an Event line evtest would not write: '\(line.prefix(80))'")
                }
                entries += try decoder!.decode(event, line: number)
            } else if decoder == nil {
                // The description: "Event code 53 (ABS_MT_POSITION_X)", then its Value, Min, Max.
                let words = line.split(separator: " ")
                if words.count >= 3, words[0] == "Event", words[1] == "code", let c = UInt16(words[2]) {
                    code = c
                    minimum = nil
                } else if words.count == 2, words[0] == "Min", let v = Int32(words[1]) {
                    minimum = v
                } else if words.count == 2, words[0] == "Max", let v = Int32(words[1]), let c = code, let m = minimum {
                    ranges[c] = AxisRange(minimum: m, maximum: v)
                } else if words.first == "Event" && words.dropFirst().first == "type" {
                    code = nil
                }
            }
        }
        guard decoder != nil else { throw RecordingError(line: max(number, 1), "the trace holds no events") }
        return entries
    }

    /// "Event: time 1700000000.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 1200"
    /// or "Event: time 1700000000.123456, -------------- SYN_REPORT ------------".
    static func event(_ line: Substring) -> EvdevEvent? {
        let fields = line.dropFirst("Event: time ".count).split(separator: ",")
        // Seconds as a kernel stamps them: within this the times between events are finite too
        // (Double reads "nan", "inf" and 1e308 alike).
        guard let first = fields.first, let time = Double(first.drop { $0 == " " }), abs(time) <= maxTime else { return nil }
        if fields.count == 2 {
            let marker = fields[1]
            if marker.contains("SYN_REPORT") { return EvdevEvent(time: time, type: 0, code: 0, value: 0) }
            if marker.contains("SYN_DROPPED") { return EvdevEvent(time: time, type: 0, code: 3, value: 0) }
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

/// `libinput record` YAML: the first device whose absinfo has multitouch axes, and its events
/// (`- [sec, usec, type, code, value]` lines under `- evdev:`).
public enum LibinputRecordTrace {
    public static func entries(_ text: String, width: Double, height: Double) throws(RecordingError) -> [RecordingEntry] {
        var ranges: [UInt16: AxisRange] = [:]
        var inAbsinfo = false
        var absIndent = 0
        var decoder: MultitouchDecoder?
        var entries: [RecordingEntry] = []
        var number = 0
        var deviceDone = false
        var firstProblem: RecordingError?
        for raw in lines(of: text) {
            number += 1
            let withoutComment = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let indent = withoutComment.prefix { $0 == " " }.count
            let line = withoutComment.dropFirst(indent).reversed().drop { $0 == " " || $0 == "\r" }.reversed()
            let content = Substring(String(line))
            if content.isEmpty { continue }
            if content.hasPrefix("- node:") {
                // The next device: the first one with multitouch events is the one replayed.
                if decoder != nil { deviceDone = true }
                if !deviceDone { ranges = [:] }
                inAbsinfo = false
                continue
            }
            if deviceDone { continue }
            if content == "absinfo:" {
                inAbsinfo = true
                absIndent = indent
                continue
            }
            if inAbsinfo {
                guard indent > absIndent, let colon = content.firstIndex(of: ":"), let code = UInt16(content[..<colon]) else {
                    inAbsinfo = false
                    continue
                }
                let values = numbers(content[content.index(after: colon)...])
                guard let values, values.count >= 2, let lo = Int32(exactly: values[0]), let hi = Int32(exactly: values[1]) else {
                    throw RecordingError(line: number, "absinfo of code \(code) should be [min, max, fuzz, flat, resolution]")
                }
                ranges[code] = AxisRange(minimum: lo, maximum: hi)
                continue
            }
            if content.hasPrefix("- [") {
                guard let values = numbers(content.dropFirst(2)), values.count == 5,
                      let type = UInt16(exactly: values[2]), let code = UInt16(exactly: values[3]),
                      let value = Int32(exactly: values[4]) else {
                    throw RecordingError(line: number, "an event should be [sec, usec, type, code, value]: '\(content.prefix(80))'")
                }
                if decoder == nil {
                    // A device without multitouch axes (a button, a keyboard): its events are skipped.
                    do throws(RecordingError) {
                        let (x, y) = try multitouchAxes(ranges, line: number)
                        decoder = MultitouchDecoder(x: x, y: y, width: width, height: height)
                    } catch {
                        if firstProblem == nil { firstProblem = error }
                        continue
                    }
                }
                let time = Double(values[0]) + Double(values[1]) / 1_000_000
                entries += try decoder!.decode(EvdevEvent(time: time, type: type, code: code, value: value), line: number)
            }
        }
        guard decoder != nil else {
            throw firstProblem ?? RecordingError(line: max(number, 1), "the trace holds no events of a multitouch device")
        }
        return entries
    }

    /// "[1, 2, 3]" as integers, or nil.
    private static func numbers(_ s: Substring) -> [Int64]? {
        let t = s.drop { $0 == " " }
        guard t.hasPrefix("["), let close = t.lastIndex(of: "]") else { return nil }
        var result: [Int64] = []
        for part in t[t.index(after: t.startIndex)..<close].split(separator: ",") {
            guard let v = integer(part.drop { $0 == " " }.prefix { $0 != " " }) else { return nil }
            result.append(v)
        }
        return result
    }
}
