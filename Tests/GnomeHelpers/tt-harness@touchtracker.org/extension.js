/* TouchTracker's end-to-end tests run this extension in a private, headless gnome-shell.
 *
 * GNOME Shell 43 answers org.gnome.Shell.Eval, and org.gnome.Shell.Screenshot from callers
 * other than its allow-listed portals, only in "unsafe mode", which 43 has no command-line flag
 * for. The tests need Eval to find their windows (mutter has no tool like swaymsg), so this
 * extension turns unsafe mode on while it is enabled. Never install it in a real session. */

class Extension {
    enable() {
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = false;
    }
}

function init() {
    return new Extension();
}
