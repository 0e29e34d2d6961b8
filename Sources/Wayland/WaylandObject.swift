// Wayland: Swift bindings for the Wayland client protocol.
//
// The classes for each protocol interface (`WlSurface`, `XdgToplevel`, ...) are generated at build
// time from protocols/*.xml by WaylandBindingsPlugin. This file is the runtime they share: the
// base class, request marshalling and the single C dispatcher through which every event arrives.
// Bindings generated into another module of this package (a test harness's own protocols) use it
// too: the base class is `open` and its underscored hooks have `package` access.
// This module knows the wire protocol and nothing about windows, input semantics or drawing.
import CWaylandClient

#if canImport(Glibc)
import Glibc
#endif

/// A Swift object wrapping a libwayland proxy of one protocol interface.
public protocol WaylandProxy: AnyObject {
    /// The libwayland interface table of this interface.
    static var interface: UnsafePointer<wl_interface> { get }
    /// The protocol name of the interface, e.g. `"wl_surface"`.
    static var interfaceName: String { get }
    /// The interface version of the XML this class was generated from: bind with
    /// `min(serverVersion, maxVersion)`.
    static var maxVersion: UInt32 { get }
    /// The wrapped `struct wl_proxy *`. Valid only while the object is alive.
    var proxy: OpaquePointer { get }
    /// The version of this object (unversioned proxies report 1).
    var version: UInt32 { get }
    /// Wraps a proxy created elsewhere and installs this module's event dispatcher on it.
    init(adopting proxy: OpaquePointer)
}

/// The implementation pointer handed to `wl_proxy_add_dispatcher`. A proxy whose listener is this
/// address carries a `WaylandObject` as its user data; any other proxy is not ours to interpret.
nonisolated(unsafe) private let dispatcherSentinel = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)

/// What `proxy` holds for objects that never got a real proxy (created on a dead object).
nonisolated(unsafe) private let placeholderProxy = OpaquePointer(UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16))

/// The common base of every generated interface class.
///
/// Lifetime rules:
/// - An object is *alive* until a destructor request is sent, a destructor event has been handled,
///   or the Swift object is deinitialized. Requests on a dead object are ignored, and requests that
///   pass a dead object as an argument are ignored too.
/// - `deinit` of a live object sends the interface's destructor request when it has exactly one,
///   without arguments, and this object's version allows it; otherwise the proxy is destroyed
///   locally.
/// - An object created by a request keeps the object it was created from, and the objects passed
///   with that request, alive until it dies (so an `XdgToplevel` is always destroyed before its
///   `XdgSurface`, and that before its `WlSurface`). Every object keeps its `Connection` open.
open class WaylandObject: CustomStringConvertible {
    /// The wrapped `struct wl_proxy *`. Only meaningful while `isAlive`.
    public let proxy: OpaquePointer
    /// The version of this object (unversioned proxies, such as the display's, report 1).
    public let version: UInt32
    /// False once the object was destroyed by a destructor request or event.
    public private(set) var isAlive: Bool

    /// The display connection this object belongs to; keeps it open while the object exists.
    package var _connection: AnyObject?
    /// Objects this one was created from, released when it dies.
    package var _retained: [WaylandObject] = []

    /// False for borrowed proxies: someone else (a C library) destroys them.
    private let ownsProxy: Bool

    package init(_proxy proxy: OpaquePointer, dispatch: Bool, owned: Bool = true) {
        self.proxy = proxy
        self.version = max(wl_proxy_get_version(proxy), 1)
        self.isAlive = true
        self.ownsProxy = owned
        guard dispatch else { return }
        let existing = wl_proxy_get_listener(proxy)
        if existing == UnsafeRawPointer(dispatcherSentinel) {
            preconditionFailure("\(Self._interfaceName)@\(wl_proxy_get_id(proxy)) is already wrapped by a Swift object")
        }
        precondition(existing == nil,
                     "\(Self._interfaceName)@\(wl_proxy_get_id(proxy)) already has a C listener; it cannot be adopted")
        let result = wl_proxy_add_dispatcher(proxy, waylandDispatcher, dispatcherSentinel,
                                             Unmanaged.passUnretained(self).toOpaque())
        precondition(result == 0, "wl_proxy_add_dispatcher failed for \(Self._interfaceName)")
    }

    /// A dead object standing in for one that could not be created (the request was ignored).
    public required init(_placeholderVersion version: UInt32) {
        self.proxy = placeholderProxy
        self.version = max(version, 1)
        self.isAlive = false
        self.ownsProxy = false
    }

    deinit {
        guard isAlive, ownsProxy, Self._ownsProxy else { return }
        if let destructor = Self._destructor, version >= destructor.since {
            var unused = wl_argument()
            wl_proxy_marshal_array_flags(proxy, destructor.opcode, nil, version,
                                         UInt32(WL_MARSHAL_FLAG_DESTROY), &unused)
        } else {
            wl_proxy_destroy(proxy)
        }
    }

    // MARK: Overridden by generated classes

    open class var _interfaceName: String { "wl_object" }
    /// The destructor request `deinit` sends: the interface's only destructor, if it takes no arguments.
    open class var _destructor: (opcode: UInt32, since: UInt32)? { nil }
    /// False for `WlDisplay`, which the `Connection` owns.
    open class var _ownsProxy: Bool { true }
    /// Decodes and delivers one event.
    open func _dispatch(_ opcode: UInt32, _ arguments: UnsafeMutablePointer<wl_argument>) {}

    // MARK: Description

    public var description: String {
        isAlive ? "\(Self._interfaceName)@\(wl_proxy_get_id(proxy))" : "\(Self._interfaceName)@dead"
    }

    // MARK: Used by generated code

    private func checkVersion(_ since: UInt32, _ request: StaticString) {
        if version < since {
            preconditionFailure("\(request) needs version \(since), but this \(Self._interfaceName) has version \(version)")
        }
    }

    private func markDead() {
        isAlive = false
        _retained.removeAll()
    }

    /// Sends a request that creates nothing.
    package func _send(_ opcode: UInt32, since: UInt32, request: StaticString, _ arguments: inout _Arguments,
               destructor: Bool = false) {
        guard isAlive, arguments.isValid else { return }
        checkVersion(since, request)
        let flags = destructor ? UInt32(WL_MARSHAL_FLAG_DESTROY) : 0
        arguments.withPointer { pointer in
            _ = wl_proxy_marshal_array_flags(proxy, opcode, nil, version, flags, pointer)
        }
        if destructor { markDead() }
    }

    /// Sends a request with a typed new_id and wraps the new proxy (same version as this object).
    package func _create<T: WaylandObject & WaylandProxy>(_ type: T.Type, _ opcode: UInt32, since: UInt32,
                                                  request: StaticString, _ arguments: inout _Arguments) -> T {
        guard isAlive, arguments.isValid else { return T(_placeholderVersion: version) }
        checkVersion(since, request)
        let created = arguments.withPointer { pointer in
            wl_proxy_marshal_array_flags(proxy, opcode, T.interface, version, 0, pointer)
        }
        guard let created else { return T(_placeholderVersion: version) }
        let object = T(adopting: created)
        adoptChild(object, arguments: arguments)
        return object
    }

    /// Sends a request with an untyped new_id (`wl_registry.bind`): `arguments` already hold the
    /// interface name, the version and the new id.
    package func _bind<T: WaylandProxy>(_ type: T.Type, _ opcode: UInt32, since: UInt32, request: StaticString,
                                _ arguments: inout _Arguments, version newVersion: UInt32) -> T {
        guard isAlive, arguments.isValid else { return Self.placeholder(T.self, version: newVersion) }
        checkVersion(since, request)
        precondition(newVersion >= 1, "\(request) of \(T.interfaceName) needs a version of at least 1")
        let created = arguments.withPointer { pointer in
            wl_proxy_marshal_array_flags(proxy, opcode, T.interface, newVersion, 0, pointer)
        }
        guard let created else { return Self.placeholder(T.self, version: newVersion) }
        let object = T(adopting: created)
        if let child = object as? WaylandObject { adoptChild(child, arguments: arguments) }
        return object
    }

    private func adoptChild(_ child: WaylandObject, arguments: borrowing _Arguments) {
        child._connection = _connection
        child._retained = [self] + arguments.objects
    }

    private static func placeholder<T: WaylandProxy>(_ type: T.Type, version: UInt32) -> T {
        guard let objectType = T.self as? WaylandObject.Type,
              let object = objectType.init(_placeholderVersion: version) as? T
        else {
            preconditionFailure("\(T.self) is not a generated Wayland class; cannot create it on a dead object")
        }
        return object
    }

    /// Wraps a proxy the server created with a new_id event argument.
    package func _eventObject<T: WaylandObject & WaylandProxy>(_ pointer: OpaquePointer?, _ type: T.Type) -> T {
        guard let pointer else { return T(_placeholderVersion: version) }
        let object = T(adopting: pointer)
        object._connection = _connection
        object._retained = [self]
        return object
    }

    /// Called after the handler of a destructor event ran.
    package func _destroyAfterDestructorEvent() {
        guard isAlive else { return }
        wl_proxy_destroy(proxy)
        markDead()
    }
}

/// The one C dispatcher of every proxy this module wraps. The object is held strongly while its
/// handler runs, so the handler may drop the last other reference.
private func waylandDispatcher(_ implementation: UnsafeRawPointer?, _ target: UnsafeMutableRawPointer?,
                               _ opcode: UInt32, _ message: UnsafePointer<wl_message>?,
                               _ arguments: UnsafeMutablePointer<wl_argument>?) -> Int32 {
    guard let target, implementation == UnsafeRawPointer(dispatcherSentinel),
          let data = wl_proxy_get_user_data(OpaquePointer(target))
    else { return 0 }
    let object = Unmanaged<WaylandObject>.fromOpaque(data).takeUnretainedValue()
    guard object.isAlive else { return 0 }
    if let arguments {
        object._dispatch(opcode, arguments)
    } else {
        var empty = wl_argument()
        object._dispatch(opcode, &empty)
    }
    withExtendedLifetime(object) {}
    return 0
}

// MARK: - Event argument decoding

/// The Swift object of an object argument, if the proxy is one of ours and of the expected class.
package func _resolveObject<T: WaylandObject>(_ pointer: OpaquePointer?, _ type: T.Type) -> T? {
    guard let pointer, wl_proxy_get_listener(pointer) == UnsafeRawPointer(dispatcherSentinel),
          let data = wl_proxy_get_user_data(pointer)
    else { return nil }
    let object = Unmanaged<WaylandObject>.fromOpaque(data).takeUnretainedValue()
    return object.isAlive ? object as? T : nil
}

package func _eventString(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

package func _eventOptionalString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

package func _eventArray(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt8] {
    guard let array, let data = array.pointee.data, array.pointee.size > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: array.pointee.size))
}

/// Closes an fd received in an event nobody handles, so it does not leak.
package func _closeEventFD(_ fd: Int32) {
    if fd >= 0 { close(fd) }
}

/// Destroys a proxy the server created in an event this object ignores (newer than its version).
package func _destroyEventProxy(_ pointer: OpaquePointer?) {
    if let pointer { wl_proxy_destroy(pointer) }
}

package func _fixedToDouble(_ value: Int32) -> Double { Double(value) / 256 }

package func _doubleToFixed(_ value: Double) -> Int32 {
    guard !value.isNaN else { return 0 }
    let scaled = (value * 256).rounded()
    if scaled >= Double(Int32.max) { return .max }
    if scaled <= Double(Int32.min) { return .min }
    return Int32(scaled)
}

// MARK: - Request arguments

/// The arguments of one request, in wire order. Owns the C strings and arrays until the call is made.
package struct _Arguments: ~Copyable {
    private(set) var values: [wl_argument] = []
    private var allocations: [UnsafeMutableRawPointer] = []
    /// Object arguments, kept alive by an object the request creates.
    private(set) var objects: [WaylandObject] = []
    /// False if a dead object was passed: the request is then not sent.
    private(set) var isValid = true

    package init(capacity: Int) {
        values.reserveCapacity(capacity)
    }

    deinit {
        for allocation in allocations { free(allocation) }
    }

    package mutating func int(_ value: Int32) { values.append(wl_argument(i: value)) }
    package mutating func uint(_ value: UInt32) { values.append(wl_argument(u: value)) }
    package mutating func fixed(_ value: Double) { values.append(wl_argument(f: _doubleToFixed(value))) }
    package mutating func fd(_ value: Int32) { values.append(wl_argument(h: value)) }
    package mutating func newID() { values.append(wl_argument(n: 0)) }

    package mutating func string(_ value: String?) {
        guard let value, let copy = strdup(value) else {
            values.append(wl_argument(s: nil))
            return
        }
        allocations.append(UnsafeMutableRawPointer(copy))
        values.append(wl_argument(s: UnsafePointer(copy)))
    }

    package mutating func object(_ value: WaylandObject?) {
        guard let value else {
            values.append(wl_argument(o: nil))
            return
        }
        if !value.isAlive { isValid = false }
        objects.append(value)
        values.append(wl_argument(o: value.proxy))
    }

    package mutating func array(_ bytes: [UInt8]) {
        let data = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { data.copyMemory(from: base, byteCount: buffer.count) }
        }
        let header = malloc(MemoryLayout<wl_array>.stride)!
        let array = header.bindMemory(to: wl_array.self, capacity: 1)
        array.initialize(to: wl_array(size: bytes.count, alloc: bytes.count, data: data))
        allocations.append(data)
        allocations.append(header)
        values.append(wl_argument(a: array))
    }

    /// The expansion of an untyped new_id: interface name, version, id ("sun").
    package mutating func untypedNewID<T: WaylandProxy>(_ type: T.Type, version: UInt32) {
        string(T.interfaceName)
        uint(version)
        newID()
    }

    /// libwayland writes the new proxy into the new_id slot, so the storage must be ours and mutable.
    package mutating func withPointer<R>(_ body: (UnsafeMutablePointer<wl_argument>) -> R) -> R {
        if values.isEmpty {
            var unused = wl_argument()
            return body(&unused)
        }
        return values.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
