// The generated `_dispatch` of each class: libwayland's event arguments turned into the class's
// `Event` cases, with the file descriptors and new objects nobody takes closed again.
extension SwiftGenerator {
    func emitDispatch(_ interface: InterfaceSpec, into out: inout CodeWriter) {
        out.open("override public func _dispatch(_ opcode: UInt32, _ _a: UnsafeMutablePointer<wl_argument>) {")
        if interface.events.isEmpty {
            out.line("_ = (opcode, _a)")
            out.close("}")
            return
        }
        out.line("switch opcode {")
        for (opcode, event) in interface.events.enumerated() {
            out.line("case \(opcode):")
            out.indent()
            let fds = event.args.enumerated().filter { $0.element.type == .fd }.map(\.offset)
            let newIDs = event.args.enumerated().filter { $0.element.type == .newID }.map(\.offset)
            var discard: [String] = []
            for index in fds { discard.append("_closeEventFD(_a[\(index)].h)") }
            for index in newIDs { discard.append("_destroyEventProxy(_a[\(index)].o)") }
            if event.since > 1 {
                if discard.isEmpty {
                    out.line("guard version >= \(event.since) else { return }")
                } else {
                    out.open("guard version >= \(event.since) else {")
                    for line in discard { out.line(line) }
                    out.line("return")
                    out.close("}")
                }
            }
            let name = Naming.escaped(Naming.lowerCamel(event.name))
            let values = event.args.enumerated().map { index, arg in
                "\(Naming.callLabel(Naming.lowerCamel(arg.name))): \(eventValue(arg, index: index, in: interface))"
            }
            let construct = values.isEmpty ? "Event.\(name)" : "Event.\(name)(\(values.joined(separator: ", ")))"
            if fds.isEmpty {
                out.line("let event = \(construct)")
                out.line("onEvent?(event)")
            } else {
                out.line("let event = \(construct)")
                out.open("if let handler = onEvent {")
                out.line("handler(event)")
                out.close("} else {")
                out.indent()
                for index in fds { out.line("_closeEventFD(_a[\(index)].h)") }
                out.close("}")
            }
            if event.isDestructor {
                out.line("_destroyAfterDestructorEvent()")
            }
            out.dedent()
        }
        out.line("default:")
        out.line("    break  // unknown opcode: ignored")
        out.line("}")
        out.close("}")
    }

    private func eventValue(_ arg: ArgSpec, index: Int, in interface: InterfaceSpec) -> String {
        let slot = "_a[\(index)]"
        switch arg.type {
        case .int:
            if let reference = arg.enumRef {
                return "\(enumTypeReference(reference, in: interface))(rawValue: UInt32(bitPattern: \(slot).i))"
            }
            return "\(slot).i"
        case .uint:
            if let reference = arg.enumRef {
                return "\(enumTypeReference(reference, in: interface))(rawValue: \(slot).u)"
            }
            return "\(slot).u"
        case .fixed: return "_fixedToDouble(\(slot).f)"
        case .string: return arg.allowNull ? "_eventOptionalString(\(slot).s)" : "_eventString(\(slot).s)"
        case .object: return "_resolveObject(\(slot).o, \(objectType(arg)).self)"
        case .newID: return "_eventObject(\(slot).o, \(objectType(arg)).self)"
        case .array: return "_eventArray(\(slot).a)"
        case .fd: return "\(slot).h"
        }
    }
}
