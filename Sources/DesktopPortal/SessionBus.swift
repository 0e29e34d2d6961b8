// A private connection to the user's D-Bus session bus through libdbus (opened with dlopen on the
// first connection), read without blocking: the app's event loop calls `readAvailable()` on a
// timer while it waits for an answer.
#if canImport(Glibc)
import Glibc
#endif
import CDBus

final class SessionBus {
    /// The libdbus connection.
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
        guard tt_dbus_load() != 0 else {
            throw PortalError("cannot load libdbus: \(String(cString: tt_dbus_load_error()))")
        }
        var error = TTDBusError()
        tt_dbus_error_init(&error)
        defer { tt_dbus_error_free(&error) }
        guard let connection = tt_dbus_connection_open_private(address, &error) else {
            throw PortalError("cannot reach the session bus: \(Self.message(error))")
        }
        tt_dbus_connection_set_exit_on_disconnect(connection, 0)
        guard tt_dbus_bus_register(connection, &error) != 0, let name = tt_dbus_bus_get_unique_name(connection) else {
            tt_dbus_connection_close(connection)
            tt_dbus_connection_unref(connection)
            throw PortalError("cannot register on the session bus: \(Self.message(error))")
        }
        self.connection = connection
        uniqueName = String(cString: name)
    }

    deinit {
        tt_dbus_connection_close(connection)
        tt_dbus_connection_unref(connection)
    }

    /// Sends `message` (which this takes over) and returns its serial, to find the reply by.
    func send(_ message: OpaquePointer) throws(PortalError) -> UInt32 {
        defer { tt_dbus_message_unref(message) }
        var serial: UInt32 = 0
        guard tt_dbus_connection_send(connection, message, &serial) != 0 else { throw PortalError("out of memory") }
        tt_dbus_connection_flush(connection)
        return serial
    }

    /// Asks the bus for signals matching `rule`, without waiting for its answer.
    func addMatch(_ rule: String) {
        tt_dbus_bus_add_match(connection, rule, nil)
        tt_dbus_connection_flush(connection)
    }

    /// The messages that have arrived, waiting up to `milliseconds` for the first; false once the
    /// bus is gone.
    func readAvailable(waiting milliseconds: Int32 = 0, _ each: (OpaquePointer) -> Void) -> Bool {
        let open = tt_dbus_connection_read_write(connection, milliseconds) != 0
        while let message = tt_dbus_connection_pop_message(connection) {
            each(message)
            tt_dbus_message_unref(message)
        }
        return open && tt_dbus_connection_get_is_connected(connection) != 0
    }

    static func message(_ error: TTDBusError) -> String {
        error.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// Why the portal could not be used, in one line.
public struct PortalError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
