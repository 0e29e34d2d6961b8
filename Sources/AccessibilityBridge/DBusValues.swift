// Writing and reading the D-Bus values AT-SPI speaks (strings, numbers, booleans, object paths,
// structs, arrays, variants, dictionaries) through libdbus's iterators.
#if canImport(Glibc)
import Glibc
#endif
import CDBus

/// An object on the bus: the connection's unique name and an object path, AT-SPI's `(so)`.
struct ObjectReference: Equatable {
    var bus: String
    var path: String

    /// AT-SPI's reference to nothing.
    static let null = ObjectReference(bus: "", path: "/org/a11y/atspi/null")
}

/// Appends values to a message.
struct ValueWriter {
    var iter = TTDBusMessageIter()

    init(_ message: OpaquePointer) { tt_dbus_message_iter_init_append(message, &iter) }
    private init() {}

    mutating func string(_ value: String) { text(value, type: tt_dbus_type_string) }
    mutating func objectPath(_ value: String) { text(value, type: tt_dbus_type_object_path) }

    private mutating func text(_ value: String, type: Int32) {
        value.withCString { chars in
            var pointer: UnsafePointer<CChar>? = chars
            _ = tt_dbus_message_iter_append_basic(&iter, type, &pointer)
        }
    }

    mutating func uint32(_ value: UInt32) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_uint32, &value)
    }

    mutating func int32(_ value: Int32) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_int32, &value)
    }

    mutating func int16(_ value: Int16) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_int16, &value)
    }

    mutating func bool(_ value: Bool) {
        var value: UInt32 = value ? 1 : 0  // D-Bus booleans travel as 32 bits
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_boolean, &value)
    }

    mutating func double(_ value: Double) {
        var value = value
        _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_double, &value)
    }

    /// `(so)`.
    mutating func reference(_ value: ObjectReference) {
        container(tt_dbus_type_struct, nil) { fields in
            fields.string(value.bus)
            fields.objectPath(value.path)
        }
    }

    /// An open container (array, struct, dict entry, variant) filled by `fill`.
    mutating func container(_ type: Int32, _ signature: String?, _ fill: (inout ValueWriter) -> Void) {
        var inner = ValueWriter()
        _ = tt_dbus_message_iter_open_container(&iter, type, signature, &inner.iter)
        fill(&inner)
        _ = tt_dbus_message_iter_close_container(&iter, &inner.iter)
    }

    mutating func array(_ elementSignature: String, _ fill: (inout ValueWriter) -> Void) {
        container(tt_dbus_type_array, elementSignature, fill)
    }

    mutating func variant(_ signature: String, _ fill: (inout ValueWriter) -> Void) {
        container(tt_dbus_type_variant, signature, fill)
    }
}

/// Reads a message's arguments in order.
struct ValueReader {
    var iter = TTDBusMessageIter()

    init?(_ message: OpaquePointer) {
        guard tt_dbus_message_iter_init(message, &iter) != 0 else { return nil }
    }

    var type: Int32 {
        var copy = iter
        return tt_dbus_message_iter_get_arg_type(&copy)
    }

    mutating func next() { _ = tt_dbus_message_iter_next(&iter) }

    mutating func string() -> String? {
        guard type == tt_dbus_type_string || type == tt_dbus_type_object_path else { return nil }
        var pointer: UnsafePointer<CChar>?
        tt_dbus_message_iter_get_basic(&iter, &pointer)
        defer { next() }
        return pointer.map { String(cString: $0) }
    }

    mutating func int32() -> Int32? {
        guard type == tt_dbus_type_int32 else { return nil }
        var value: Int32 = 0
        tt_dbus_message_iter_get_basic(&iter, &value)
        next()
        return value
    }

    mutating func uint32() -> UInt32? {
        guard type == tt_dbus_type_uint32 else { return nil }
        var value: UInt32 = 0
        tt_dbus_message_iter_get_basic(&iter, &value)
        next()
        return value
    }

    /// `(so)`.
    mutating func reference() -> ObjectReference? {
        guard type == tt_dbus_type_struct else { return nil }
        var inner = ValueReader(copying: iter)
        tt_dbus_message_iter_recurse(&iter, &inner.iter)
        next()
        guard let bus = inner.string(), let path = inner.string() else { return nil }
        return ObjectReference(bus: bus, path: path)
    }

    private init(copying iter: TTDBusMessageIter) { self.iter = iter }
}
