#!/usr/bin/python3
"""Input and screenshots for a headless GNOME Shell 43, for TouchTracker's end-to-end tests.

Mutter's remote-desktop sessions belong to the D-Bus connection that created them (a session ends
when its creator disconnects, and only the creator may send input), so one long-lived process has
to hold them: this one. It serves one client on a UNIX socket with the same line protocol as our
Weston plugin (meson-helpers/README.md): one command per line, one reply per command, `ok [data]`
or `error message`.

Commands (coordinates are global, in logical pixels; the monitor is Meta-0 at 0,0):
  start                       create the remote-desktop and screen-cast sessions, wait for the stream
  touch down|motion SLOT X Y  touch up SLOT
  pointer motion X Y          pointer button CODE down|up     (CODE: evdev, 272 = left)
  key CODE down|up            (evdev key code)                keysym SYM down|up
  screenshot PATH             the whole stage as PNG (org.gnome.Shell.Screenshot)
  eval JAVASCRIPT             org.gnome.Shell.Eval; replies with the JSON result (needs unsafe mode)
  has-name NAME               whether NAME has an owner on the bus: ok true|false
  release                     lift every touch, button and key this helper holds down
  stop                        end the sessions (after releasing what is held)
  quit                        stop and exit

Usage: gnome-harness.py SOCKET [MONITOR]    (DBUS_SESSION_BUS_ADDRESS names GNOME's bus)
"""
import os
import socket
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
SCREEN_CAST = "org.gnome.Mutter.ScreenCast"
TIMEOUT_MS = 15000  # below ControlClient's 20 s, so the reply says which call hung


class HarnessError(Exception):
    pass


class Gnome:
    def __init__(self, monitor):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.monitor = monitor
        self.remote_desktop = None  # session object path
        self.stream = None  # stream object path
        self.touches = set()
        self.buttons = set()
        self.keys = set()

    def call(self, name, path, interface, method, signature=None, args=(), reply=None):
        parameters = GLib.Variant(signature, args) if signature else None
        reply_type = GLib.VariantType.new(reply) if reply else None
        try:
            result = self.bus.call_sync(name, path, interface, method, parameters, reply_type,
                                        Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
        except GLib.Error as error:
            raise HarnessError(f"{interface}.{method}: {error.message}") from None
        return result.unpack() if result is not None else ()

    def session(self, method, signature=None, args=()):
        if self.remote_desktop is None:
            raise HarnessError("no remote-desktop session: send start first")
        return self.call(REMOTE_DESKTOP, self.remote_desktop, REMOTE_DESKTOP + ".Session", method,
                         signature, args)

    # Sessions

    def start(self):
        if self.remote_desktop is not None:
            return ""
        (path,) = self.call(REMOTE_DESKTOP, "/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP,
                            "CreateSession", reply="(o)")
        self.remote_desktop = path
        session_id = self.call(REMOTE_DESKTOP, path, "org.freedesktop.DBus.Properties", "Get", "(ss)",
                               (REMOTE_DESKTOP + ".Session", "SessionId"))[0]
        (cast,) = self.call(SCREEN_CAST, "/org/gnome/Mutter/ScreenCast", SCREEN_CAST, "CreateSession",
                            "(a{sv})", ({"remote-desktop-session-id": GLib.Variant("s", session_id)},),
                            reply="(o)")
        # cursor-mode 0: the cursor is not drawn into the stream (nobody reads it anyway).
        (stream,) = self.call(SCREEN_CAST, cast, SCREEN_CAST + ".Session", "RecordMonitor", "(sa{sv})",
                              (self.monitor, {"cursor-mode": GLib.Variant("u", 0)}), reply="(o)")
        added = []
        subscription = self.bus.signal_subscribe(
            None, SCREEN_CAST + ".Stream", "PipeWireStreamAdded", stream, None,
            Gio.DBusSignalFlags.NONE, lambda *args: added.append(args[5].unpack()[0]))
        try:
            self.session("Start")
            context = GLib.MainContext.default()
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while not added:
                if time.monotonic() > deadline:
                    raise HarnessError(f"no PipeWireStreamAdded for {stream} in {TIMEOUT_MS} ms")
                if not context.iteration(False):
                    time.sleep(0.01)
        finally:
            self.bus.signal_unsubscribe(subscription)
        self.stream = stream
        return f"{added[0]}"

    def release_all(self):
        for slot in sorted(self.touches):
            self.session("NotifyTouchUp", "(u)", (slot,))
        for button in sorted(self.buttons):
            self.session("NotifyPointerButton", "(ib)", (button, False))
        for key in sorted(self.keys):
            self.session("NotifyKeyboardKeycode", "(ub)", (key, False))
        self.touches.clear()
        self.buttons.clear()
        self.keys.clear()

    def stop(self):
        if self.remote_desktop is None:
            return ""
        try:
            self.release_all()
            self.session("Stop")
        finally:
            self.remote_desktop = None
            self.stream = None
        return ""

    # Input

    def touch(self, words):
        action, slot = words[0], int(words[1])
        if action == "up":
            self.session("NotifyTouchUp", "(u)", (slot,))
            self.touches.discard(slot)
            return ""
        x, y = float(words[2]), float(words[3])
        if action == "down":
            self.session("NotifyTouchDown", "(sudd)", (self.stream, slot, x, y))
            self.touches.add(slot)
        elif action == "motion":
            self.session("NotifyTouchMotion", "(sudd)", (self.stream, slot, x, y))
        else:
            raise HarnessError(f"unknown touch action {action}")
        return ""

    def pointer(self, words):
        if words[0] == "motion":
            self.session("NotifyPointerMotionAbsolute", "(sdd)", (self.stream, float(words[1]), float(words[2])))
        elif words[0] == "button":
            button, down = int(words[1]), words[2] == "down"
            self.session("NotifyPointerButton", "(ib)", (button, down))
            (self.buttons.add if down else self.buttons.discard)(button)
        else:
            raise HarnessError(f"unknown pointer action {words[0]}")
        return ""

    def key(self, words):
        code, down = int(words[0]), words[1] == "down"
        self.session("NotifyKeyboardKeycode", "(ub)", (code, down))
        (self.keys.add if down else self.keys.discard)(code)
        return ""

    def keysym(self, words):
        self.session("NotifyKeyboardKeysym", "(ub)", (int(words[0], 0), words[1] == "down"))
        return ""

    # Shell

    def screenshot(self, path):
        success, used = self.call("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                  "org.gnome.Shell.Screenshot", "Screenshot", "(bbs)", (False, False, path),
                                  reply="(bs)")
        if not success:
            raise HarnessError(f"gnome-shell took no screenshot to {path}")
        return used

    def eval(self, code):
        success, result = self.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", "(s)",
                                    (code,), reply="(bs)")
        if not success:
            raise HarnessError(f"eval failed (is unsafe mode on?): {result}")
        return result

    def has_name(self, name):
        (owned,) = self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                             "NameHasOwner", "(s)", (name,), reply="(b)")
        return "true" if owned else "false"

    def handle(self, line):
        command, _, rest = line.partition(" ")
        words = rest.split()
        if command == "ping":
            return ""
        if command == "start":
            return self.start()
        if command == "touch":
            return self.touch(words)
        if command == "pointer":
            return self.pointer(words)
        if command == "key":
            return self.key(words)
        if command == "keysym":
            return self.keysym(words)
        if command == "screenshot":
            return self.screenshot(rest)
        if command == "eval":
            return self.eval(rest)
        if command == "has-name":
            return self.has_name(rest)
        if command == "release":
            return self.release_all()
        if command == "stop":
            return self.stop()
        raise HarnessError(f"unknown command {command}")


def serve(path, monitor):
    gnome = Gnome(monitor)
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
                try:
                    gnome.stop()
                finally:
                    connection.sendall(b"ok\n")
                return
            try:
                data = gnome.handle(line)
                reply = "ok " + data if data else "ok"
            except (HarnessError, ValueError, IndexError) as error:
                reply = "error " + str(error).replace("\n", " ")
            connection.sendall((reply + "\n").encode("utf-8"))
    finally:
        # The client went away (or asked to quit): never leave touches down or a session open.
        try:
            gnome.stop()
        except HarnessError as error:
            print(f"gnome-harness: {error}", file=sys.stderr)
        os.unlink(path)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    serve(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "Meta-0")
