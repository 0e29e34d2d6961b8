// Building and reading the few D-Bus values the portals speak (strings, byte arrays, a{sv}
// option dictionaries, the filters' a(sa(us)), the settings' numbers) with libdbus's iterators.
#if canImport(Glibc)
import Glibc
#endif
import CDBus

/// Appends values to a message through a libdbus iterator.
struct MessageWriter {
    var iter = TTDBusMessageIter()

    init(_ message: OpaquePointer) { tt_dbus_message_iter_init_append(message, &iter) }
    private init() {}

    mutating func string(_ value: String) {
        value.withCString { text in
            var pointer: UnsafePointer<CChar>? = text
            _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_string, &pointer)
        }
    }

    mutating func uint32(_ value: UInt32) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_uint32, &value)
    }

    mutating func double(_ value: Double) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_double, &value)
    }

    /// A byte array ending in a nul byte, as the portal takes file names.
    mutating func bytestring(_ value: String) {
        container(tt_dbus_type_array, "y") { inner in
            for byte in Array(value.utf8) + [0] {
                var byte = byte
                _ = tt_dbus_message_iter_append_basic(&inner.iter, tt_dbus_type_byte, &byte)
            }
        }
    }

    /// An open container (array, struct, dict entry, variant) filled by `fill`.
    mutating func container(_ type: Int32, _ signature: String?, _ fill: (inout MessageWriter) -> Void) {
        var inner = MessageWriter()
        _ = tt_dbus_message_iter_open_container(&iter, type, signature, &inner.iter)
        fill(&inner)
        _ = tt_dbus_message_iter_close_container(&iter, &inner.iter)
    }

    /// One `{sv}` entry of an options dictionary.
    mutating func option(_ key: String, _ signature: String, _ value: (inout MessageWriter) -> Void) {
        container(tt_dbus_type_dict_entry, nil) { entry in
            entry.string(key)
            entry.container(tt_dbus_type_variant, signature, value)
        }
    }
}

/// Reads values from a message through a libdbus iterator.
struct MessageReader {
    var iter = TTDBusMessageIter()

    init?(_ message: OpaquePointer) {
        guard tt_dbus_message_iter_init(message, &iter) != 0 else { return nil }
    }
    private init() {}

    var type: Int32 {
        var copy = iter
        return tt_dbus_message_iter_get_arg_type(&copy)
    }

    mutating func next() { _ = tt_dbus_message_iter_next(&iter) }

    /// The string (or object path) here, if that is what is here.
    mutating func string() -> String? {
        guard type == tt_dbus_type_string || type == tt_dbus_type_object_path else { return nil }
        var pointer: UnsafePointer<CChar>?
        tt_dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) }
    }

    mutating func uint32() -> UInt32? {
        guard type == tt_dbus_type_uint32 else { return nil }
        var value: UInt32 = 0
        tt_dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    mutating func double() -> Double? {
        guard type == tt_dbus_type_double else { return nil }
        var value = 0.0
        tt_dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    /// The container here, opened.
    mutating func recurse() -> MessageReader {
        var inner = MessageReader()
        tt_dbus_message_iter_recurse(&iter, &inner.iter)
        return inner
    }

    /// Each element of the array or struct here.
    mutating func forEach(_ body: (inout MessageReader) -> Void) {
        var inner = recurse()
        while inner.type != 0 {
            body(&inner)
            inner.next()
        }
    }
}
