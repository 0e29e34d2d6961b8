// WaylandScannerCore: reads Wayland protocol XML and writes Swift bindings for the `Wayland` module.
//
// This module knows the XML format and the shape of the generated Swift; it knows nothing about
// libwayland at run time (the generated code calls into the hand-written runtime in Sources/Wayland).

/// A position in an input file, for diagnostics.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// A diagnostic that stops generation. Printed as `file:line: error: message`.
public struct ScannerError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): error: \(message)" }
}

/// One `<protocol>` element, i.e. one XML file.
public struct ProtocolSpec: Sendable {
    public var name: String
    public var location: SourceLocation
    public var interfaces: [InterfaceSpec] = []
}

/// One `<interface>`.
public struct InterfaceSpec: Sendable {
    public var name: String
    public var version: UInt32
    public var summary: String?
    public var location: SourceLocation
    public var requests: [MessageSpec] = []
    public var events: [MessageSpec] = []
    public var enums: [EnumSpec] = []
}

/// One `<request>` or `<event>`.
public struct MessageSpec: Sendable {
    public var name: String
    public var since: UInt32
    public var isDestructor: Bool
    public var summary: String?
    public var location: SourceLocation
    public var args: [ArgSpec] = []
}

/// The wire types of message arguments.
public enum ArgType: String, Sendable, CaseIterable {
    case int, uint, fixed, string, object
    case newID = "new_id"
    case array, fd

    /// The letter libwayland uses in message signatures.
    var signatureCode: Character {
        switch self {
        case .int: "i"
        case .uint: "u"
        case .fixed: "f"
        case .string: "s"
        case .object: "o"
        case .newID: "n"
        case .array: "a"
        case .fd: "h"
        }
    }
}

/// One `<arg>`.
public struct ArgSpec: Sendable {
    public var name: String
    public var type: ArgType
    /// The `interface` attribute (object and new_id only).
    public var interface: String?
    public var allowNull: Bool
    /// The `enum` attribute as written: `name` or `interface.name`.
    public var enumRef: String?
    public var summary: String?
    public var location: SourceLocation
}

/// One `<enum>`.
public struct EnumSpec: Sendable {
    public var name: String
    public var isBitfield: Bool
    public var summary: String?
    public var location: SourceLocation
    public var entries: [EntrySpec] = []
}

/// One `<entry>`.
public struct EntrySpec: Sendable {
    public var name: String
    public var value: UInt32
    public var summary: String?
    public var location: SourceLocation
}
