// Reaching the desktop's accessibility bus: the session bus's org.a11y.Bus names its address,
// the app connects there and embeds its root object in the registry's desktop. Each step may
// wait on another process, so all of them run on a thread of their own (``connect(environment:)``);
// the event loop only ever reads and writes the finished connection without waiting.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages

/// A private libdbus connection to the accessibility bus, embedded in the registry.
final class AccessibilityBus: @unchecked Sendable {
    /// The root object's path: the application (AT-SPI's fixed name for it).
    static let rootPath = "/org/a11y/atspi/accessible/root"

    let connection: OpaquePointer
    /// This connection's unique name: the bus half of every reference the app hands out.
    let uniqueName: String
    /// The registry's desktop, the application's parent.
    let desktop: ObjectReference

    private init(connection: OpaquePointer, uniqueName: String, desktop: ObjectReference) {
        self.connection = connection
        self.uniqueName = uniqueName
        self.desktop = desktop
    }

    deinit {
        tt_dbus_connection_close(connection)
        tt_dbus_connection_unref(connection)
    }

    /// Why there is no accessibility bus, in one line.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects, registers and embeds; blocks (up to a few seconds), so never on the event loop.
    static func connect(environment: (String) -> String?) -> Result<AccessibilityBus, Unavailable> {
        guard tt_dbus_load() != 0 else { return .failure(Unavailable(description: "no libdbus: \(String(cString: tt_dbus_load_error()))")) }
        let address: String
        if let direct = environment("AT_SPI_BUS_ADDRESS"), !direct.isEmpty {
            address = direct
        } else {
            switch sessionBusAddress(environment).flatMap(askBusAddress) {
            case .success(let found): address = found
            case .failure(let error): return .failure(error)
            }
        }
        let connection: OpaquePointer
        switch open(address) {
        case .success(let opened): connection = opened
        case .failure(let error): return .failure(error)
        }
        let name = String(cString: tt_dbus_bus_get_unique_name(connection))
        guard let call = tt_dbus_message_new_method_call("org.a11y.atspi.Registry", rootPath, "org.a11y.atspi.Socket", "Embed") else {
            close(connection)
            return .failure(Unavailable(description: "out of memory"))
        }
        var writer = MessageWriter(call)
        writer.reference(ObjectReference(bus: name, path: rootPath))
        switch callBlocking(connection, call, timeoutMilliseconds: 3000) {
        case .success(let reply):
            defer { tt_dbus_message_unref(reply) }
            var reader = ValueReader(reply)
            let desktop = reader?.reference() ?? ObjectReference(bus: "org.a11y.atspi.Registry", path: rootPath)
            return .success(AccessibilityBus(connection: connection, uniqueName: name, desktop: desktop))
        case .failure(let error):
            close(connection)
            return .failure(Unavailable(description: "the registry did not take the application: \(error)"))
        }
    }

    private static func sessionBusAddress(_ environment: (String) -> String?) -> Result<String, Unavailable> {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return .success(address) }
        if let runtime = environment("XDG_RUNTIME_DIR"), access(runtime + "/bus", F_OK) == 0 { return .success("unix:path=\(runtime)/bus") }
        return .failure(Unavailable(description: "no D-Bus session bus"))
    }

    /// org.a11y.Bus.GetAddress on the session bus: the accessibility bus's address.
    private static func askBusAddress(_ sessionAddress: String) -> Result<String, Unavailable> {
        let session: OpaquePointer
        switch open(sessionAddress) {
        case .success(let opened): session = opened
        case .failure(let error): return .failure(error)
        }
        defer { close(session) }
        guard let call = tt_dbus_message_new_method_call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") else {
            return .failure(Unavailable(description: "out of memory"))
        }
        switch callBlocking(session, call, timeoutMilliseconds: 3000) {
        case .success(let reply):
            defer { tt_dbus_message_unref(reply) }
            var reader = ValueReader(reply)
            guard let address = reader?.string(), !address.isEmpty else {
                return .failure(Unavailable(description: "org.a11y.Bus gave no address"))
            }
            return .success(address)
        case .failure(let error):
            return .failure(Unavailable(description: "no accessibility bus: \(error)"))
        }
    }

    private static func open(_ address: String) -> Result<OpaquePointer, Unavailable> {
        var error = TTDBusError()
        tt_dbus_error_init(&error)
        defer { tt_dbus_error_free(&error) }
        guard let connection = tt_dbus_connection_open_private(address, &error) else {
            return .failure(Unavailable(description: "cannot connect to \(address): \(message(error))"))
        }
        tt_dbus_connection_set_exit_on_disconnect(connection, 0)
        guard tt_dbus_bus_register(connection, &error) != 0 else {
            close(connection)
            return .failure(Unavailable(description: "cannot register on \(address): \(message(error))"))
        }
        return .success(connection)
    }

    private static func close(_ connection: OpaquePointer) {
        tt_dbus_connection_close(connection)
        tt_dbus_connection_unref(connection)
    }

    /// Sends `call` (taken over) and waits for its reply.
    private static func callBlocking(_ connection: OpaquePointer, _ call: OpaquePointer,
                                     timeoutMilliseconds: Int32) -> Result<OpaquePointer, Unavailable> {
        defer { tt_dbus_message_unref(call) }
        var error = TTDBusError()
        tt_dbus_error_init(&error)
        defer { tt_dbus_error_free(&error) }
        guard let reply = tt_dbus_connection_send_with_reply_and_block(connection, call, timeoutMilliseconds, &error) else {
            return .failure(Unavailable(description: message(error)))
        }
        return .success(reply)
    }

    private static func message(_ error: TTDBusError) -> String {
        error.message.map { String(cString: $0) } ?? "unknown error"
    }

    // MARK: On the event loop

    /// The connection's socket: readable when a message came.
    var fileDescriptor: Int32? {
        var fd: Int32 = -1
        return tt_dbus_connection_get_unix_fd(connection, &fd) != 0 && fd >= 0 ? fd : nil
    }

    /// Reads and writes what the socket takes now and hands over each message that came, until
    /// a round brings none: a read may take in more than one message, and what libdbus holds
    /// already never makes the socket readable again. False once the bus is gone.
    func pump(_ each: (OpaquePointer) -> Void) -> Bool {
        var open = true, handled = true
        while handled {
            open = tt_dbus_connection_read_write(connection, 0) != 0 && open
            handled = false
            while let message = tt_dbus_connection_pop_message(connection) {
                each(message)
                tt_dbus_message_unref(message)
                handled = true
            }
        }
        return open && tt_dbus_connection_get_is_connected(connection) != 0
    }

    /// Whether replies or events wait for the socket to take them.
    var hasOutgoing: Bool { tt_dbus_connection_has_messages_to_send(connection) != 0 }

    /// Queues `message` (taken over); ``pump(_:)`` writes it.
    func send(_ message: OpaquePointer) {
        _ = tt_dbus_connection_send(connection, message, nil)
        tt_dbus_message_unref(message)
    }
}
