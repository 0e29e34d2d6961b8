// A JSON scanner over bytes, strict to the JSON grammar, with the format's limits on nesting and
// number length. It builds no tree: the readers built on it ask for exactly the values they expect
// and step over the rest, so what a file may make the reader allocate is what they allow. Errors
// are one line, with the line and column of the byte at fault.
#if canImport(Glibc)
import Glibc
#endif

/// A cursor over JSON bytes: objects and lists read one member at a time through a closure, keys,
/// strings and numbers read in place, anything else stepped over. Recursion happens only when
/// skipping unknown values, and is bounded by `maxDepth`. The drawing reader
/// (DrawingReader.swift) and the journal (DrawingJournal.swift) are built on it.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The scanner keeps to `maxDepth` and `maxNumberLength`; the readers built on it check the rest.
    let limits: DrawingFormat.Limits
    /// The offset of the next byte to read.
    var i = 0
    /// The line number of `bytes[0]` in messages (the journal hands over one line of a file).
    var firstLine = 1

    init(bytes: UnsafeBufferPointer<UInt8>, limits: DrawingFormat.Limits) {
        self.bytes = bytes
        self.limits = limits
        // A UTF-8 byte order mark is tolerated.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    }

    // MARK: JSON structure

    /// Reads `{ "key": value, ... }`; `body` reads each value (the cursor is at it).
    mutating func readObject(_ body: (inout JSONScanner, Key, Int) throws(DrawingParseError) -> Void) throws(DrawingParseError) {
        skipWhitespace()
        try expect("{", "'{'")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            let keyOffset = i
            guard peek() == UInt8(ascii: "\"") else { throw error(at: i, "expected a key in quotes, found \(found())") }
            let key = try readKey()
            skipWhitespace()
            try expect(":", "':' after a key")
            skipWhitespace()
            try body(&self, key, keyOffset)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect("}", "',' or '}'")
            return
        }
    }

    /// Reads `[ value, ... ]`; `body` reads each element (the cursor is at it).
    mutating func readArray(what: @autoclosure () -> String, _ body: (inout JSONScanner) throws(DrawingParseError) -> Void) throws(DrawingParseError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw error(at: i, "\(what()) should be a list '[', found \(found())") }
        i += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            try body(&self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect("]", "',' or ']' in \(what())")
            return
        }
    }

    /// Steps over any JSON value without keeping it.
    mutating func skipValue(depth: Int) throws(DrawingParseError) {
        guard depth <= limits.maxDepth else {
            throw error(at: i, "values nested more than \(limits.maxDepth) deep")
        }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            try readObject { (reader: inout JSONScanner, _: Key, _: Int) throws(DrawingParseError) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try readArray(what: "a list") { (reader: inout JSONScanner) throws(DrawingParseError) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            _ = try readString(maxBytes: 0, what: "a string", truncating: true)
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        default:
            _ = try readNumber(what: "a value")
        }
    }

    mutating func expectWord(_ word: String) throws(DrawingParseError) {
        let start = i
        for byte in word.utf8 {
            guard peek() == byte else { throw error(at: start, "expected a value, found \(found(at: start))") }
            i += 1
        }
    }

    /// Reads a key as one of the keys the formats know (``Key``, in DrawingReader.swift). The
    /// usual case, a short key without escapes, is matched in place, so no key becomes a String.
    mutating func readKey() throws(DrawingParseError) -> Key {
        let start = i + 1
        var end = start
        while end < bytes.count, end - start <= 8, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
              bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            i = end + 1
            let length = end - start
            for (spelling, key) in Key.spellings where spelling.count == length {
                var same = true
                for k in 0..<length where bytes[start + k] != spelling[k] {
                    same = false
                    break
                }
                if same { return key }
            }
            return .other
        }
        // Escapes, control characters or a long key: decode it (a long key is unknown anyway).
        let name = try readString(maxBytes: 16, what: "a key", truncating: true)
        return Key(rawValue: name) ?? .other
    }

    // MARK: JSON scalars

    /// Reads a string, decoding escapes. Longer than `maxBytes`: an error, or with `truncating`
    /// the first `maxBytes` bytes (used for keys and skipped strings, which need not be kept).
    mutating func readString(maxBytes: Int, what: @autoclosure () -> String, truncating: Bool = false) throws(DrawingParseError) -> String {
        skipWhitespace()
        let start = i
        guard peek() == UInt8(ascii: "\"") else {
            throw error(at: i, "\(what()) should be a string in quotes, found \(found())")
        }
        i += 1
        var value: [UInt8] = []
        func add(_ byte: UInt8) throws(DrawingParseError) {
            if value.count < maxBytes {
                value.append(byte)
            } else if !truncating {
                throw error(at: start, "\(what()) is longer than \(maxBytes) bytes")
            }
        }
        while true {
            guard i < bytes.count else { throw endOfFile() }
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                // JSON is UTF-8 (RFC 8259). Decoding bad bytes as U+FFFD would make the string
                // longer than it was read, past its limit when written back.
                if !truncating, String(validating: value, as: UTF8.self) == nil {
                    throw error(at: start, "\(what()) is not valid UTF-8")
                }
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { throw endOfFile() }
                let escape = bytes[i]
                i += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): try add(escape)
                case UInt8(ascii: "b"): try add(8)
                case UInt8(ascii: "f"): try add(12)
                case UInt8(ascii: "n"): try add(10)
                case UInt8(ascii: "r"): try add(13)
                case UInt8(ascii: "t"): try add(9)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar), peek() == UInt8(ascii: "\\"),
                       i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") {
                        let save = i
                        i += 2
                        let low = try readHex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            i = save
                        }
                    }
                    for unit in String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8 { try add(unit) }
                default:
                    // The byte after the backslash may be a line break: name it, one-line messages.
                    let shown = (0x21..<0x7F).contains(escape) ? "'\\\(Character(Unicode.Scalar(escape)))'"
                        : "'\\' followed by byte 0x\(String(escape, radix: 16, uppercase: true))"
                    throw error(at: i - 2, "unknown escape \(shown) in \(what())")
                }
            case 0..<0x20:
                throw error(at: i - 1, "\(what()) contains a control character (byte 0x\(String(byte, radix: 16))); strings end with '\"' on the same line")
            default:
                try add(byte)
            }
        }
    }

    mutating func readHex4() throws(DrawingParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw endOfFile() }
            let byte = bytes[i]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(at: i, "expected four hex digits after \\u, found \(found())")
            }
            value = value * 16 + digit
            i += 1
        }
        return value
    }

    /// Reads a JSON number (strict grammar) as a finite `Double`, correctly rounded: exactly
    /// when digits and exponent are small (Clinger's fast path: one rounding of exact operands),
    /// else by `strtod`.
    mutating func readNumber(what: @autoclosure () -> String) throws(DrawingParseError) -> Double {
        skipWhitespace()
        let start = i
        try scanNumber(what: what())
        let length = i - start
        guard length <= limits.maxNumberLength else {
            throw error(at: start, "a number is longer than \(limits.maxNumberLength) characters")
        }
        if let value = fastNumber(start, i) { return value }
        // strtod needs a NUL-terminated copy (on the stack); the grammar is checked, so it reads
        // all of it.
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            for k in 0..<length { text[k] = CChar(bitPattern: bytes[start + k]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
        guard value.isFinite else {
            throw error(at: start, "the number \(String(decoding: bytes[start..<i], as: UTF8.self)) is out of range")
        }
        return value
    }

    /// Exact powers of ten as doubles (10^22 is the last one a Double holds exactly).
    static let powersOfTen: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// The value of the number text in `start..<end` if it has at most 15 significant digits and
    /// a decimal exponent within ±22, else nil. Both the digits and the power are exact, so the
    /// one division or multiplication rounds correctly, as strtod would.
    func fastNumber(_ start: Int, _ end: Int) -> Double? {
        var k = start
        var negative = false
        if bytes[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var inFraction = false
        while k < end {
            let byte = bytes[k]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if inFraction { scale -= 1 }
            }
            k += 1
        }
        if k < end {
            k += 1
            var exponentNegative = false
            if bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") {
                exponentNegative = bytes[k] == UInt8(ascii: "-")
                k += 1
            }
            var exponent = 0
            while k < end {
                exponent = exponent * 10 + Int(bytes[k] - UInt8(ascii: "0"))
                guard exponent < 1000 else { return nil }
                k += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if scale >= 0, scale <= 22 {
            value = Double(mantissa) * Self.powersOfTen[scale]
        } else if scale < 0, scale >= -22 {
            value = Double(mantissa) / Self.powersOfTen[-scale]
        } else {
            return nil
        }
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// Reads a JSON number that is a whole number written without fraction or exponent.
    mutating func readInteger(what: @autoclosure () -> String) throws(DrawingParseError) -> Int {
        skipWhitespace()
        let start = i
        try scanNumber(what: what())
        var negative = false
        var k = start
        if bytes[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var value = 0
        while k < i {
            let byte = bytes[k]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw error(at: start, "\(what()) should be a whole number, found \(String(decoding: bytes[start..<i], as: UTF8.self))")
            }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { throw error(at: start, "\(what()) is too large") }
            value = sum
            k += 1
        }
        return negative ? -value : value
    }

    /// Moves past `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber(what: @autoclosure () -> String) throws(DrawingParseError) {
        let start = i
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        func digits() { while isDigit(peek()) { i += 1 } }
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard isDigit(peek()) else {
            if i >= bytes.count { throw endOfFile() }
            // NaN and Infinity, as some writers (Python's json module) produce them.
            if let b = peek(), b == UInt8(ascii: "N") || b == UInt8(ascii: "I") || b == UInt8(ascii: "n") || b == UInt8(ascii: "i") {
                var end = i
                while end < bytes.count, end - i < 16, (bytes[end] | 0x20) >= UInt8(ascii: "a"), (bytes[end] | 0x20) <= UInt8(ascii: "z") { end += 1 }
                let word = String(decoding: bytes[start..<end], as: UTF8.self)
                throw error(at: start, "\(what()) is \(word), which is not a number (coordinates and sizes must be finite)")
            }
            throw error(at: start, "expected \(what()), found \(found(at: start))")
        }
        if peek() == UInt8(ascii: "0") {
            i += 1
            if isDigit(peek()) { throw error(at: start, "a number cannot start with 0 (\(what()))") }
        } else {
            digits()
        }
        if peek() == UInt8(ascii: ".") {
            i += 1
            guard isDigit(peek()) else { throw error(at: i, "expected a digit after '.', found \(found())") }
            digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek()) else { throw error(at: i, "expected a digit in the exponent, found \(found())") }
            digits()
        }
    }

    // MARK: Bytes

    func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func expect(_ character: Unicode.Scalar, _ what: @autoclosure () -> String) throws(DrawingParseError) {
        guard peek() == UInt8(ascii: character) else { throw error(at: i, "expected \(what()), found \(found())") }
        i += 1
    }

    func found(at offset: Int? = nil) -> String {
        let at = offset ?? i
        guard at < bytes.count else { return "the end of the file (truncated?)" }
        let byte = bytes[at]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func endOfFile() -> DrawingParseError {
        error(at: bytes.count, "the file ends in the middle of the drawing (truncated?)")
    }

    /// An error at a byte offset, prefixed with its line and column (1-based).
    func error(at offset: Int, _ message: String) -> DrawingParseError {
        var line = firstLine
        var lineStart = 0
        let end = min(offset, bytes.count)
        for k in 0..<end where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return DrawingParseError("line \(line), column \(end - lineStart + 1): \(message)")
    }
}

/// A string from the file, safe inside a one-line message: quoted, control characters escaped,
/// cut after 40 characters.
func quoted(_ text: String) -> String {
    var out = "\""
    for (n, scalar) in text.unicodeScalars.enumerated() {
        if n == 40 {
            out += "…"
            break
        }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
