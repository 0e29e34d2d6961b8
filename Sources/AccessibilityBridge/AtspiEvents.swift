// The events tools follow (name, state and children changes, announcements), found by comparing
// what tools have asked about with what it was when they last saw it. Only objects a tool has
// asked about are compared, so without a tool there is nothing to do; a change is sent at the
// latest after ``AccessibilityBridge``'s next look (a notification asks for one at once).
import CDBus
import DBusMessages
import TouchKit

final class AtspiEvents {
    private struct Seen {
        weak var object: Accessible?
        var name: String
        var states: AtspiStates
        var children: [ObjectIdentifier]
        var childRefs: [ObjectReference]
    }

    /// How many followed objects a timed look compares; a notification compares them all. A tool
    /// that read every line of a big drawing costs a slice of them a look, and the canvas tells of
    /// its own changes.
    static let lookBudget = 256

    private let server: AtspiServer
    private var seen: [String: Seen] = [:]
    /// The followed paths in the order they were followed (some may be gone from `seen`), and
    /// where the next timed look starts among them.
    private var order: [String] = []
    private var lookCursor = 0

    init(server: AtspiServer) { self.server = server }

    /// Whether any object is followed.
    var isFollowing: Bool { !seen.isEmpty }

    /// Starts following `object` from how it is now.
    func follow(_ object: Accessible) {
        let path = server.objects.path(of: object)
        guard seen[path] == nil else { return }
        seen[path] = snapshot(object)
        order.append(path)
    }

    private func snapshot(_ object: Accessible) -> Seen {
        let children = object.accessibilityChildren
        return Seen(object: object, name: server.name(.object(object)), states: server.states(.object(object)),
                    children: children.map(ObjectIdentifier.init), childRefs: children.map { server.reference($0) })
    }

    /// Compares the next slice of followed objects (a timed look).
    func look() {
        if order.count > 2 * seen.count + Self.lookBudget {
            order.removeAll { seen[$0] == nil }
            lookCursor = 0
        }
        guard !order.isEmpty else { return }
        if lookCursor >= order.count { lookCursor = 0 }
        let end = min(order.count, lookCursor + Self.lookBudget)
        let slice = Array(order[lookCursor..<end])
        lookCursor = end
        compare(slice)
    }

    /// Compares every followed object (or those at `paths`) with what it was and sends what changed.
    func compare(_ paths: [String]? = nil) {
        for path in paths ?? Array(seen.keys) {
            guard let old = seen[path] else { continue }
            guard let object = old.object else {
                seen[path] = nil
                continue
            }
            let new = snapshot(object)
            if new.name != old.name {
                emit(path, "PropertyChange", detail: "accessible-name") { $0.variant("s") { $0.string(new.name) } }
            }
            for (state, name) in AtspiStates.eventNames where new.states.contains(state) != old.states.contains(state) {
                emit(path, "StateChanged", detail: name, detail1: new.states.contains(state) ? 1 : 0) { $0.variant("i") { $0.int32(0) } }
            }
            if new.children != old.children {
                let kept = Set(new.children)
                for (index, id) in old.children.enumerated().reversed() where !kept.contains(id) {
                    let child = old.childRefs[index]
                    emit(path, "ChildrenChanged", detail: "remove", detail1: Int32(index)) { $0.variant("(so)") { $0.reference(child) } }
                }
                let before = Set(old.children)
                for (index, id) in new.children.enumerated() where !before.contains(id) {
                    let child = new.childRefs[index]
                    emit(path, "ChildrenChanged", detail: "add", detail1: Int32(index)) { $0.variant("(so)") { $0.reference(child) } }
                }
            }
            seen[path] = new
        }
    }

    /// The keyboard focus moved to `object`: its `focused` state and the focus event, which
    /// screen readers follow to read what has the focus.
    func focus(_ object: Accessible) {
        guard server.focused !== object else { return }
        let old = server.focused
        follow(object)
        server.focused = object
        // Only the two objects whose focus changed are compared: a keystroke stays cheap.
        compare([server.objects.path(of: object)] + (old.map { [server.objects.path(of: $0)] } ?? []))
        emit(server.objects.path(of: object), "Focus", interface: "org.a11y.atspi.Event.Focus", detail: "") {
            $0.variant("i") { $0.int32(0) }
        }
    }

    /// Words to be read out now (a banner's message).
    func announce(_ text: String, from window: Window) {
        emit(server.objects.path(of: window), "Announcement", detail: "", detail1: 1) { $0.variant("s") { $0.string(text) } }
    }

    /// An org.a11y.atspi.Event.Object signal: (detail, detail1, detail2, any_data, properties).
    private func emit(_ path: String, _ member: String, interface: String = "org.a11y.atspi.Event.Object", detail: String,
                      detail1: Int32 = 0, _ anyData: (inout MessageWriter) -> Void) {
        guard let signal = tt_dbus_message_new_signal(path, interface, member) else { return }
        var writer = MessageWriter(signal)
        writer.string(detail)
        writer.int32(detail1)
        writer.int32(0)
        anyData(&writer)
        writer.array("{sv}") { _ in }
        server.bus.send(signal)
    }
}
