/// Everything that was read, with the lookups the generator needs. Built by `validate`, which checks
/// what needs all inputs at once: interface and enum references, duplicates, version ranges.
public struct ProtocolSet: Sendable {
    public let protocols: [ProtocolSpec]
    /// Every interface of every protocol, in input order; its index is its slot in the table.
    public let interfaces: [InterfaceSpec]
    let interfaceIndex: [String: Int]

    public static func validate(_ protocols: [ProtocolSpec]) throws(ScannerError) -> ProtocolSet {
        var all: [InterfaceSpec] = []
        var index: [String: Int] = [:]
        var classNames: [String: String] = [:]
        for spec in protocols {
            for interface in spec.interfaces {
                if let existing = index[interface.name] {
                    throw ScannerError(interface.location,
                                       "interface '\(interface.name)' is already defined at \(all[existing].location)")
                }
                let className = Naming.className(interface.name)
                if let other = classNames[className] {
                    throw ScannerError(interface.location,
                                       "interface '\(interface.name)' and '\(other)' both become Swift class \(className)")
                }
                classNames[className] = interface.name
                index[interface.name] = all.count
                all.append(interface)
            }
        }
        let set = ProtocolSet(protocols: protocols, interfaces: all, interfaceIndex: index)
        for interface in all { try set.check(interface) }
        return set
    }

    public func interface(named name: String) -> InterfaceSpec? {
        interfaceIndex[name].map { interfaces[$0] }
    }

    /// Resolves an `enum` attribute written inside `interface`.
    public func resolveEnum(_ reference: String, in interface: InterfaceSpec) -> (interface: InterfaceSpec, spec: EnumSpec)? {
        let parts = reference.split(separator: ".", omittingEmptySubsequences: false)
        let owner: InterfaceSpec?
        let enumName: Substring
        switch parts.count {
        case 1: (owner, enumName) = (interface, parts[0])
        case 2: (owner, enumName) = (self.interface(named: String(parts[0])), parts[1])
        default: return nil
        }
        guard let owner, let spec = owner.enums.first(where: { $0.name == enumName }) else { return nil }
        return (owner, spec)
    }

    private func check(_ interface: InterfaceSpec) throws(ScannerError) {
        var enumTypeNames: [String: String] = [:]
        for spec in interface.enums {
            let typeName = Naming.enumTypeName(spec.name)
            if let other = enumTypeNames[typeName] {
                throw ScannerError(spec.location, "enum '\(spec.name)' and '\(other)' of '\(interface.name)' both become Swift type \(typeName)")
            }
            enumTypeNames[typeName] = spec.name
            var entryNames: [String: String] = [:]
            for entry in spec.entries {
                let swiftName = Naming.lowerCamel(entry.name)
                if let other = entryNames[swiftName] {
                    throw ScannerError(entry.location, "entries '\(entry.name)' and '\(other)' of enum '\(interface.name).\(spec.name)' both become \(swiftName)")
                }
                entryNames[swiftName] = entry.name
            }
        }
        try checkMessages(interface.requests, of: interface, kind: "request",
                          swiftName: Naming.methodName)
        try checkMessages(interface.events, of: interface, kind: "event",
                          swiftName: Naming.lowerCamel)
    }

    private func checkMessages(_ messages: [MessageSpec], of interface: InterfaceSpec, kind: String,
                               swiftName: (String) -> String) throws(ScannerError) {
        var names: [String: String] = [:]
        for message in messages {
            let name = swiftName(message.name)
            if let other = names[name] {
                throw ScannerError(message.location, "\(kind)s '\(message.name)' and '\(other)' of '\(interface.name)' both become \(name)")
            }
            names[name] = message.name
            if message.since > interface.version {
                throw ScannerError(message.location, "\(kind) '\(interface.name).\(message.name)' has since=\"\(message.since)\" but the interface is version \(interface.version)")
            }
            var argNames: [String: String] = [:]
            var newIDs = 0
            for arg in message.args {
                let argName = Naming.lowerCamel(arg.name)
                if let other = argNames[argName] {
                    throw ScannerError(arg.location, "arguments '\(arg.name)' and '\(other)' of '\(interface.name).\(message.name)' both become \(argName)")
                }
                argNames[argName] = arg.name
                if let target = arg.interface, self.interface(named: target) == nil {
                    throw ScannerError(arg.location, "argument '\(arg.name)' of '\(interface.name).\(message.name)' references interface '\(target)', which no input defines")
                }
                if let reference = arg.enumRef {
                    guard let resolved = resolveEnum(reference, in: interface) else {
                        throw ScannerError(arg.location, "argument '\(arg.name)' of '\(interface.name).\(message.name)' references unknown enum '\(reference)'")
                    }
                    if resolved.spec.isBitfield, arg.type == .int {
                        throw ScannerError(arg.location, "argument '\(arg.name)' is an int but enum '\(reference)' is a bitfield (bitfields need uint)")
                    }
                }
                if arg.type == .newID {
                    newIDs += 1
                    if kind == "event", arg.interface == nil {
                        throw ScannerError(arg.location, "event '\(interface.name).\(message.name)' has a new_id without an interface, which is not supported")
                    }
                }
            }
            if kind == "request", newIDs > 1 {
                throw ScannerError(message.location, "request '\(interface.name).\(message.name)' creates more than one object, which is not supported")
            }
        }
    }
}
