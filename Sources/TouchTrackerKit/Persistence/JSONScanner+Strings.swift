// Strings in JSON: reading them with their escapes and UTF-8 checked, and quoting a string from a
// file safely inside a one-line error message.
extension JSONScanner {
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
