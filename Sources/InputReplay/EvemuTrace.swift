// `evemu-record` and `evemu-describe` files: the description (`N:` name, `I:` ids, `P:` property
// bytes, `B:` code bytes by event type, `A:` axis code min max fuzz flat [resolution], all numbers
// of codes and bytes in hex) and the events (`E: <sec>.<usec> <type hex> <code hex> <value>`).
// `#` starts a comment anywhere but on the `N:` line (a name may hold one); the comment header
// newer versions write repeats the description as evtest prints it, and stands in for `A:` lines
// a user cut. Some collections keep the description and the events in two files.
import Limits

public enum EvemuTrace {
    static let example = "'E: 12.345678 0003 0035 1200'"

    /// The description in an `evemu-describe` file (or the top of a recording), read alone.
    public static func description(_ text: String) throws(RecordingError) -> DeviceDescription {
        let trace = try read(text, description: nil)
        guard !trace.description.isEmpty else {
            throw RecordingError(line: 1, "expected an evemu device description ('N:', 'A:' lines), and found none")
        }
        return trace.description
    }

    /// The recording in `text` decoded for a replay; `description` is the device's, when it came
    /// as a file of its own.
    public static func reading(_ text: String, description: DeviceDescription? = nil,
                               options: TraceOptions) throws(RecordingError) -> InputReading {
        try TraceDecoding.decode(read(text, description: description), options: options)
    }

    static func read(_ text: String, description given: DeviceDescription?) throws(RecordingError) -> TraceEvents {
        var trace = TraceEvents(format: "evemu")
        var comments = DescriptionReader()
        var description = DeviceDescription()
        /// The next byte's index in each type's `B:` bitmask, and in the `P:` one.
        var bitmaskBytes: [Int: Int] = [:]
        var propertyBytes = 0
        let (numbered, last) = traceLines(text)
        for (number, _, whole) in numbered {
            if whole.hasPrefix("N:") { continue }
            let parts = whole.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let line = pasted(parts.first ?? "")
            if line.isEmpty {
                if parts.count > 1, trace.events.isEmpty { comments.take(pasted(parts[1])) }
                continue
            }
            let words = line.split { $0 == " " || $0 == "\t" }
            func fail(_ expected: String) -> RecordingError {
                RecordingError(line: number, "expected \(expected), found '\(line.prefix(80))'")
            }
            switch words[0] {
            case "E:":
                guard words.count == 5, let time = Double(words[1]), abs(time) <= EvtestTrace.maxTime,
                      let type = UInt16(words[2], radix: 16), let code = UInt16(words[3], radix: 16),
                      let value = integer(words[4]).flatMap({ Int32(exactly: $0) }) else {
                    throw fail("an evemu event such as \(example) (type and code in hex)")
                }
                trace.append(EvdevEvent(time: time, type: type, code: code, value: value), line: number)
            case "A:":
                let values = words.dropFirst(2).compactMap { integer($0).flatMap { Int32(exactly: $0) } }
                guard words.count >= 4, let code = UInt16(words[1], radix: 16), values.count == words.count - 2 else {
                    throw fail("an axis as 'A: <code hex> <min> <max> <fuzz> <flat> <resolution>'")
                }
                description.ranges[code] = AxisRange(minimum: values[0], maximum: values[1], resolution: values.count >= 5 ? max(values[4], 0) : 0)
            case "P:":
                description.knowsProperties = true
                for word in words.dropFirst() {
                    guard let byte = UInt8(word, radix: 16) else { throw fail("property bytes in hex, as 'P: 02 00 00 00 00 00 00 00'") }
                    // Past the kernel's INPUT_PROP_CNT and KEY_CNT a bit names nothing: not kept.
                    for bit in 0..<8 where byte & (1 << bit) != 0 && propertyBytes < 4 { description.properties.insert(propertyBytes * 8 + bit) }
                    propertyBytes += 1
                }
            case "B:":
                guard words.count >= 2, let type = Int(words[1], radix: 16) else { throw fail("'B: <type hex> <bytes in hex>'") }
                var index = bitmaskBytes[type, default: 0]
                for word in words.dropFirst(2) {
                    guard let byte = UInt8(word, radix: 16) else { throw fail("'B: <type hex> <bytes in hex>'") }
                    for bit in 0..<8 where type == 1 && byte & (1 << bit) != 0 && index < 96 { description.keys.insert(index * 8 + bit) }
                    index += 1
                }
                bitmaskBytes[type] = index
            default:
                // I:, L:, S: and anything else: nothing a replay needs.
                continue
            }
        }
        description.complete(from: comments.description)
        trace.description = given ?? description
        trace.lastLine = last
        return trace
    }
}
