// The desktop's settings in the GNOME session, changed while apps run as GNOME's Settings app
// changes them. The session keeps them in a GSettings keyfile in its private HOME; gnome-shell and
// the portal's GTK backend (started by the session's bus with the bus's environment) read that
// file and follow its changes, so `gsettings` must write there too: a client's own environment
// has no keyfile backend, and there its `gsettings` would write to a dconf nobody reads.
import Foundation

extension GnomeSession {
    /// `gsettings set schema key value` on the session's settings; `value` in GVariant text
    /// ("'prefer-dark'").
    public func setSetting(_ schema: String, _ key: String, _ value: String) throws {
        guard let gsettings = WestonSession.which("gsettings") else {
            throw HarnessError("gsettings is not installed (scripts/setup installs libglib2.0-bin)")
        }
        try SwaySession.run(gsettings, ["set", schema, key, value], environment: baseEnvironment, timeout: 10)
        changedSettings.insert([schema, key])
    }

    /// Puts back every key a test changed, to its default.
    func resetSettings() throws {
        guard let gsettings = WestonSession.which("gsettings") else { return }
        for setting in changedSettings {
            try SwaySession.run(gsettings, ["reset"] + setting, environment: baseEnvironment, timeout: 10)
        }
        changedSettings.removeAll()
    }
}
