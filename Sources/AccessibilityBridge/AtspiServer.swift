// Answers assistive tools' calls on the accessibility bus: org.a11y.atspi.Accessible (names, roles,
// states, the tree), Component (where things are), Action (pressing a button, selecting a line),
// Application, the standard Properties interface and an empty Cache (tools then ask object by
// object). Every answer is made from TouchKit's accessibility properties at the moment of the call.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages
import TouchKit

final class AtspiServer {
    static let accessible = "org.a11y.atspi.Accessible", component = "org.a11y.atspi.Component"
    static let action = "org.a11y.atspi.Action", application = "org.a11y.atspi.Application"
    static let properties = "org.freedesktop.DBus.Properties"

    let bus: AccessibilityBus
    let objects: AtspiObjects
    let applicationName: String
    /// The id the registry gives the application (Application.Id).
    var applicationID: Int32 = 0
    /// What has the keyboard focus, as the app last said (a layout change naming it).
    weak var focused: Accessible?
    /// Told of every object a tool asked about, so that its changes are sent as events.
    var onObjectSeen: ((Accessible) -> Void)?

    init(bus: AccessibilityBus, objects: AtspiObjects, applicationName: String) {
        self.bus = bus
        self.objects = objects
        self.applicationName = applicationName
    }

    func reference(_ node: AtspiNode) -> ObjectReference {
        switch node {
        case .application: ObjectReference(bus: bus.uniqueName, path: AccessibilityBus.rootPath)
        case .object(let object): ObjectReference(bus: bus.uniqueName, path: objects.path(of: object))
        }
    }

    func reference(_ object: Accessible) -> ObjectReference { reference(.object(object)) }

    /// Answers one message; signals and replies to the app's own calls are ignored.
    func handle(_ message: OpaquePointer) {
        guard tt_dbus_message_get_type(message) == tt_dbus_message_method_call else { return }
        let path = tt_dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        let interface = tt_dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = tt_dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        if path == "/org/a11y/atspi/cache", member == "GetItems" {
            return reply(to: message) { $0.array("((so)(so)(so)iiassusau)") { _ in } }
        }
        guard let node = objects.node(at: path) else {
            return fail(message, "org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)")
        }
        if case .object(let object) = node { onObjectSeen?(object) }
        var args = ValueReader(message)
        let answered: Bool
        switch interface {
        case Self.properties: answered = properties(member, node, &args, message)
        case Self.accessible: answered = accessible(member, node, &args, message)
        case Self.component: answered = component(member, node, &args, message)
        case Self.action: answered = action(member, node, &args, message)
        case Self.application: answered = applicationCall(member, &args, message)
        default: answered = false
        }
        if !answered { fail(message, "org.freedesktop.DBus.Error.UnknownMethod", "\(interface).\(member) is not offered") }
    }

    // MARK: Replies

    func reply(to call: OpaquePointer, _ fill: (inout MessageWriter) -> Void) {
        guard tt_dbus_message_get_no_reply(call) == 0, let answer = tt_dbus_message_new_method_return(call) else { return }
        var writer = MessageWriter(answer)
        fill(&writer)
        bus.send(answer)
    }

    func fail(_ call: OpaquePointer, _ name: String, _ text: String) {
        guard tt_dbus_message_get_no_reply(call) == 0, let answer = tt_dbus_message_new_error(call, name, text) else { return }
        bus.send(answer)
    }

    // MARK: What each object is

    func name(_ node: AtspiNode) -> String {
        switch node {
        case .application: applicationName
        case .object(let object): object.accessibilityLabel ?? (object === objects.window ? applicationName : "")
        }
    }

    /// The value and the hint, which tools read after the name and role.
    func description(_ node: AtspiNode) -> String {
        guard case .object(let object) = node else { return "" }
        return [object.accessibilityValue, object.accessibilityHint].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    func role(_ node: AtspiNode) -> AtspiRole {
        switch node {
        case .application: return .application
        case .object(let object):
            if object === objects.window { return .frame }
            if object is MenuPopupElement { return .popupMenu }
            if object is MenuItemElement { return .menuItem }
            return AtspiRole(traits: object.accessibilityTraits, isElement: object.isAccessibilityElement)
        }
    }

    func states(_ node: AtspiNode) -> AtspiStates {
        guard case .object(let object) = node else { return AtspiStates() }
        var states = AtspiStates(traits: object.accessibilityTraits, isElement: object.isAccessibilityElement)
        if object === objects.window { states.insert(AtspiStates.active) }
        if object === focused { states.insert(AtspiStates.focused) }
        return states
    }

    /// The actions of an object: its main one (an element's activation), then its custom actions.
    func actions(_ node: AtspiNode) -> [(name: String, localized: String, perform: () -> Bool)] {
        guard case .object(let object) = node else { return [] }
        var list: [(name: String, localized: String, perform: () -> Bool)] = []
        if object.isAccessibilityElement {
            let pressed = object.accessibilityTraits.contains(.button) || object.accessibilityTraits.contains(.toggleButton)
            list.append((pressed ? "click" : "select", pressed ? "click" : "select", { object.accessibilityActivate() }))
        }
        for custom in object.accessibilityCustomActions {
            list.append((custom.name, custom.name, { custom.perform() }))
        }
        return list
    }

    func interfaces(_ node: AtspiNode) -> [String] {
        switch node {
        case .application: [Self.accessible, Self.application]
        case .object: [Self.accessible, Self.component, Self.action]
        }
    }

    func parentReference(_ node: AtspiNode) -> ObjectReference {
        switch node {
        case .application: bus.desktop
        case .object(let object): objects.parent(of: object).map { reference($0) } ?? .null
        }
    }

    func index(of node: AtspiNode) -> Int32 {
        guard case .object(let object) = node, let parent = objects.parent(of: object) else { return -1 }
        return Int32(objects.children(of: parent).firstIndex { $0 === object } ?? -1)
    }

    // MARK: org.a11y.atspi.Accessible

    private func accessible(_ member: String, _ node: AtspiNode, _ args: inout ValueReader?, _ call: OpaquePointer) -> Bool {
        switch member {
        case "GetChildAtIndex":
            let children = objects.children(of: node)
            let index = args?.int32().map(Int.init) ?? -1
            reply(to: call) { $0.reference(children.indices.contains(index) ? reference(children[index]) : .null) }
        case "GetChildren":
            let children = objects.children(of: node)
            reply(to: call) { w in w.array("(so)") { list in for child in children { list.reference(reference(child)) } } }
        case "GetIndexInParent": reply(to: call) { $0.int32(index(of: node)) }
        case "GetRelationSet": reply(to: call) { $0.array("(ua(so))") { _ in } }
        case "GetRole": reply(to: call) { $0.uint32(role(node).rawValue) }
        case "GetRoleName", "GetLocalizedRoleName": reply(to: call) { $0.string(role(node).name) }
        case "GetState": reply(to: call) { w in w.array("u") { list in for word in states(node).words { list.uint32(word) } } }
        case "GetAttributes":
            reply(to: call) { w in
                w.array("{ss}") { list in
                    list.container(tt_dbus_type_dict_entry, nil) { entry in
                        entry.string("toolkit")
                        entry.string("TouchKit")
                    }
                }
            }
        case "GetApplication": reply(to: call) { $0.reference(reference(.application)) }
        case "GetInterfaces": reply(to: call) { w in w.array("s") { list in for name in interfaces(node) { list.string(name) } } }
        default: return false
        }
        return true
    }

    // MARK: org.freedesktop.DBus.Properties

    private func properties(_ member: String, _ node: AtspiNode, _ args: inout ValueReader?, _ call: OpaquePointer) -> Bool {
        let interface = args?.string() ?? ""
        switch member {
        case "Get":
            let name = args?.string() ?? ""
            guard let value = property(interface, name, node) else {
                fail(call, "org.freedesktop.DBus.Error.UnknownProperty", "no property \(interface).\(name)")
                return true
            }
            reply(to: call) { $0.variant(value.signature, value.write) }
        case "GetAll":
            let names: [String] = switch interface {
            case Self.accessible: ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"]
            case Self.application: ["ToolkitName", "Version", "AtspiVersion", "Id"]
            case Self.action: ["NActions"]
            default: []
            }
            reply(to: call) { w in
                w.array("{sv}") { list in
                    for name in names {
                        guard let value = property(interface, name, node) else { continue }
                        list.container(tt_dbus_type_dict_entry, nil) { entry in
                            entry.string(name)
                            entry.variant(value.signature, value.write)
                        }
                    }
                }
            }
        case "Set":
            // Only the registry's id for the application is written.
            if interface == Self.application, args?.string() == "Id", let id = args?.int32InVariant() {
                applicationID = id
            }
            reply(to: call) { _ in }
        default: return false
        }
        return true
    }

    /// A property's D-Bus signature and how to write its value.
    private func property(_ interface: String, _ name: String,
                          _ node: AtspiNode) -> (signature: String, write: (inout MessageWriter) -> Void)? {
        switch (interface, name) {
        case (Self.accessible, "Name"): let v = self.name(node); return ("s", { $0.string(v) })
        case (Self.accessible, "Description"): let v = description(node); return ("s", { $0.string(v) })
        case (Self.accessible, "Parent"): let v = parentReference(node); return ("(so)", { $0.reference(v) })
        case (Self.accessible, "ChildCount"): let v = Int32(objects.children(of: node).count); return ("i", { $0.int32(v) })
        case (Self.accessible, "Locale"): return ("s", { $0.string(Self.locale) })
        case (Self.accessible, "AccessibleId"):
            guard case .object(let object) = node else { return ("s", { $0.string("") }) }
            let v = object.accessibilityIdentifier ?? ""
            return ("s", { $0.string(v) })
        case (Self.accessible, "HelpText"):
            guard case .object(let object) = node else { return ("s", { $0.string("") }) }
            let v = object.accessibilityHint ?? ""
            return ("s", { $0.string(v) })
        case (Self.application, "ToolkitName"): return ("s", { $0.string("TouchKit") })
        case (Self.application, "Version"): return ("s", { $0.string("1.0") })
        case (Self.application, "AtspiVersion"): return ("s", { $0.string("2.1") })
        case (Self.application, "Id"): let v = applicationID; return ("i", { $0.int32(v) })
        case (Self.action, "NActions"): let v = Int32(actions(node).count); return ("i", { $0.int32(v) })
        default: return nil
        }
    }

    /// The messages' language, from the environment as gettext reads it.
    static let locale: String = {
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                return String(value.prefix { $0 != ":" && $0 != "." })
            }
        }
        return "C"
    }()
}
