import CWaylandClient

#if canImport(Glibc)
import Glibc
#endif

/// Builds the `wl_interface` / `wl_message` tables libwayland reads, once, at first use.
///
/// The generated `_WaylandInterfaces` allocates one slot per interface first and then fills them,
/// so message `types` can point at any interface, including later ones. Names and signatures are
/// `strdup`ed and never freed: the tables live as long as the process.
package final class _InterfaceTableBuilder {
    package struct Message {
        let name: String
        let signature: String
        /// One entry per wire argument: the table slot of an object/new_id interface, or nil.
        let types: [Int?]
    }

    package let table: UnsafeMutablePointer<wl_interface>

    package init(count: Int) {
        table = .allocate(capacity: max(count, 1))
        table.initialize(repeating: wl_interface(), count: max(count, 1))
    }

    package func message(_ name: String, _ signature: String, _ types: [Int?]) -> Message {
        Message(name: name, signature: signature, types: types)
    }

    package func set(_ slot: Int, _ name: String, version: Int32, requests: [Message], events: [Message]) {
        table[slot] = wl_interface(
            name: UnsafePointer(strdup(name)),
            version: version,
            method_count: Int32(requests.count),
            methods: messages(requests),
            event_count: Int32(events.count),
            events: messages(events))
    }

    private func messages(_ list: [Message]) -> UnsafePointer<wl_message> {
        let messages = UnsafeMutablePointer<wl_message>.allocate(capacity: max(list.count, 1))
        messages.initialize(repeating: wl_message(), count: max(list.count, 1))
        for (index, message) in list.enumerated() {
            let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: max(message.types.count, 1))
            types.initialize(repeating: nil, count: max(message.types.count, 1))
            for (argument, slot) in message.types.enumerated() {
                types[argument] = slot.map { UnsafePointer(table + $0) }
            }
            messages[index] = wl_message(name: UnsafePointer(strdup(message.name)),
                                         signature: UnsafePointer(strdup(message.signature)),
                                         types: types)
        }
        return UnsafePointer(messages)
    }
}
