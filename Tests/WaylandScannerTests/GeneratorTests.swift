import Foundation
import Testing
@testable import WaylandScannerCore

@Suite("Naming")
struct NamingTests {
    @Test("interfaces become UpperCamelCase classes")
    func classNames() {
        #expect(Naming.className("wl_surface") == "WlSurface")
        #expect(Naming.className("xdg_toplevel") == "XdgToplevel")
        #expect(Naming.className("zwp_tablet_tool_v2") == "ZwpTabletToolV2")
        #expect(Naming.className("wp_presentation") == "WpPresentation")
    }

    @Test("messages and arguments become lowerCamelCase")
    func memberNames() {
        #expect(Naming.lowerCamel("set_title") == "setTitle")
        #expect(Naming.lowerCamel("damage_buffer") == "damageBuffer")
        #expect(Naming.lowerCamel("set_app_id") == "setAppId")
        #expect(Naming.lowerCamel("callback_data") == "callbackData")
        #expect(Naming.lowerCamel("90") == "_90")
        #expect(Naming.lowerCamel("flipped_90") == "flipped90")
    }

    @Test("keywords are escaped and shadowing enum names get the Code suffix")
    func reserved() {
        #expect(Naming.escaped("default") == "`default`")
        #expect(Naming.escaped("in") == "`in`")
        #expect(Naming.escaped("serial") == "serial")
        #expect(Naming.enumTypeName("error") == "ErrorCode")
        #expect(Naming.enumTypeName("type") == "TypeCode")
        #expect(Naming.enumTypeName("protocol") == "ProtocolCode")
        #expect(Naming.enumTypeName("self") == "SelfCode")
        #expect(Naming.enumTypeName("event") == "EventCode")
        #expect(Naming.enumTypeName("button_state") == "ButtonState")
        #expect(Naming.methodName("version") == "versionRequest")
        #expect(Naming.methodName("set_title") == "setTitle")
    }
}

@Suite("Generated Swift")
struct GeneratorTests {
    let files: [String: String]
    let things: String
    let tables: String

    init() throws {
        files = try Fixtures.generate([("protocols/things.xml", Fixtures.things),
                                       ("protocols/extra.xml", Fixtures.extra)])
        things = files["things-protocol.swift"] ?? ""
        tables = files["wayland-interfaces.swift"] ?? ""
    }

    @Test("one file per protocol plus the shared table file")
    func fileNames() {
        #expect(Set(files.keys) == ["things-protocol.swift", "extra-protocol.swift", "wayland-interfaces.swift"])
        #expect(SwiftGenerator.outputFileName(forInput: "/a/b/xdg-shell.xml") == "xdg-shell-protocol.swift")
    }

    @Test("classes conform to WaylandProxy and carry name and version")
    func classes() {
        #expect(things.hasLine("public final class TtThing: WaylandObject, WaylandProxy {"))
        #expect(things.hasLine("public static let interfaceName = \"tt_thing\""))
        #expect(things.hasLine("public static let maxVersion: UInt32 = 4"))
        #expect(things.hasLine("public init(adopting proxy: OpaquePointer) {"))
        #expect(things.hasLine("public init(borrowing proxy: OpaquePointer) {"))
        #expect(things.hasLine("public var onEvent: ((Event) -> Void)?"))
    }

    @Test("summaries become one-line doc comments")
    func docs() {
        #expect(things.hasLine("/// a thing with a summary on two lines"))
        #expect(things.hasLine("/// create a thing"))
        #expect(things.hasLine("/// configure the thing"))
        #expect(things.hasLine("/// the thing is bad"))
    }

    @Test("requests: labels, types, nullability, keywords")
    func requests() {
        #expect(things.hasLine("public func setTitle(title: String) {"))
        #expect(things.hasLine("public func setLabel(label: String?) {"))
        #expect(things.hasLine("public func attach(buffer: TtThingManager?, x: Int32, y: Double) {"))
        #expect(things.hasLine("public func `default`(`in`: TtThing.Transform, `repeat`: TtThing.Caps) {"))
        #expect(things.hasLine("_a.int(Int32(bitPattern: `in`.rawValue))"))
        #expect(things.hasLine("_a.uint(`repeat`.rawValue)"))
        #expect(things.hasLine("public func sendFd(fd: Int32, bytes: [UInt8]) {"))
        #expect(things.hasLine("public func versionRequest(`protocol`: TtThing.TypeCode) {"))
    }

    @Test("a typed new_id returns the new object; an untyped one is generic")
    func newIDs() {
        #expect(things.hasLine("public func createThing(parent: TtThing?) -> TtThing {"))
        #expect(things.hasLine("return _create(TtThing.self, 0, since: 1, request: \"tt_thing_manager.create_thing\", &_a)"))
        #expect(things.hasLine("public func bind<T: WaylandProxy>(name: UInt32, as type: T.Type, version: UInt32) -> T {"))
        #expect(things.hasLine("_a.untypedNewID(T.self, version: _version)"))
    }

    @Test("since is passed for the version check; destructors marshal with the destroy flag")
    func versionsAndDestructors() {
        #expect(things.hasLine("_send(1, since: 2, request: \"tt_thing.set_label\", &_a)"))
        #expect(things.hasLine("_send(2, since: 3, request: \"tt_thing.attach\", &_a)"))
        #expect(things.hasLine("_send(6, since: 1, request: \"tt_thing.destroy\", &_a, destructor: true)"))
        // The only destructor without arguments is what deinit sends.
        #expect(things.hasLine("override public class var _destructor: (opcode: UInt32, since: UInt32)? { (6, 1) }"))
        #expect(things.hasLine("override public class var _destructor: (opcode: UInt32, since: UInt32)? { (1, 1) }"))
    }

    @Test("events: labelled cases, optional objects, new objects, fds, version guard, destructor events")
    func events() {
        #expect(things.hasLine("case configure(serial: UInt32, states: [UInt8])"))
        #expect(things.hasLine("case enter(other: TtThing?, surfaceX: Double, keymapFd: Int32)"))
        #expect(things.hasLine("case spawned(child: TtThing, name: String?)"))
        #expect(things.hasLine("case close"))
        #expect(things.hasLine("case done(caps: TtThing.Caps)"))
        #expect(things.hasLine("guard version >= 2 else {"))
        #expect(things.hasLine("_closeEventFD(_a[2].h)"))
        #expect(things.hasLine("let event = Event.enter(other: _resolveObject(_a[0].o, TtThing.self), surfaceX: _fixedToDouble(_a[1].f), keymapFd: _a[2].h)"))
        #expect(things.hasLine("let event = Event.spawned(child: _eventObject(_a[0].o, TtThing.self), name: _eventOptionalString(_a[1].s))"))
        #expect(things.hasLine("_destroyAfterDestructorEvent()"))
        #expect(things.hasLine("break  // unknown opcode: ignored"))
    }

    @Test("enums are RawRepresentable structs, bitfields OptionSets, shadowing names mangled")
    func enums() {
        #expect(things.hasLine("public struct ErrorCode: RawRepresentable, Hashable, Sendable {"))
        #expect(things.hasLine("public struct TypeCode: RawRepresentable, Hashable, Sendable {"))
        #expect(things.hasLine("public static let pen = TypeCode(rawValue: 0x140)"))
        #expect(things.hasLine("public struct Transform: RawRepresentable, Hashable, Sendable {"))
        #expect(things.hasLine("public static let _90 = Transform(rawValue: 1)"))
        #expect(things.hasLine("public static let flipped90 = Transform(rawValue: 5)"))
        #expect(things.hasLine("public struct Caps: OptionSet, Hashable, Sendable {"))
        #expect(things.hasLine("public static let none: Caps = []"))
        #expect(things.hasLine("public static let `default` = Caps(rawValue: 2)"))
        #expect(things.hasLine("public static let pen = Caps(rawValue: 8)"), "a value written 1 << 3, as plasma's protocols write bitfields")
    }

    @Test("signatures carry since prefixes, ? for nullable and sun for an untyped new_id")
    func signatures() {
        #expect(tables.contains("b.message(\"create_thing\", \"n?o\", [1, 1])"))
        #expect(tables.contains("b.message(\"set_label\", \"2?s\", [nil])"))
        #expect(tables.contains("b.message(\"attach\", \"3?oif\", [0, nil, nil])"))
        #expect(tables.contains("b.message(\"send_fd\", \"ha\", [nil, nil])"))
        #expect(tables.contains("b.message(\"destroy\", \"\", [])"))
        #expect(tables.contains("b.message(\"enter\", \"2ofh\", [1, nil, nil])"))
        #expect(tables.contains("b.message(\"done\", \"4u\", [nil])"))
        #expect(tables.contains("b.message(\"bind\", \"usun\", [nil, nil, nil, nil])"))
        #expect(tables.hasLine("b.set(1, \"tt_thing\", version: 4,"))
        #expect(tables.hasLine("static let count = 4"))
    }

    @Test("references across protocols resolve to the other file's classes and table slots")
    func crossProtocol() {
        let extra = files["extra-protocol.swift"] ?? ""
        #expect(extra.hasLine("public final class ZwpTabletToolV2: WaylandObject, WaylandProxy {"))
        #expect(extra.hasLine("public func setThingTransform(thing: TtThing, transform: TtThing.Transform) {"))
        #expect(extra.hasLine("public func getThing() -> TtThing {"))
        #expect(tables.contains("b.message(\"set_thing_transform\", \"oi\", [1, nil])"))
        #expect(tables.hasLine("b.set(3, \"zwp_tablet_tool_v2\", version: 2,"))
    }

    @Test("wl_display never gets the dispatcher and is never destroyed by Swift")
    func display() throws {
        let xml = """
        <protocol name="mini">
          <interface name="wl_display" version="1">
            <request name="sync"><arg name="callback" type="new_id" interface="wl_callback"/></request>
          </interface>
          <interface name="wl_callback" version="1">
            <event name="done" type="destructor"><arg name="callback_data" type="uint"/></event>
          </interface>
        </protocol>
        """
        let code = try Fixtures.generate([("mini.xml", xml)])["mini-protocol.swift"] ?? ""
        #expect(code.hasLine("super.init(_proxy: proxy, dispatch: false)"))
        #expect(code.hasLine("override public class var _ownsProxy: Bool { false }"))
        #expect(code.hasLine("case done(callbackData: UInt32)"))
        #expect(code.hasLine("public func sync() -> WlCallback {"))
    }

    @Test("code for another module imports the runtime; code for the runtime's own module does not")
    func runtimeModule() throws {
        let xml = """
        <protocol name="mini">
          <interface name="tt_thing" version="1">
            <request name="poke"><arg name="x" type="fixed"/></request>
          </interface>
        </protocol>
        """
        let elsewhere = try WaylandScanner.generate([("mini.xml", Data(xml.utf8))], runtimeModule: "Wayland")
        #expect(elsewhere.count == 2)
        for file in elsewhere {
            #expect(file.contents.hasLine("import Wayland"), "\(file.name)")
        }
        // The runtime's hooks a class overrides or implements across modules are public.
        let code = elsewhere[0].contents
        #expect(code.hasLine("public required init(_placeholderVersion version: UInt32) {"))
        #expect(code.hasLine("override public class var _interfaceName: String { interfaceName }"))
        let inside = try WaylandScanner.generate([("mini.xml", Data(xml.utf8))])
        #expect(inside.allSatisfy { !$0.contents.contains("import Wayland") })
    }
}

@Suite("The real protocols")
struct RealProtocolTests {
    @Test("every protocols/*.xml generates without error")
    func generateAll() throws {
        let paths = Fixtures.realProtocolPaths
        #expect(paths.contains { $0.hasSuffix("/wayland.xml") })
        let inputs = try paths.map { ($0, try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let files = try WaylandScanner.generate(inputs)
        #expect(files.count == paths.count + 1)
        let wayland = files.first { $0.name == "wayland-protocol.swift" }?.contents ?? ""
        for line in [
            "public func bind<T: WaylandProxy>(name: UInt32, as type: T.Type, version: UInt32) -> T {",
            "public func createSurface() -> WlSurface {",
            "public func frame() -> WlCallback {",
            "public func attach(buffer: WlBuffer?, x: Int32, y: Int32) {",
            "public func damageBuffer(x: Int32, y: Int32, width: Int32, height: Int32) {",
            "public func createPool(fd: Int32, size: Int32) -> WlShmPool {",
            "public func createBuffer(offset: Int32, width: Int32, height: Int32, stride: Int32, format: WlShm.Format) -> WlBuffer {",
            "case done(callbackData: UInt32)",
            "case global(name: UInt32, interface: String, version: UInt32)",
            "case globalRemove(name: UInt32)",
            "case down(serial: UInt32, time: UInt32, surface: WlSurface?, id: Int32, x: Double, y: Double)",
            "case motion(time: UInt32, id: Int32, x: Double, y: Double)",
            "case up(serial: UInt32, time: UInt32, id: Int32)",
            "case enter(serial: UInt32, surface: WlSurface?, surfaceX: Double, surfaceY: Double)",
            "case button(serial: UInt32, time: UInt32, button: UInt32, state: WlPointer.ButtonState)",
            "case capabilities(capabilities: WlSeat.Capability)",
            "case keymap(format: WlKeyboard.KeymapFormat, fd: Int32, size: UInt32)",
            "case release",
            "public static let argb8888 = Format(rawValue: 0)",
            "public static let _90 = Transform(rawValue: 1)",
            "public struct Capability: OptionSet, Hashable, Sendable {",
            "public func setBufferTransform(transform: WlOutput.Transform) {",
        ] {
            #expect(wayland.hasLine(line), "missing: \(line)")
        }
        if let xdg = files.first(where: { $0.name == "xdg-shell-protocol.swift" })?.contents {
            for line in [
                "public func getXdgSurface(surface: WlSurface) -> XdgSurface {",
                "public func pong(serial: UInt32) {",
                "public func ackConfigure(serial: UInt32) {",
                "public func setTitle(title: String) {",
                "public func setAppId(appId: String) {",
                "public func grab(seat: WlSeat, serial: UInt32) {",
                "case configure(serial: UInt32)",
                "case configure(width: Int32, height: Int32, states: [UInt8])",
                "case ping(serial: UInt32)",
                "case popupDone",
                "public static let maximized = State(rawValue: 1)",
            ] {
                #expect(xdg.hasLine(line), "missing: \(line)")
            }
        }
    }
}
