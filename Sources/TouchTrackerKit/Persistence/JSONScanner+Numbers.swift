// Numbers in JSON: the strict grammar, with the format's limit on their length, read as correctly
// rounded finite Doubles or as whole numbers.
#if canImport(Glibc)
import Glibc
#endif

extension JSONScanner {
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
}
