// How the protocol's types become Swift types: the argument types of requests and events, and the
// structs generated for its enums and bitfields.
extension SwiftGenerator {
    // MARK: Enums

    func emitEnum(_ spec: EnumSpec, into out: inout CodeWriter) {
        let typeName = Naming.enumTypeName(spec.name)
        out.doc(spec.summary)
        let conformances = spec.isBitfield ? "OptionSet, Hashable, Sendable" : "RawRepresentable, Hashable, Sendable"
        out.open("public struct \(typeName): \(conformances) {")
        out.line("public let rawValue: UInt32")
        out.line("public init(rawValue: UInt32) { self.rawValue = rawValue }")
        for entry in spec.entries {
            out.doc(entry.summary)
            let value = entry.value > 9 ? "0x" + String(entry.value, radix: 16) : String(entry.value)
            let name = Naming.escaped(Naming.lowerCamel(entry.name))
            if spec.isBitfield, entry.value == 0 {
                out.line("public static let \(name): \(typeName) = []")  // `(rawValue: 0)` draws a warning
            } else {
                out.line("public static let \(name) = \(typeName)(rawValue: \(value))")
            }
        }
        out.close("}")
    }

    func enumTypeReference(_ reference: String, in interface: InterfaceSpec) -> String {
        let resolved = set.resolveEnum(reference, in: interface)!
        return Naming.className(resolved.interface.name) + "." + Naming.enumTypeName(resolved.spec.name)
    }

    // MARK: Argument types

    func escapedArg(_ arg: ArgSpec) -> String { Naming.escaped(Naming.lowerCamel(arg.name)) }

    func objectType(_ arg: ArgSpec) -> String {
        arg.interface.map(Naming.className) ?? "WaylandObject"
    }

    func requestType(_ arg: ArgSpec, in interface: InterfaceSpec) -> String {
        switch arg.type {
        case .int: arg.enumRef.map { enumTypeReference($0, in: interface) } ?? "Int32"
        case .uint: arg.enumRef.map { enumTypeReference($0, in: interface) } ?? "UInt32"
        case .fixed: "Double"
        case .string: arg.allowNull ? "String?" : "String"
        case .object: objectType(arg) + (arg.allowNull ? "?" : "")
        case .newID: objectType(arg)
        case .array: "[UInt8]"
        case .fd: "Int32"
        }
    }

    func eventType(_ arg: ArgSpec, in interface: InterfaceSpec) -> String {
        switch arg.type {
        case .object: objectType(arg) + "?"
        default: requestType(arg, in: interface)
        }
    }
}
