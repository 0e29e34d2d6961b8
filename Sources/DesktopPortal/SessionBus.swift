// A private connection to the user's D-Bus session bus through libdbus, read without blocking:
// the app's event loop calls `readAvailable()` on a timer while it waits for an answer.
#if canImport(Glibc)
import Glibc
#endif
import CDBus

final class SessionBus {
    /// DBusConnection*.
    let connection: OpaquePointer
    /// This connection's name on the bus (":1.42").
    let uniqueName: String

    /// Connects to `DBUS_SESSION_BUS_ADDRESS`, else to `$XDG_RUNTIME_DIR/bus`; throws with the
    /// reason when there is no session bus (no auto-launching a bus of our own).
    init(environment: (String) -> String?) throws(PortalError) {
        var address = environment("DBUS_SESSION_BUS_ADDRESS") ?? ""
        if address.isEmpty, let runtime = environment("XDG_RUNTIME_DIR"), access(runtime + "/bus", F_OK) == 0 {
            address = "unix:path=" + runtime + "/bus"
        }
        guard !address.isEmpty else { throw PortalError("no D-Bus session bus") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw PortalError("cannot reach the session bus: \(Self.message(error))")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0, let name = dbus_bus_get_unique_name(connection) else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw PortalError("cannot register on the session bus: \(Self.message(error))")
        }
        self.connection = connection
        uniqueName = String(cString: name)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Sends `message` (which this takes over) and returns its serial, to find the reply by.
    func send(_ message: OpaquePointer) throws(PortalError) -> UInt32 {
        defer { dbus_message_unref(message) }
        var serial: dbus_uint32_t = 0
        guard dbus_connection_send(connection, message, &serial) != 0 else { throw PortalError("out of memory") }
        dbus_connection_flush(connection)
        return serial
    }

    /// Asks the bus for signals matching `rule`, without waiting for its answer.
    func addMatch(_ rule: String) {
        dbus_bus_add_match(connection, rule, nil)
        dbus_connection_flush(connection)
    }

    /// The messages that have arrived, without waiting; false once the bus is gone.
    func readAvailable(_ each: (OpaquePointer) -> Void) -> Bool {
        let open = dbus_connection_read_write(connection, 0) != 0
        while let message = dbus_connection_pop_message(connection) {
            each(message)
            dbus_message_unref(message)
        }
        return open && dbus_connection_get_is_connected(connection) != 0
    }

    static func message(_ error: DBusError) -> String {
        error.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// Why the portal could not be used, in one line.
public struct PortalError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
