#if canImport(FoundationXML)
import Foundation
import FoundationXML
#else
import Foundation
#endif

/// Parses one protocol XML document into a `ProtocolSpec`, checking what can be checked within
/// the file (required attributes, argument types, numbers). Cross-file checks live in `Validator`.
public enum ProtocolParser {
    /// - Parameters:
    ///   - data: the XML bytes.
    ///   - file: the path used in diagnostics.
    public static func parse(_ data: Data, file: String) throws(ScannerError) -> ProtocolSpec {
        let parser = XMLParser(data: data)
        let delegate = Delegate(file: file, parser: parser)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        if !ok {
            let line = max(parser.lineNumber, 1)
            throw ScannerError(SourceLocation(file: file, line: line),
                               "malformed XML: \(describe(parser.parserError))")
        }
        guard let spec = delegate.protocolSpec else {
            throw ScannerError(SourceLocation(file: file, line: 1), "no <protocol> element")
        }
        return spec
    }

    /// FoundationXML on Linux passes libxml2's error numbers (xmlParserErrors) without a message.
    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "parse failed" }
        let ns = error as NSError
        if let message = ns.userInfo[NSLocalizedDescriptionKey] as? String, !message.isEmpty {
            return message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let text: String
        switch ns.code {
        case 3, 4: text = "not an XML document"
        case 5: text = "extra content at the end of the document"
        case 7, 8, 9: text = "invalid character"
        case 23, 26: text = "bad entity reference (a bare '&'?)"
        case 31, 81: text = "bad encoding"
        case 33, 34, 39, 40, 41: text = "malformed attribute (missing quotes or value?)"
        case 38: text = "'<' inside an attribute value"
        case 42: text = "attribute given twice"
        case 45, 80: text = "malformed comment"
        case 65, 68, 75: text = "malformed tag"
        case 72, 73: text = "'<' or '>' expected"
        case 76: text = "mismatched end tag (an element is not closed?)"
        case 77: text = "the document ends inside an element"
        default: text = "syntax error"
        }
        return "\(text) (libxml2 error \(ns.code))"
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        unowned let parser: XMLParser
        var error: ScannerError?
        var protocolSpec: ProtocolSpec?

        private var interface: InterfaceSpec?
        private var message: MessageSpec?
        private var messageIsEvent = false
        private var enumSpec: EnumSpec?
        private var stack: [String] = []

        init(file: String, parser: XMLParser) {
            self.file = file
            self.parser = parser
        }

        private var location: SourceLocation {
            SourceLocation(file: file, line: max(parser.lineNumber, 1))
        }

        private func fail(_ text: String, at location: SourceLocation? = nil) {
            if error == nil { error = ScannerError(location ?? self.location, text) }
            parser.abortParsing()
        }

        private func required(_ attributes: [String: String], _ key: String, of element: String) -> String? {
            guard let value = attributes[key], !value.isEmpty else {
                let owner = attributes["name"].map { " '\($0)'" } ?? ""
                fail("<\(element)>\(owner) is missing the '\(key)' attribute")
                return nil
            }
            return value
        }

        private func identifier(_ attributes: [String: String], of element: String,
                                allowLeadingDigit: Bool = false) -> String? {
            guard let name = required(attributes, "name", of: element) else { return nil }
            let valid = name.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                    || ("0"..."9").contains(scalar) || scalar == "_"
            } && (allowLeadingDigit || !name.first!.isNumber)
            guard valid else {
                fail("<\(element)> has an invalid name '\(name)' (letters, digits and '_' only)")
                return nil
            }
            return name
        }

        /// A decimal or 0x hexadecimal number, or a shift of two (`1 << 4`): wayland-scanner copies
        /// an entry's value into C as it is, and protocols use shifts for bitfields.
        private func number(_ text: String, what: String) -> UInt32? {
            func literal(_ s: Substring) -> UInt32? {
                let t = s.trimmingCharacters(in: .whitespaces)
                if t.hasPrefix("0x") || t.hasPrefix("0X") { return UInt32(t.dropFirst(2), radix: 16) }
                return UInt32(t)
            }
            var value: UInt32?
            if let shift = text.range(of: "<<") {
                if let base = literal(text[..<shift.lowerBound]), let by = literal(text[shift.upperBound...]), by < 32,
                   base.leadingZeroBitCount >= by {
                    value = base << by
                }
            } else {
                value = literal(Substring(text))
            }
            guard let value else {
                fail("\(what) '\(text)' is not an unsigned 32-bit number (decimal, 0x hexadecimal, or A << B)")
                return nil
            }
            return value
        }

        private static func flag(_ value: String?) -> Bool { value == "true" }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            guard error == nil else { return }
            defer { stack.append(elementName) }
            let parent = stack.last
            switch elementName {
            case "protocol":
                guard parent == nil else { return fail("<protocol> must be the root element") }
                guard let name = identifier(attributes, of: "protocol") else { return }
                protocolSpec = ProtocolSpec(name: name, location: location)
            case "interface":
                guard parent == "protocol" else { return fail("<interface> outside <protocol>") }
                guard let name = identifier(attributes, of: "interface"),
                      let versionText = required(attributes, "version", of: "interface"),
                      let version = number(versionText, what: "version")
                else { return }
                guard version >= 1 else { return fail("interface '\(name)' has version 0") }
                interface = InterfaceSpec(name: name, version: version, summary: nil, location: location)
            case "request", "event":
                guard parent == "interface" else { return fail("<\(elementName)> outside <interface>") }
                guard let name = identifier(attributes, of: elementName) else { return }
                var since: UInt32 = 1
                if let text = attributes["since"] {
                    guard let value = number(text, what: "since") else { return }
                    since = value
                }
                guard since >= 1 else { return fail("\(elementName) '\(name)' has since=\"0\"") }
                if let type = attributes["type"], type != "destructor" {
                    return fail("\(elementName) '\(name)' has unknown type '\(type)'")
                }
                message = MessageSpec(name: name, since: since, isDestructor: attributes["type"] == "destructor",
                                      summary: nil, location: location)
                messageIsEvent = elementName == "event"
            case "arg":
                guard parent == "request" || parent == "event" else { return fail("<arg> outside a message") }
                guard let name = identifier(attributes, of: "arg"),
                      let typeText = required(attributes, "type", of: "arg")
                else { return }
                guard let type = ArgType(rawValue: typeText) else {
                    let known = ArgType.allCases.map(\.rawValue).joined(separator: ", ")
                    return fail("argument '\(name)' has unknown type '\(typeText)' (expected one of \(known))")
                }
                let interfaceName = attributes["interface"].flatMap { $0.isEmpty ? nil : $0 }
                if interfaceName != nil, type != .object, type != .newID {
                    return fail("argument '\(name)' of type \(typeText) cannot have an interface")
                }
                let enumRef = attributes["enum"].flatMap { $0.isEmpty ? nil : $0 }
                if enumRef != nil, type != .int, type != .uint {
                    return fail("argument '\(name)' of type \(typeText) cannot have an enum (int or uint only)")
                }
                let allowNull = Self.flag(attributes["allow-null"])
                if allowNull, type != .object, type != .newID, type != .string {
                    return fail("argument '\(name)' of type \(typeText) cannot be allow-null")
                }
                message?.args.append(ArgSpec(name: name, type: type, interface: interfaceName,
                                             allowNull: allowNull, enumRef: enumRef,
                                             summary: attributes["summary"].map(oneLine),
                                             location: location))
            case "enum":
                guard parent == "interface" else { return fail("<enum> outside <interface>") }
                guard let name = identifier(attributes, of: "enum") else { return }
                enumSpec = EnumSpec(name: name, isBitfield: Self.flag(attributes["bitfield"]), summary: nil,
                                    location: location)
            case "entry":
                guard parent == "enum" else { return fail("<entry> outside <enum>") }
                guard let name = identifier(attributes, of: "entry", allowLeadingDigit: true),
                      let valueText = required(attributes, "value", of: "entry"),
                      let value = number(valueText, what: "value of entry '\(name)'")
                else { return }
                enumSpec?.entries.append(EntrySpec(name: name, value: value,
                                                   summary: attributes["summary"].map(oneLine),
                                                   location: location))
            case "description":
                guard let summary = attributes["summary"].map(oneLine), !summary.isEmpty else { return }
                switch parent {
                case "interface": interface?.summary = summary
                case "request", "event": message?.summary = summary
                case "enum": enumSpec?.summary = summary
                case "entry":
                    if let index = enumSpec?.entries.indices.last, enumSpec?.entries[index].summary == nil {
                        enumSpec?.entries[index].summary = summary
                    }
                default: break
                }
            default:
                break  // copyright and anything newer than this scanner: ignored
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            guard error == nil else { return }
            if !stack.isEmpty { stack.removeLast() }
            switch elementName {
            case "interface":
                if let interface { protocolSpec?.interfaces.append(interface) }
                interface = nil
            case "request", "event":
                if let message {
                    if messageIsEvent { interface?.events.append(message) } else { interface?.requests.append(message) }
                }
                message = nil
            case "enum":
                if let enumSpec { interface?.enums.append(enumSpec) }
                enumSpec = nil
            default:
                break
            }
        }

        // libxml2 recovers from many errors (mismatched tags, premature end) and `parse()` may
        // still return true: the first reported error is what counts.
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil {
                error = ScannerError(location, "malformed XML: \(ProtocolParser.describe(parseError))")
            }
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
            self.parser(parser, parseErrorOccurred: validationError)
        }
    }
}

/// Collapses runs of whitespace so a summary fits on one comment line.
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
