// A private accessibility bus for the end-to-end tests, as a desktop session has one: a D-Bus
// session bus of its own, at-spi2-core's bus launcher on it, the accessibility bus it starts and
// the registry, and a client reading the app's tree there through libatspi (the library Orca
// uses), from Debian's python3-gi and gir1.2-atspi-2.0. Nothing is skipped: a missing piece fails.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation

final class AccessibilityBusUnderTest {
    static let programs = ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/libexec/at-spi-bus-launcher",
                           "/usr/libexec/at-spi2-registryd", "/usr/bin/python3"]

    let folder: String
    let sessionAddress: String
    private var processes: [ChildProcess] = []
    let clientPath: String

    /// The environment that puts a program on this session bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": sessionAddress] }

    /// `accessibility` false leaves the session bus without one (no bus launcher), as on a
    /// desktop without at-spi2-core.
    init(accessibility: Bool = true) throws {
        for program in Self.programs where access(program, X_OK) != 0 {
            throw HarnessError("\(program) is missing: scripts/setup installs at-spi2-core, dbus and python3-gi")
        }
        folder = try HarnessPaths.privateFolder("a11y")
        clientPath = folder + "/atspi-client.py"
        try Self.client.write(toFile: clientPath, atomically: true, encoding: .utf8)
        // A session bus that starts nothing by itself (no portal, no other services).
        let config = folder + "/session.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(folder)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        var base = HarnessPaths.environmentInEnglish
        base["XDG_RUNTIME_DIR"] = folder
        let daemon = try ChildProcess.client("/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--print-address=1"],
                                             name: "dbus-daemon", number: 1, environment: base, directory: folder)
        processes.append(daemon)
        var address = ""
        let deadline = Date().addingTimeInterval(10)
        while address.isEmpty, Date() < deadline {
            address = daemon.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            if address.isEmpty { usleep(20_000) }
        }
        guard !address.isEmpty else {
            daemon.stop()
            throw HarnessError("dbus-daemon gave no address: \(daemon.standardError)")
        }
        sessionAddress = address
        base["DBUS_SESSION_BUS_ADDRESS"] = address
        guard accessibility else { return }
        processes.append(try ChildProcess.client("/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], name: "at-spi-bus-launcher",
                                                 number: 2, environment: base, directory: folder))
        // Ready once org.a11y.Bus names the accessibility bus.
        while Date() < deadline {
            let ask = try runCommand(["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                                      "org.a11y.Bus.GetAddress"], environment: environment)
            if ask.status == 0, ask.output.contains("unix:") { return }
            usleep(50_000)
        }
        stop()
        throw HarnessError("at-spi-bus-launcher did not start the accessibility bus")
    }

    /// A client of a session bus a desktop session runs already (GNOME's, KWin's), whose
    /// accessibility bus the session's own at-spi2-core starts on demand.
    init(existingSessionBus address: String) throws {
        for program in ["/usr/bin/python3", "/usr/libexec/at-spi-bus-launcher"] where access(program, X_OK) != 0 {
            throw HarnessError("\(program) is missing: scripts/setup installs at-spi2-core and python3-gi")
        }
        folder = try HarnessPaths.privateFolder("a11y")
        clientPath = folder + "/atspi-client.py"
        try Self.client.write(toFile: clientPath, atomically: true, encoding: .utf8)
        sessionAddress = address
    }

    deinit { stop() }

    func stop() {
        for process in processes.reversed() { process.stop() }
        processes.removeAll()
    }

    /// Runs the client: `tree` (the app's tree as JSON) or `do PATH ACTION` (names from the
    /// application down, separated by "/").
    func client(_ arguments: [String]) throws -> Any {
        let run = try runCommand(["/usr/bin/python3", "-W", "ignore", clientPath] + arguments, environment: environment)
        guard run.status == 0, let line = run.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
            throw HarnessError("the accessibility client failed (\(run.status)): \(run.output)")
        }
        return json
    }

    /// The client following events for `seconds` in the background; its output is one JSON
    /// object a line, starting with `{"type": "ready"}` once it has read the tree.
    func watch(_ appName: String, seconds: Double) throws -> ChildProcess {
        let child = try ChildProcess.client("/usr/bin/python3", ["-W", "ignore", clientPath, "watch", appName, String(seconds)],
                                            name: "atspi-watch", number: processes.count + 1,
                                            environment: HarnessPaths.environmentInEnglish.merging(environment) { $1 }, directory: folder)
        processes.append(child)
        let deadline = Date().addingTimeInterval(15)
        while !child.standardOutput.contains("\"ready\""), Date() < deadline, child.isRunning { usleep(20_000) }
        guard child.standardOutput.contains("\"ready\"") else { throw HarnessError("the event client did not start: \(child.standardError)") }
        return child
    }

    /// The client, in Python: libatspi through GObject introspection.
    static let client = #"""
import gi, json, sys, time
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, GLib

def find_app(name, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        desktop = Atspi.get_desktop(0)
        desktop.clear_cache()
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_name() == name:
                app.set_cache_mask(Atspi.Cache.NONE)
                return app
        time.sleep(0.1)
    sys.exit("no application named %s on the accessibility bus" % name)

def node(acc, depth):
    if acc is None:
        return {"name": None, "role": "null", "states": [], "description": ""}
    states = [s.value_nick for s in acc.get_state_set().get_states()]
    item = {"name": acc.get_name(), "role": acc.get_role_name(), "states": sorted(states),
            "description": acc.get_description()}
    try:
        action = acc.get_action_iface()
        if action is not None:
            item["actions"] = [action.get_action_name(i) for i in range(action.get_n_actions())]
        component = acc.get_component_iface()
        if component is not None:
            r = component.get_extents(Atspi.CoordType.WINDOW)
            item["extents"] = [r.x, r.y, r.width, r.height]
    except Exception as error:
        item["error"] = str(error)
    if depth > 0:
        item["children"] = [node(acc.get_child_at_index(i), depth - 1) for i in range(acc.get_child_count())]
    return item

def find(acc, names):
    for name in names:
        for i in range(acc.get_child_count()):
            child = acc.get_child_at_index(i)
            if child.get_name() == name:
                acc = child
                break
        else:
            sys.exit("no %s under %s" % (name, acc.get_name()))
    return acc

command, name = sys.argv[1], sys.argv[2]
app = find_app(name, 15)
if command == "tree":
    print(json.dumps(node(app, 8)))
elif command == "do":
    target = find(app, sys.argv[3].split("/"))
    action = target.get_action_iface()
    names = [action.get_action_name(i) for i in range(action.get_n_actions())]
    print(json.dumps({"done": action.do_action(names.index(sys.argv[4]))}))
elif command == "watch":
    def on_event(event):
        print(json.dumps({"type": event.type, "source": event.source.get_name() if event.source else None,
                          "detail1": event.detail1,
                          "data": event.any_data.get_name() if isinstance(event.any_data, Atspi.Accessible) else str(event.any_data)}), flush=True)
    listener = Atspi.EventListener.new(on_event)
    for kind in ["object:children-changed", "object:state-changed", "object:property-change:accessible-name", "object:announcement"]:
        listener.register(kind)
    # Reading the tree once makes the app follow what was read.
    node(app, 8)
    print(json.dumps({"type": "ready"}), flush=True)
    GLib.timeout_add(int(float(sys.argv[3]) * 1000), lambda: Atspi.event_quit())
    Atspi.event_main()
"""#
}
