// The Save dialog's answer on a private session bus of our own: a stand-in portal owns the
// portal's name and answers SaveFile, and another program on the bus, which can work out the
// request's path as anyone can, sends a Response of its own first. Only the portal's is taken.
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages
import Testing
@testable import DesktopPortal

/// The libdbus calls only the stand-ins need, looked up in the library the portal client loaded.
struct StandInCalls {
    typealias RequestName = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UInt32, UnsafeMutablePointer<TTDBusError>?) -> Int32
    typealias NewSignal = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias NewReturn = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SetDestination = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UInt32
    typealias GetMember = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

    let requestName: RequestName
    let newSignal: NewSignal
    let newMethodReturn: NewReturn
    let setDestination: SetDestination
    let getMember: GetMember

    init?() {
        guard tt_dbus_load() != 0, let library = dlopen("libdbus-1.so.3", RTLD_NOW) else { return nil }
        func call<T>(_ name: String, as type: T.Type) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: type) } }
        guard let requestName = call("dbus_bus_request_name", as: RequestName.self),
              let newSignal = call("dbus_message_new_signal", as: NewSignal.self),
              let newMethodReturn = call("dbus_message_new_method_return", as: NewReturn.self),
              let setDestination = call("dbus_message_set_destination", as: SetDestination.self),
              let getMember = call("dbus_message_get_member", as: GetMember.self) else { return nil }
        (self.requestName, self.newSignal, self.newMethodReturn, self.setDestination, self.getMember) =
            (requestName, newSignal, newMethodReturn, setDestination, getMember)
    }
}

/// A session bus of our own: `dbus-daemon --session`, stopped at the end.
final class PrivateBus {
    let address: String
    private let pid: pid_t

    init?() {
        guard let pipe = popen("dbus-daemon --session --fork --print-address=1 --print-pid=1", "r") else { return nil }
        defer { pclose(pipe) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1024)
        while lines.count < 2, fgets(&buffer, Int32(buffer.count), pipe) != nil {
            lines.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingSuffix("\n"))
        }
        guard lines.count == 2, let pid = pid_t(lines[1]) else { return nil }
        address = lines[0]
        self.pid = pid
    }

    deinit { kill(pid, SIGTERM) }
}

/// A connection of a stand-in program.
final class Peer {
    let connection: OpaquePointer
    let uniqueName: String

    init(address: String) throws {
        var error = TTDBusError()
        tt_dbus_error_init(&error)
        defer { tt_dbus_error_free(&error) }
        let connection = try #require(tt_dbus_connection_open_private(address, &error))
        tt_dbus_connection_set_exit_on_disconnect(connection, 0)
        #expect(tt_dbus_bus_register(connection, &error) != 0)
        self.connection = connection
        uniqueName = String(cString: try #require(tt_dbus_bus_get_unique_name(connection)))
    }

    deinit {
        tt_dbus_connection_close(connection)
        tt_dbus_connection_unref(connection)
    }

    func send(_ message: OpaquePointer) {
        #expect(tt_dbus_connection_send(connection, message, nil) != 0)
        tt_dbus_connection_flush(connection)
        tt_dbus_message_unref(message)
    }

    /// The next message for which `accept` is true, waiting up to five seconds; the others are
    /// dropped. The caller unrefs it.
    func next(where accept: (OpaquePointer) -> Bool) -> OpaquePointer? {
        for _ in 0..<500 {
            _ = tt_dbus_connection_read_write(connection, 10)
            while let message = tt_dbus_connection_pop_message(connection) {
                if accept(message) { return message }
                tt_dbus_message_unref(message)
            }
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

extension MessageWriter {
    mutating func objectPath(_ value: String) {
        value.withCString { text in
            var pointer: UnsafePointer<CChar>? = text
            _ = tt_dbus_message_iter_append_basic(&iter, tt_dbus_type_object_path, &pointer)
        }
    }
}

@Suite("The portal's answer")
struct PortalResponseTests {
    /// A Response (u 0, a{sv} {"uris": [uri]}) on `path`, to `destination` or to everyone listening.
    private static func response(_ calls: StandInCalls, path: String, uri: String, to destination: String? = nil) -> OpaquePointer? {
        guard let signal = calls.newSignal(path, "org.freedesktop.portal.Request", "Response") else { return nil }
        if let destination { _ = calls.setDestination(signal, destination) }
        var writer = MessageWriter(signal)
        writer.uint32(0)
        writer.container(tt_dbus_type_array, "{sv}") { options in
            options.option("uris", "as") { $0.container(tt_dbus_type_array, "s") { $0.string(uri) } }
        }
        return signal
    }

    // No dbus-daemon (scripts/setup installs it) fails here at PrivateBus, never skips.
    @Test("A Response is taken only from the portal that took the call: another program's, sent to everyone or to the app, chooses no file")
    func responseOnlyFromThePortal() throws {
        let calls = try #require(StandInCalls())
        let bus = try #require(PrivateBus())
        let portal = try Peer(address: bus.address), intruder = try Peer(address: bus.address)
        #expect(calls.requestName(portal.connection, "org.freedesktop.portal.Desktop", 0, nil) == 1, "the stand-in owns the portal's name")

        let chooser = try FileChooserPortal(environment: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? bus.address : nil })
        var outcome: FileChooserPortal.Outcome?
        chooser.saveFile(title: "Export", currentName: "a.png", currentFolder: "/tmp", filters: []) { outcome = $0 }
        /// Lets the app read what has come, for a while.
        func appReads() {
            for _ in 0..<30 where outcome == nil {
                chooser.poll()
                usleep(10_000)
            }
        }

        // The call reaches the portal; the request's path follows from the caller and the token.
        let call = try #require(portal.next { calls.getMember($0).map { String(cString: $0) } == "SaveFile" })
        defer { tt_dbus_message_unref(call) }
        let caller = String(cString: try #require(tt_dbus_message_get_sender(call)))
        var reader = try #require(MessageReader(call))
        reader.next()
        reader.next()
        var token: String?
        reader.forEach { entry in
            var fields = entry.recurse()
            guard fields.string() == "handle_token" else { return }
            fields.next()
            var value = fields.recurse()
            token = value.string()
        }
        let path = "/org/freedesktop/portal/desktop/request/\(caller.dropFirst().map { $0 == "." ? "_" : $0 }.map(String.init).joined())/\(try #require(token))"

        // Another program answers first, to everyone and to the app.
        intruder.send(try #require(Self.response(calls, path: path, uri: "file:///tmp/intruder.png")))
        intruder.send(try #require(Self.response(calls, path: path, uri: "file:///tmp/intruder.png", to: caller)))
        appReads()
        #expect(outcome == nil, "an answer from \(intruder.uniqueName) was taken")

        // The portal's reply; then the other program again, and at last the portal's answer.
        let reply = try #require(calls.newMethodReturn(call))
        var writer = MessageWriter(reply)
        writer.objectPath(path)
        portal.send(reply)
        appReads()
        intruder.send(try #require(Self.response(calls, path: path, uri: "file:///tmp/intruder.png")))
        intruder.send(try #require(Self.response(calls, path: path, uri: "file:///tmp/intruder.png", to: caller)))
        appReads()
        #expect(outcome == nil, "an answer from \(intruder.uniqueName) was taken")
        portal.send(try #require(Self.response(calls, path: path, uri: "file:///tmp/chosen.png")))
        appReads()
        #expect(outcome == .chosen(path: "/tmp/chosen.png", filter: nil))
    }
}
