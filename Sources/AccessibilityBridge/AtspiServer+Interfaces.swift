// Component (where an object is), Action (what it can do) and Application, for AtspiServer.
import CDBus
import TouchKit

extension AtspiServer {
    /// AT-SPI's coordinate kinds: screen, window, parent. A Wayland client does not know where its
    /// window is on the screen, so screen coordinates are the window's, as GTK gives them there.
    private func extents(_ object: Accessible, coordinates: UInt32) -> Rect {
        let frame = object.accessibilityFrame
        guard coordinates == 2, object !== objects.window, let parent = object.accessibilityParent,
              parent !== objects.window else { return frame }
        let origin = parent.accessibilityFrame.origin
        return frame.offsetBy(dx: -origin.x, dy: -origin.y)
    }

    private static func rounded(_ value: Double) -> Int32 { Int32(clamping: Int(value.rounded())) }

    func component(_ member: String, _ node: AtspiNode, _ args: inout ValueReader?, _ call: OpaquePointer) -> Bool {
        guard case .object(let object) = node else { return false }
        switch member {
        case "GetExtents":
            let box = extents(object, coordinates: args?.uint32() ?? 0)
            reply(to: call) { w in
                w.container(tt_dbus_type_struct, nil) { s in
                    s.int32(Self.rounded(box.minX))
                    s.int32(Self.rounded(box.minY))
                    s.int32(Self.rounded(box.width))
                    s.int32(Self.rounded(box.height))
                }
            }
        case "GetPosition":
            let box = extents(object, coordinates: args?.uint32() ?? 0)
            reply(to: call) { w in
                w.int32(Self.rounded(box.minX))
                w.int32(Self.rounded(box.minY))
            }
        case "GetSize":
            let box = object.accessibilityFrame
            reply(to: call) { w in
                w.int32(Self.rounded(box.width))
                w.int32(Self.rounded(box.height))
            }
        case "Contains", "GetAccessibleAtPoint":
            let x = Double(args?.int32() ?? 0), y = Double(args?.int32() ?? 0)
            let coordinates = args?.uint32() ?? 0
            let point = Point(x: x, y: y)
            if member == "Contains" {
                let inside = extents(object, coordinates: coordinates).contains(point)
                reply(to: call) { $0.bool(inside) }
            } else {
                // The deepest child under the point, in window coordinates.
                let windowPoint: Point
                if coordinates == 2, let parent = object.accessibilityParent, parent !== objects.window {
                    windowPoint = Point(x: x + parent.accessibilityFrame.minX, y: y + parent.accessibilityFrame.minY)
                } else {
                    windowPoint = point
                }
                let hit = object.accessibilityChildren.last { $0.accessibilityFrame.contains(windowPoint) }
                reply(to: call) { $0.reference(hit.map { reference($0) } ?? .null) }
            }
        case "GetLayer": reply(to: call) { $0.uint32(object === objects.window ? 7 : 3) }  // window, widget
        case "GetMDIZOrder": reply(to: call) { $0.int16(0) }
        case "GetAlpha": reply(to: call) { $0.double(1) }
        case "GrabFocus": reply(to: call) { $0.bool(false) }
        default: return false
        }
        return true
    }

    func action(_ member: String, _ node: AtspiNode, _ args: inout ValueReader?, _ call: OpaquePointer) -> Bool {
        let list = actions(node)
        switch member {
        case "GetActions":
            reply(to: call) { w in
                w.array("(sss)") { items in
                    for action in list {
                        items.container(tt_dbus_type_struct, nil) { s in
                            s.string(action.localized)
                            s.string("")
                            s.string("")
                        }
                    }
                }
            }
        case "GetName", "GetLocalizedName", "GetDescription", "GetKeyBinding", "DoAction":
            let index = args?.int32().map(Int.init) ?? -1
            guard list.indices.contains(index) else {
                if member == "DoAction" { reply(to: call) { $0.bool(false) } } else { reply(to: call) { $0.string("") } }
                return true
            }
            switch member {
            case "GetName": reply(to: call) { $0.string(list[index].name) }
            case "GetLocalizedName": reply(to: call) { $0.string(list[index].localized) }
            case "DoAction":
                let done = list[index].perform()
                reply(to: call) { $0.bool(done) }
            default: reply(to: call) { $0.string("") }
            }
        default: return false
        }
        return true
    }

    func applicationCall(_ member: String, _ args: inout ValueReader?, _ call: OpaquePointer) -> Bool {
        switch member {
        case "GetLocale": reply(to: call) { $0.string(Self.locale) }
        // No bus of the app's own: tools use this one.
        case "GetApplicationBusAddress": reply(to: call) { $0.string("") }
        case "RegisterEventListener", "DeregisterEventListener": reply(to: call) { _ in }
        default: return false
        }
        return true
    }
}
