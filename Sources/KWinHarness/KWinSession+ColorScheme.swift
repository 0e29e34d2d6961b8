// Plasma's colour scheme in the KWin session, switched while apps run as System Settings switches
// it: the scheme's colours go into the session's kdeglobals, and running apps are told through
// KGlobalSettings' notifyChange (a palette change), which Plasma's platform theme in the portal's
// KDE backend follows and the portal passes on as the appearance's color-scheme.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CompositorHarness

extension KWinSession {
    /// Breeze Dark's or Breeze's window and view colours (the parts the platform theme's palette
    /// and the portal's light-or-dark answer are made from).
    public func setColorScheme(dark: Bool) throws {
        let (window, view, text) = dark ? ("32,35,38", "20,22,24", "252,252,252") : ("239,240,241", "255,255,255", "35,38,39")
        var groups = "[General]\nColorScheme=\(dark ? "BreezeDark" : "BreezeLight")\n"
        for group in ["Window", "View", "Button", "Header"] {
            groups += "\n[Colors:\(group)]\nBackgroundNormal=\(group == "View" ? view : window)\n"
                + "BackgroundAlternate=\(window)\nForegroundNormal=\(text)\n"
        }
        try groups.write(toFile: home + "/.config/kdeglobals", atomically: true, encoding: .utf8)
        let send = Process()
        send.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        send.arguments = ["--session", "--type=signal", "/KGlobalSettings", "org.kde.KGlobalSettings.notifyChange",
                          "int32:0", "int32:0"]
        send.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtimeDirectory)/bus"]
        try send.run()
        send.waitUntilExit()
        guard send.terminationStatus == 0 else { throw HarnessError("dbus-send failed (\(send.terminationStatus))") }
    }
}
