import CWaylandClient

#if canImport(Glibc)
import Glibc
#endif

/// Why a connection call failed.
public enum WaylandError: Error, Sendable, CustomStringConvertible {
    /// `wl_display_connect` failed: no compositor at that socket, or no socket.
    case connectFailed(display: String, runtimeDirectory: String?, errno: Int32)
    /// The compositor reported a fatal protocol error; the connection is dead.
    case protocolError(ProtocolError)
    /// The connection failed with a system error (errno), e.g. the compositor went away.
    case connectionLost(errno: Int32)
    /// A system call other than the connection's failed (e.g. creating shared memory).
    case systemCall(String, errno: Int32)

    public var description: String {
        switch self {
        case let .connectFailed(display, runtimeDirectory, code):
            let directory = runtimeDirectory.map { "XDG_RUNTIME_DIR=\($0)" } ?? "XDG_RUNTIME_DIR is not set"
            return "cannot connect to Wayland compositor '\(display)' (\(directory)): \(errorText(code)). "
                + "Is a compositor running, and do WAYLAND_DISPLAY and XDG_RUNTIME_DIR point at it?"
        case let .protocolError(error):
            return error.description
        case let .connectionLost(code):
            return "Wayland connection failed: \(errorText(code))"
        case let .systemCall(call, code):
            return "\(call) failed: \(errorText(code))"
        }
    }
}

/// A fatal protocol error the compositor sent (`wl_display.error`).
public struct ProtocolError: Sendable, Hashable, CustomStringConvertible {
    /// The interface of the object the error is about, if libwayland knows it.
    public let interfaceName: String?
    /// The id of that object.
    public let objectID: UInt32
    /// The error code, from that interface's `error` enum (e.g. `XdgSurface.ErrorCode`).
    public let code: UInt32

    public var description: String {
        "Wayland protocol error \(code) on \(interfaceName ?? "unknown interface")@\(objectID)"
    }
}

private func errorText(_ code: Int32) -> String {
    String(cString: strerror(code)) + " (errno \(code))"
}

/// Owns the `wl_display`; disconnects when the connection and every object made through it are gone.
final class _DisplayHandle {
    let display: OpaquePointer

    init(_ display: OpaquePointer) { self.display = display }

    deinit { wl_display_disconnect(display) }
}

/// A connection to a Wayland compositor.
///
/// For a `poll()` loop: `while !prepareRead() { try dispatchPending() }`, `try flush()`, poll `fd`
/// for input, then `try readEvents()` (or `cancelRead()` if not reading), then `try dispatchPending()`.
/// The display stays connected as long as this object or any protocol object created through it exists.
public final class Connection {
    private let handle: _DisplayHandle

    /// The `wl_display` object (id 1).
    public let display: WlDisplay

    /// Connects to the compositor at socket `name`, or `$WAYLAND_DISPLAY` (default `wayland-0`) when nil.
    public init(name: String? = nil) throws(WaylandError) {
        guard let pointer = wl_display_connect(name) else {
            let code = errno
            let environment = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
            throw .connectFailed(display: name ?? environment ?? "wayland-0",
                                 runtimeDirectory: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) },
                                 errno: code)
        }
        handle = _DisplayHandle(pointer)
        display = WlDisplay(adopting: pointer)
        display._connection = handle
    }

    /// The `struct wl_display *`, for C libraries that need it.
    public var displayPointer: OpaquePointer { handle.display }

    /// The socket to poll for input (and for output after a partial `flush`).
    public var fd: Int32 { wl_display_get_fd(handle.display) }

    /// Sends buffered requests. Returns false if the socket is full (poll `fd` for output and call
    /// again); throws if the connection failed.
    @discardableResult
    public func flush() throws(WaylandError) -> Bool {
        if wl_display_flush(handle.display) >= 0 { return true }
        let code = errno
        if code == EAGAIN { return false }
        throw failure(code)
    }

    /// Announces the intention to read. Returns false if events are already queued: dispatch them
    /// with `dispatchPending()` and try again.
    public func prepareRead() -> Bool {
        wl_display_prepare_read(handle.display) == 0
    }

    /// Reads what the socket has after a successful `prepareRead()` (does not dispatch).
    public func readEvents() throws(WaylandError) {
        if wl_display_read_events(handle.display) < 0 { throw failure(errno) }
    }

    /// Gives up a `prepareRead()` without reading.
    public func cancelRead() {
        wl_display_cancel_read(handle.display)
    }

    /// Runs the handlers of queued events without reading. Returns the number dispatched.
    @discardableResult
    public func dispatchPending() throws(WaylandError) -> Int {
        let count = wl_display_dispatch_pending(handle.display)
        if count < 0 { throw failure(errno) }
        return Int(count)
    }

    /// Blocks until events arrive, then dispatches them (for simple programs and tests).
    @discardableResult
    public func dispatch() throws(WaylandError) -> Int {
        let count = wl_display_dispatch(handle.display)
        if count < 0 { throw failure(errno) }
        return Int(count)
    }

    /// Sends everything, waits until the compositor has processed it, and dispatches the events
    /// that arrived meanwhile. Returns the number dispatched.
    @discardableResult
    public func roundtrip() throws(WaylandError) -> Int {
        let count = wl_display_roundtrip(handle.display)
        if count < 0 { throw failure(errno) }
        return Int(count)
    }

    /// The fatal error of this connection, if any (after which it is unusable).
    public var lastError: WaylandError? {
        let code = wl_display_get_error(handle.display)
        guard code != 0 else { return nil }
        if code == EPROTO, let protocolError { return .protocolError(protocolError) }
        return .connectionLost(errno: code)
    }

    /// The protocol error the compositor sent, if that is why the connection failed.
    public var protocolError: ProtocolError? {
        guard wl_display_get_error(handle.display) == EPROTO else { return nil }
        var interface: UnsafePointer<wl_interface>?
        var objectID: UInt32 = 0
        let code = wl_display_get_protocol_error(handle.display, &interface, &objectID)
        return ProtocolError(interfaceName: interface.flatMap { $0.pointee.name.map { String(cString: $0) } },
                             objectID: objectID, code: code)
    }

    /// A readable description of `lastError`, or nil.
    public var lastErrorDescription: String? { lastError?.description }

    private func failure(_ code: Int32) -> WaylandError {
        lastError ?? .connectionLost(errno: code)
    }
}
