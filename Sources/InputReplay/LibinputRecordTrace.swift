// `libinput record` YAML, read line by line without a YAML library (the app carries no
// Foundation): each device's description (`absinfo:`, `codes:`, `properties:`, and the comment
// header above them, which still has the ranges when a user trimmed the rest) and its events
// (`- [sec, usec, type, code, value]` lines under `- evdev:`), and, when libinput's own events were
// recorded too, the contacts it cancelled as palms (`TOUCH_CANCEL`). The first device that sends
// multitouch events is the one replayed; event lines pasted alone are one device's.
import Limits

public enum LibinputRecordTrace {
    /// The trace in `text` decoded for a replay.
    public static func reading(_ text: String, options: TraceOptions) throws(RecordingError) -> InputReading {
        try TraceDecoding.decode(read(text), options: options)
    }

    static func read(_ text: String) throws(RecordingError) -> TraceEvents {
        var devices: [TraceEvents] = []
        var current = TraceEvents(format: "libinput record")
        var comments = DescriptionReader()
        var section = ""
        var sectionIndent = 0
        func finish() {
            current.description.complete(from: comments.description)
            devices.append(current)
        }
        let (numbered, last) = traceLines(text)
        for (number, raw, _) in numbered {
            let parts = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let comment = parts.count > 1 ? pasted(parts[1]) : ""
            let code = parts.first ?? ""
            let indent = code.prefix { $0 == " " || $0 == ">" }.count
            let content = pasted(code)
            if content.isEmpty {
                // The comment header describes the device as evtest does.
                if !comment.isEmpty, current.events.isEmpty { comments.take(comment) }
                continue
            }
            if content.hasPrefix("- node:") {
                if !current.events.isEmpty || !current.description.isEmpty || !comments.description.isEmpty { finish() }
                current = TraceEvents(format: "libinput record")
                comments = DescriptionReader()
                section = ""
                continue
            }
            if content == "absinfo:" || content == "codes:" {
                section = String(content)
                sectionIndent = indent
                continue
            }
            if !section.isEmpty {
                if indent > sectionIndent, let colon = content.firstIndex(of: ":"), let key = UInt16(content[..<colon]) {
                    let values = numbers(content[content.index(after: colon)...])
                    if section == "codes:" {
                        if key == 1, let values { current.description.keys.formUnion(values.compactMap { Int(exactly: $0) }) }
                        continue
                    }
                    guard let values, values.count >= 2, let lo = Int32(exactly: values[0]), let hi = Int32(exactly: values[1]) else {
                        throw RecordingError(line: number, "expected the absinfo of code \(key) as [min, max, fuzz, flat, resolution], found '\(content.prefix(80))'")
                    }
                    let resolution = values.count >= 5 ? Int32(exactly: values[4]) ?? 0 : 0
                    current.description.ranges[key] = AxisRange(minimum: lo, maximum: hi, resolution: max(resolution, 0))
                    continue
                }
                section = ""
            }
            if content.hasPrefix("properties:") {
                current.description.properties = Set((numbers(content.dropFirst("properties:".count)) ?? []).compactMap { Int(exactly: $0) })
                current.description.knowsProperties = true
                continue
            }
            if content.hasPrefix("- [") {
                guard let values = numbers(content.dropFirst(2)), values.count == 5,
                      let type = UInt16(exactly: values[2]), let code = UInt16(exactly: values[3]),
                      let value = Int32(exactly: values[4]) else {
                    throw RecordingError(line: number, "expected an event as [sec, usec, type, code, value], found '\(content.prefix(80))'")
                }
                let time = Double(values[0]) + Double(values[1]) / 1_000_000
                guard abs(time) <= EvtestTrace.maxTime else {
                    throw RecordingError(line: number, "the event's time is past what a clock gives: '\(content.prefix(80))'")
                }
                current.append(EvdevEvent(time: time, type: type, code: code, value: value), line: number)
            } else if content.hasPrefix("- {"), content.contains("type: TOUCH_CANCEL"),
                      let time = field("time", of: content).flatMap({ Double($0) }), abs(time) <= EvtestTrace.maxTime,
                      let slot = field("slot", of: content).flatMap({ Int32($0) }) {
                // libinput's own events, recorded with them: it cancelled this contact as a palm.
                let cancel = EvdevEvent.touchCancelled
                current.append(EvdevEvent(time: time, type: cancel.type, code: cancel.code, value: slot), line: number)
            }
        }
        finish()
        let multitouch = devices.first { device in
            device.events.contains { e in
                e.isMTReport || (e.type == EvdevEvent.abs && [EvdevEvent.mtSlot, EvdevEvent.mtPositionX, EvdevEvent.mtTrackingID].contains(e.code))
            }
        }
        guard var chosen = multitouch ?? devices.first(where: { !$0.events.isEmpty }) ?? devices.first else {
            return TraceEvents(format: "libinput record")
        }
        chosen.lastLine = last
        return chosen
    }

    /// The value of `name` in a libinput event line, "- {time: 1.5, type: TOUCH_CANCEL, slot: 0}".
    static func field(_ name: String, of line: Substring) -> Substring? {
        let parts = line.split { $0 == "{" || $0 == "," || $0 == "}" }
        guard let part = parts.first(where: { $0.drop { $0 == " " }.hasPrefix(name + ":") }) else { return nil }
        return part.drop { $0 == " " }.dropFirst(name.count + 1).drop { $0 == " " }
    }

    /// "[1, 2, 3]" as integers, or nil.
    static func numbers(_ s: Substring) -> [Int64]? {
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
