// The desktop's Save dialog through org.freedesktop.portal.FileChooser (xdg-desktop-portal, with
// the GNOME, GTK or KDE backend). SaveFile returns at once with a Request object; the user's
// answer comes later as that Request's Response signal. Nothing here blocks: the caller polls
// with `poll()` from its event loop until the answer is there. The Request's path is predictable,
// so any program on the bus could send a Response there: only the portal's is taken, the bus
// asked for signals from its name alone, and each checked against the unique name the reply to
// SaveFile came from (the bus delivers a reply only from the connection that took the call).
#if canImport(Glibc)
import Glibc
#endif
import CDBus
import DBusMessages

public final class FileChooserPortal {
    /// A choice of file type in the dialog: a name and its glob patterns and MIME types.
    public struct Filter: Equatable, Sendable {
        public var name: String
        public var patterns: [String]
        public var mimeTypes: [String]

        public init(name: String, patterns: [String], mimeTypes: [String]) {
            self.name = name
            self.patterns = patterns
            self.mimeTypes = mimeTypes
        }
    }

    /// How a Save dialog ended.
    public enum Outcome: Equatable, Sendable {
        /// The user chose `path`, with the filter of that index in the list when the dialog says.
        case chosen(path: String, filter: Int?)
        /// The user closed the dialog without saving.
        case cancelled
        /// There is no portal, or it failed: the reason.
        case unavailable(String)
    }

    private let bus: SessionBus
    /// The dialog asked for: its call's serial, its Request's path, the portal's unique name once
    /// its reply has come, and what to do with the answer.
    private var waiting: (serial: UInt32, request: String, portal: String?, filters: [Filter], done: (Outcome) -> Void)?
    private var requests = 0

    /// Connects to the session bus; throws when there is none. Whether the portal itself is there
    /// shows when a dialog is asked for (it is started on demand).
    public init(environment: (String) -> String?) throws(PortalError) {
        bus = try SessionBus(environment: environment)
    }

    /// Whether a dialog is open (its answer not yet read).
    public var isWaiting: Bool { waiting != nil }

    /// Asks for the Save dialog. `done` is called from ``poll()`` once, with the outcome.
    public func saveFile(title: String, currentName: String, currentFolder: String, filters: [Filter],
                         done: @escaping (Outcome) -> Void) {
        guard waiting == nil else { return done(.unavailable("a Save dialog is already open")) }
        requests += 1
        let token = "touchtracker\(getpid())_\(requests)"
        // The Request's path is known before the call: listen first, so no answer is missed.
        let sender = String(bus.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 })
        let request = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        bus.addMatch(Self.responseRule(request))
        guard let message = tt_dbus_message_new_method_call(Self.portalName, "/org/freedesktop/portal/desktop",
                                                         "org.freedesktop.portal.FileChooser", "SaveFile") else {
            return done(.unavailable("out of memory"))
        }
        var writer = MessageWriter(message)
        writer.string("")  // no parent window: Wayland has no portable window handle without xdg-foreign
        writer.string(title)
        writer.container(tt_dbus_type_array, "{sv}") { options in
            options.option("handle_token", "s") { $0.string(token) }
            options.option("current_name", "s") { $0.string(currentName) }
            options.option("current_folder", "ay") { $0.bytestring(currentFolder) }
            options.option("filters", "a(sa(us))") { value in
                value.container(tt_dbus_type_array, "(sa(us))") { list in
                    for filter in filters { Self.write(filter, into: &list) }
                }
            }
            if let first = filters.first {
                options.option("current_filter", "(sa(us))") { Self.write(first, into: &$0) }
            }
        }
        do {
            let serial = try bus.send(message)
            waiting = (serial, request, nil, filters, done)
        } catch {
            done(.unavailable(error.description))
        }
    }

    /// Reads what has arrived, without waiting; calls the dialog's `done` when its answer is here.
    public func poll() {
        guard waiting != nil else { return }
        var outcome: Outcome?
        let open = bus.readAvailable { message in
            guard let current = waiting, outcome == nil else { return }
            let type = tt_dbus_message_get_type(message)
            let sender = tt_dbus_message_get_sender(message).map { String(cString: $0) }
            if tt_dbus_message_get_reply_serial(message) == current.serial {
                if type == tt_dbus_message_error {
                    // No portal on this bus (ServiceUnknown), or no FileChooser in it (UnknownMethod).
                    let name = tt_dbus_message_get_error_name(message).map { String(cString: $0) } ?? "error"
                    var reader = MessageReader(message)
                    outcome = .unavailable("\(name): \(reader?.string() ?? "")")
                    return
                }
                waiting?.portal = sender
                if var reader = MessageReader(message), let handle = reader.string(), handle != current.request {
                    // An old portal that ignores handle_token: follow the path it gave.
                    bus.addMatch(Self.responseRule(handle))
                    waiting?.request = handle
                }
            } else if type == tt_dbus_message_signal, tt_dbus_message_is_signal(message, "org.freedesktop.portal.Request", "Response") != 0,
                      let path = tt_dbus_message_get_path(message), String(cString: path) == current.request,
                      let portal = current.portal, sender == portal {
                // The portal sends its reply before it can answer (the bus keeps one sender's
                // messages in order): a Response before the reply is not the portal's.
                outcome = Self.outcome(of: message, filters: current.filters)
            }
        }
        if outcome == nil, !open { outcome = .unavailable("the session bus went away") }
        if let outcome, let current = waiting {
            waiting = nil
            current.done(outcome)
        }
    }

    // MARK: Private

    /// The portal's well-known name: the bus resolves it to its owner when matching.
    static let portalName = "org.freedesktop.portal.Desktop"

    private static func responseRule(_ path: String) -> String {
        "type='signal',sender='\(portalName)',interface='org.freedesktop.portal.Request',member='Response',path='\(path)'"
    }

    /// A filter as `(sa(us))`: 0 is a glob pattern, 1 a MIME type.
    private static func write(_ filter: Filter, into writer: inout MessageWriter) {
        writer.container(tt_dbus_type_struct, nil) { entry in
            entry.string(filter.name)
            entry.container(tt_dbus_type_array, "(us)") { list in
                for (kind, values) in [(UInt32(0), filter.patterns), (1, filter.mimeTypes)] {
                    for value in values {
                        list.container(tt_dbus_type_struct, nil) { $0.uint32(kind); $0.string(value) }
                    }
                }
            }
        }
    }

    /// Response (u response, a{sv} results): 0 is success, 1 cancelled, 2 ended otherwise. The GTK
    /// backend answers 2 when the dialog is closed with Escape or its close button: a cancel too.
    private static func outcome(of message: OpaquePointer, filters: [Filter]) -> Outcome {
        guard var reader = MessageReader(message), let response = reader.uint32() else {
            return .unavailable("a Response without a result")
        }
        guard response == 0 else { return .cancelled }
        reader.next()
        var uris: [String] = [], filterName: String?
        reader.forEach { entry in
            var fields = entry.recurse()
            guard let key = fields.string() else { return }
            fields.next()
            var value = fields.recurse()
            if key == "uris" {
                value.forEach { if let uri = $0.string() { uris.append(uri) } }
            } else if key == "current_filter" {
                var filter = value.recurse()
                filterName = filter.string()
            }
        }
        guard let uri = uris.first, let path = filePath(uri) else { return .unavailable("the dialog chose no local file") }
        return .chosen(path: path, filter: filterName.flatMap { name in filters.firstIndex { $0.name == name } })
    }

    /// `file:///a/b%20c` → `/a/b c`; nil for other schemes.
    static func filePath(_ uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var bytes: [UInt8] = []
        var rest = Array(uri.utf8.dropFirst("file://".count))[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        let path = String(decoding: bytes, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }
}
