// Writing and reading D-Bus values (strings, object paths, numbers, booleans, byte strings,
// structs, arrays, variants, dictionaries) through libdbus's iterators: one writer and one reader
// for everything the app says on a bus, the portals' settings and file chooser and AT-SPI alike.
#if canImport(Glibc)
import Glibc
#endif
import CDBus

/// Appends values to a message through a libdbus iterator.
public struct MessageWriter {
    public var iter = TTDBusMessageIter()

    public init(_ message: OpaquePointer) { tt_dbus_message_iter_init_append(message, &iter) }
    private init() {}

    public mutating func string(_ value: String) { text(value, type: tt_dbus_type_string) }
    public mutating func objectPath(_ value: String) { text(value, type: tt_dbus_type_object_path) }

    private mutating func text(_ value: String, type: Int32) {
        value.withCString { chars in
            var pointer: UnsafePointer<CChar>? = chars
            _ = tt_dbus_message_iter_append_basic(&iter, type, &pointer)
        }
    }

    public mutating func uint32(_ value: UInt32) { basic(value, tt_dbus_type_uint32) }
    public mutating func int32(_ value: Int32) { basic(value, tt_dbus_type_int32) }
    public mutating func int16(_ value: Int16) { basic(value, tt_dbus_type_int16) }
    public mutating func double(_ value: Double) { basic(value, tt_dbus_type_double) }
    /// D-Bus booleans travel as 32 bits.
    public mutating func bool(_ value: Bool) { basic(UInt32(value ? 1 : 0), tt_dbus_type_boolean) }

    private mutating func basic<T: BitwiseCopyable>(_ value: T, _ type: Int32) {
        var value = value
        _ = withUnsafeMutablePointer(to: &value) { tt_dbus_message_iter_append_basic(&iter, type, $0) }
    }

    /// A byte array ending in a nul byte, as the portal takes file names.
    public mutating func bytestring(_ value: String) {
        array("y") { inner in
            for byte in Array(value.utf8) + [0] { inner.basic(byte, tt_dbus_type_byte) }
        }
    }

    /// An open container (array, struct, dict entry, variant) filled by `fill`.
    public mutating func container(_ type: Int32, _ signature: String?, _ fill: (inout MessageWriter) -> Void) {
        var inner = MessageWriter()
        _ = tt_dbus_message_iter_open_container(&iter, type, signature, &inner.iter)
        fill(&inner)
        _ = tt_dbus_message_iter_close_container(&iter, &inner.iter)
    }

    public mutating func array(_ elementSignature: String, _ fill: (inout MessageWriter) -> Void) {
        container(tt_dbus_type_array, elementSignature, fill)
    }

    public mutating func variant(_ signature: String, _ fill: (inout MessageWriter) -> Void) {
        container(tt_dbus_type_variant, signature, fill)
    }

    /// One `{sv}` entry of an options dictionary.
    public mutating func option(_ key: String, _ signature: String, _ value: (inout MessageWriter) -> Void) {
        container(tt_dbus_type_dict_entry, nil) { entry in
            entry.string(key)
            entry.variant(signature, value)
        }
    }
}

/// Reads values from a message through a libdbus iterator. Each read looks at the value here and
/// leaves the iterator on it; ``next()`` moves on.
public struct MessageReader {
    public var iter = TTDBusMessageIter()

    public init?(_ message: OpaquePointer) {
        guard tt_dbus_message_iter_init(message, &iter) != 0 else { return nil }
    }
    private init() {}

    /// The type of the value here; 0 past the last.
    public var type: Int32 {
        var copy = iter
        return tt_dbus_message_iter_get_arg_type(&copy)
    }

    public mutating func next() { _ = tt_dbus_message_iter_next(&iter) }

    /// The string (or object path) here, if that is what is here.
    public mutating func string() -> String? {
        guard type == tt_dbus_type_string || type == tt_dbus_type_object_path else { return nil }
        var pointer: UnsafePointer<CChar>?
        tt_dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) }
    }

    public mutating func uint32() -> UInt32? { basic(tt_dbus_type_uint32, UInt32(0)) }
    public mutating func int32() -> Int32? { basic(tt_dbus_type_int32, Int32(0)) }
    public mutating func double() -> Double? { basic(tt_dbus_type_double, 0.0) }
    public mutating func boolean() -> Bool? { basic(tt_dbus_type_boolean, UInt32(0)).map { $0 != 0 } }

    private mutating func basic<T: BitwiseCopyable>(_ expected: Int32, _ zero: T) -> T? {
        guard type == expected else { return nil }
        var value = zero
        withUnsafeMutablePointer(to: &value) { tt_dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    /// The container here, opened.
    public mutating func recurse() -> MessageReader {
        var inner = MessageReader()
        tt_dbus_message_iter_recurse(&iter, &inner.iter)
        return inner
    }

    /// Each element of the array or struct here.
    public mutating func forEach(_ body: (inout MessageReader) -> Void) {
        var inner = recurse()
        while inner.type != 0 {
            body(&inner)
            inner.next()
        }
    }

    /// The value `read` finds here, moving on past it; nil (staying put) when it is not there.
    public mutating func take<T>(_ read: (inout MessageReader) -> T?) -> T? {
        guard let value = read(&self) else { return nil }
        next()
        return value
    }
}
