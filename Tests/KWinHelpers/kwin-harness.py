#!/usr/bin/python3
"""Screenshots and window geometry from a headless KWin 5.27, for TouchTracker's end-to-end tests.

KWin hands screenshots out as raw pixels written into a pipe whose write end travels with the
D-Bus call, and reports windows only to its own scripts: both are easy with Python's Gio (Debian's
python3-gi), hard without a D-Bus library. This helper serves one client on a UNIX socket with the
line protocol of our Weston plugin (meson-helpers/README.md): one command per line, one reply per
command, `ok [data]` or `error message`. Touch input does not go through here: the tests inject it
with org_kde_kwin_fake_input on our own generated Swift bindings (Sources/KWinHarness).

Commands:
  screenshot PATH   the active screen at native resolution (ScreenShot2.CaptureActiveScreen), its
                    raw pixels (ARGB32, little-endian BGRA rows) written to PATH; replies
                    `WIDTH HEIGHT STRIDE SCALE`
  windows           every window KWin manages (toplevels, not popups) as JSON (a KWin script reports them back
                    to this helper over D-Bus)
  has-name NAME     whether NAME has an owner on the bus: ok true|false
  quit              exit

Usage: kwin-harness.py SOCKET    (DBUS_SESSION_BUS_ADDRESS names KWin's bus)
"""
import json
import os
import socket
import sys
import tempfile
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

TIMEOUT_MS = 15000  # below ControlClient's 20 s, so the reply says which call hung
NAME = "org.touchtracker.KWinHarness"
REPORTER = """<node><interface name="org.touchtracker.KWinHarness">
  <method name="Windows"><arg type="s" name="token" direction="in"/><arg type="s" name="json" direction="in"/></method>
</interface></node>"""

# Run inside KWin: list the windows and call back. KWin 5.27 lists managed windows only (no popups).
SCRIPT = """
const list = workspace.clientList().map(w => ({
  app_id: String(w.resourceClass || ''), title: String(w.caption || ''),
  x: w.bufferGeometry.x, y: w.bufferGeometry.y, width: w.bufferGeometry.width, height: w.bufferGeometry.height,
  frame: {x: w.frameGeometry.x, y: w.frameGeometry.y, width: w.frameGeometry.width, height: w.frameGeometry.height},
  popup: !!(w.popupWindow || w.popupMenu || w.dropdownMenu || w.tooltip), pid: w.pid || 0,
  normal: !!w.normalWindow, fullscreen: !!w.fullScreen, active: w === workspace.activeClient }));
callDBus("%s", "/", "%s", "Windows", "%%s", JSON.stringify(list));
""" % (NAME, NAME)


class HarnessError(Exception):
    pass


class KWin:
    def __init__(self):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.reports = {}
        self.count = 0
        info = Gio.DBusNodeInfo.new_for_xml(REPORTER)
        self.bus.register_object("/", info.interfaces[0], self.on_call, None, None)
        Gio.bus_own_name_on_connection(self.bus, NAME, Gio.BusNameOwnerFlags.NONE, None, None)
        # The scripts go in the session's own folder, which the session removes.
        self.folder = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir(), "kwin-scripts")
        os.makedirs(self.folder, exist_ok=True)

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        token, text = parameters.unpack()
        self.reports[token] = text
        invocation.return_value(None)

    def call(self, name, path, interface, method, signature=None, args=(), reply=None, fds=None):
        parameters = GLib.Variant(signature, args) if signature else None
        reply_type = GLib.VariantType.new(reply) if reply else None
        try:
            if fds is not None:
                result, _ = self.bus.call_with_unix_fd_list_sync(name, path, interface, method, parameters,
                                                                 reply_type, Gio.DBusCallFlags.NONE, TIMEOUT_MS,
                                                                 fds, None)
            else:
                result = self.bus.call_sync(name, path, interface, method, parameters, reply_type,
                                            Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
        except GLib.Error as error:
            raise HarnessError(f"{interface}.{method}: {error.message}") from None
        return result.unpack() if result is not None else ()

    def screenshot(self, path):
        read_end, write_end = os.pipe()
        try:
            fds = Gio.UnixFDList.new()
            index = fds.append(write_end)
        finally:
            os.close(write_end)
        try:
            (info,) = self.call("org.kde.KWin", "/org/kde/KWin/ScreenShot2", "org.kde.KWin.ScreenShot2",
                                "CaptureActiveScreen", "(a{sv}h)",
                                ({"native-resolution": GLib.Variant("b", True)}, index), reply="(a{sv})", fds=fds)
            if info.get("type") != "raw" or info.get("format") != 5:
                raise HarnessError(f"unexpected screenshot format {info}")
            size = info["stride"] * info["height"]
            data = bytearray()
            # Exactly stride*height bytes: the call's fd list keeps a copy of the write end, so
            # the pipe never reaches end-of-file while this process lives.
            while len(data) < size:
                chunk = os.read(read_end, size - len(data))
                if not chunk:
                    raise HarnessError(f"screenshot pipe closed after {len(data)} of {size} bytes")
                data += chunk
        finally:
            os.close(read_end)
        with open(path, "wb") as file:
            file.write(data)
        return f"{info['width']} {info['height']} {info['stride']} {info.get('scale', 1.0)}"

    def windows(self):
        self.count += 1
        token = f"tt{os.getpid()}n{self.count}"
        plugin = "tt-windows-" + token
        path = os.path.join(self.folder, plugin + ".js")
        with open(path, "w", encoding="utf-8") as file:
            file.write(SCRIPT.replace('"%s", JSON', f'"{token}", JSON'))
        scripting = ("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting")
        (script,) = self.call(*scripting, "loadScript", "(ss)", (path, plugin), reply="(i)")
        if script < 0:
            raise HarnessError(f"KWin did not load the script {path}")
        try:
            # Runs every script loaded and not yet running: ours.
            self.call(*scripting, "start")
            context = GLib.MainContext.default()
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while token not in self.reports:
                if time.monotonic() > deadline:
                    raise HarnessError(f"the window script never reported back in {TIMEOUT_MS} ms")
                if not context.iteration(False):
                    time.sleep(0.005)
        finally:
            self.call(*scripting, "unloadScript", "(s)", (plugin,), reply="(b)")
            os.unlink(path)
        return self.reports.pop(token)

    def has_name(self, name):
        (owned,) = self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                             "NameHasOwner", "(s)", (name,), reply="(b)")
        return "true" if owned else "false"

    def handle(self, line):
        command, _, rest = line.partition(" ")
        if command == "ping":
            return ""
        if command == "screenshot":
            return self.screenshot(rest)
        if command == "windows":
            return self.windows()
        if command == "has-name":
            return self.has_name(rest)
        raise HarnessError(f"unknown command {command}")


def serve(path):
    kwin = KWin()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(path):
        os.unlink(path)
    server.bind(path)
    server.listen(1)
    connection, _ = server.accept()
    reader = connection.makefile("r", encoding="utf-8")
    try:
        for line in reader:
            line = line.rstrip("\n")
            if line == "quit":
                connection.sendall(b"ok\n")
                return
            try:
                data = kwin.handle(line)
                reply = "ok " + data if data else "ok"
            except (HarnessError, ValueError, IndexError, OSError) as error:
                reply = "error " + str(error).replace("\n", " ")
            connection.sendall((reply + "\n").encode("utf-8"))
    finally:
        os.unlink(path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    serve(sys.argv[1])
