// The D-Bus values particular to AT-SPI (its object references), and a message's arguments read
// in order, over DBusMessages' writer and reader.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages

/// An object on the bus: the connection's unique name and an object path, AT-SPI's `(so)`.
struct ObjectReference: Equatable {
    var bus: String
    var path: String

    /// AT-SPI's reference to nothing.
    static let null = ObjectReference(bus: "", path: "/org/a11y/atspi/null")
}

extension MessageWriter {
    /// `(so)`.
    mutating func reference(_ value: ObjectReference) {
        container(tt_dbus_type_struct, nil) { fields in
            fields.string(value.bus)
            fields.objectPath(value.path)
        }
    }
}

/// A message's arguments read in order: each read moves on to the next.
struct ValueReader {
    private var values: MessageReader

    init?(_ message: OpaquePointer) {
        guard let values = MessageReader(message) else { return nil }
        self.values = values
    }

    var type: Int32 { values.type }

    mutating func next() { values.next() }
    mutating func string() -> String? { values.take { $0.string() } }
    mutating func int32() -> Int32? { values.take { $0.int32() } }
    mutating func uint32() -> UInt32? { values.take { $0.uint32() } }

    /// The 32-bit integer inside the variant here.
    mutating func int32InVariant() -> Int32? {
        values.take { reader in
            guard reader.type == tt_dbus_type_variant else { return nil }
            var inner = reader.recurse()
            return inner.int32()
        }
    }

    /// `(so)`.
    mutating func reference() -> ObjectReference? {
        values.take { reader in
            guard reader.type == tt_dbus_type_struct else { return nil }
            var fields = reader.recurse()
            guard let bus = fields.take({ $0.string() }), let path = fields.take({ $0.string() }) else { return nil }
            return ObjectReference(bus: bus, path: path)
        }
    }
}
