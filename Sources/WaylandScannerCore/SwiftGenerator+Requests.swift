// The generated method for each request: its parameters, the marshalling of its arguments, and
// whether it sends, creates a typed object, or binds an untyped new_id.
extension SwiftGenerator {
    func emitRequest(_ request: MessageSpec, opcode: Int, of interface: InterfaceSpec,
                             into out: inout CodeWriter) {
        let method = Naming.escaped(Naming.methodName(request.name))
        let newID = request.args.first { $0.type == .newID }
        let isGeneric = newID != nil && newID?.interface == nil
        let argNames = Set(request.args.map { Naming.lowerCamel($0.name) })
        // The parameter that carries the bind version of an untyped new_id.
        let versionParameter = argNames.contains("version") ? Naming.lowerCamel(newID?.name ?? "id") + "Version" : "version"

        var parameters: [String] = []
        var appends: [String] = []
        for arg in request.args {
            let name = escapedArg(arg)
            let label = Naming.lowerCamel(arg.name)
            let labelText = Naming.escaped(label)
            switch arg.type {
            case .newID where arg.interface == nil:
                parameters.append("as type: T.Type")
                parameters.append("\(Naming.escaped(versionParameter)): UInt32")
                appends.append("_a.untypedNewID(T.self, version: _version)")
                continue
            case .newID:
                appends.append("_a.newID()")
                continue
            default:
                break
            }
            parameters.append("\(labelText): \(requestType(arg, in: interface))")
            switch arg.type {
            case .int: appends.append(arg.enumRef == nil ? "_a.int(\(name))" : "_a.int(Int32(bitPattern: \(name).rawValue))")
            case .uint: appends.append(arg.enumRef == nil ? "_a.uint(\(name))" : "_a.uint(\(name).rawValue)")
            case .fixed: appends.append("_a.fixed(\(name))")
            case .string: appends.append("_a.string(\(name))")
            case .object: appends.append("_a.object(\(name))")
            case .array: appends.append("_a.array(\(name))")
            case .fd: appends.append("_a.fd(\(name))")
            case .newID: break
            }
        }

        let returnType: String
        if isGeneric {
            returnType = " -> T"
        } else if let newID, let target = newID.interface {
            returnType = " -> " + Naming.className(target)
        } else {
            returnType = ""
        }
        let documented = out.doc(request.summary, since: request.since)
        if request.isDestructor {
            if documented { out.line("///") }
            out.line("/// Destructor: the object is dead afterwards and ignores further requests.")
        }
        let generic = isGeneric ? "<T: WaylandProxy>" : ""
        out.open("public func \(method)\(generic)(\(parameters.joined(separator: ", ")))\(returnType) {")
        if isGeneric {
            out.line("let _version = min(\(Naming.escaped(versionParameter)), T.maxVersion)")
        }
        out.line("var _a = _Arguments(capacity: \(request.args.count + (isGeneric ? 2 : 0)))")
        for append in appends { out.line(append) }
        let common = "\(opcode), since: \(request.since), request: \(literal(interface.name + "." + request.name))"
        if isGeneric {
            out.line("return _bind(T.self, \(common), &_a, version: _version)")
        } else if let newID, let target = newID.interface {
            out.line("return _create(\(Naming.className(target)).self, \(common), &_a)")
        } else {
            out.line("_send(\(common), &_a\(request.isDestructor ? ", destructor: true" : ""))")
        }
        out.close("}")
    }
}
