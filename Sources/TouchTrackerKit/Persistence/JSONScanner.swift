// A JSON scanner over bytes, strict to the JSON grammar, with the format's limits on nesting and
// number length. It builds no tree: the readers built on it ask for exactly the values they expect
// and step over the rest, so what a file may make the reader allocate is what they allow. Errors
// are one line, with the line and column of the byte at fault. This file holds the cursor, objects
// and lists, and the errors; strings and numbers are in JSONScanner+Strings.swift and
// JSONScanner+Numbers.swift.

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
