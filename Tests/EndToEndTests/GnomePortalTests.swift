// Export As (Ctrl+Shift+E) under a real headless GNOME Shell with the real xdg-desktop-portal and
// its GTK backend, started on demand by the session's own D-Bus: the Save dialog appears as a
// window of the session, keys typed into it choose the file, and the app writes it there.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Export As through the desktop portal under GNOME Shell", .serialized, .gnomeSession)
struct GnomePortalTests {
    /// evdev key codes.
    enum Key { static let enter = 28, escape = 1, leftCtrl = 29, leftShift = 42, e = 18, a = 30, backspace = 14 }

    func press(_ session: GnomeSession, _ key: Int, with modifiers: [Int] = []) throws {
        for modifier in modifiers { try session.key(modifier, down: true) }
        try session.key(key, down: true)
        try session.key(key, down: false)
        for modifier in modifiers.reversed() { try session.key(modifier, down: false) }
    }

    /// The portal's Save dialog: a window of another program, titled as the app asked.
    func waitForDialog(_ session: GnomeSession, timeout: Double = 30) throws -> GnomeWindow {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [GnomeWindow] = []
        while Date() < deadline {
            last = try session.windows()
            if let dialog = last.first(where: { $0.title == "Export Drawing" && $0.width > 0 }) { return dialog }
            usleep(100_000)
        }
        throw HarnessError("no Save dialog after \(timeout) s; windows: \(last)")
    }

    func waitForNoDialog(_ session: GnomeSession, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try !session.windows().contains(where: { $0.title == "Export Drawing" }) { return }
            usleep(100_000)
        }
        throw HarnessError("the Save dialog is still open after \(timeout) s")
    }

    @Test("Ctrl+Shift+E opens the portal's Save dialog in the pictures folder; Enter saves drawing.png there; a typed .svg name gets an SVG; Escape cancels and writes nothing")
    func saveDialog() {
        withGnomeApp(arguments: ["--trace", "--verbose"]) { app in
            let session = app.session
            let pictures = session.home + "/Pictures"
            try? FileManager.default.removeItem(atPath: pictures)
            try app.drawLine(0, from: app.onCanvas(200, 300), to: app.onCanvas(600, 300))
            try app.focusByClick()

            try press(session, Key.e, with: [Key.leftCtrl, Key.leftShift])
            let dialog = try waitForDialog(session)
            #expect(dialog.pid != app.app.pid, "the dialog is the portal's window, not the app's: \(dialog)")
            // The name field has the focus, filled in with drawing.png: Enter saves.
            usleep(500_000)
            try press(session, Key.enter)
            try waitForNoDialog(session)
            let png = pictures + "/drawing.png"
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: png), Date() < deadline { usleep(50_000) }
            let image = try Screenshot(contentsOf: png)
            #expect(image.pixel(x: 400, y: 300) == .black, "the line is in the exported picture")
            // The picture is written off the event loop, which logs it once it finds it done.
            try app.waitForLog("exported \(png)", "no log line for the export")

            // A name of the user's own, typed over the proposed one: the SVG goes there.
            try press(session, Key.e, with: [Key.leftCtrl, Key.leftShift])
            _ = try waitForDialog(session)
            usleep(500_000)
            try press(session, Key.a, with: [Key.leftCtrl])
            // l i n e s . s v g
            for key in [38, 23, 49, 18, 31, 52, 31, 47, 34] { try press(session, key) }
            try press(session, Key.enter)
            try waitForNoDialog(session)
            let svg = pictures + "/lines.svg"
            let svgDeadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: svg), Date() < svgDeadline { usleep(50_000) }
            let text = String(decoding: FileManager.default.contents(atPath: svg) ?? Data(), as: UTF8.self)
            #expect(text.contains("<svg") && text.contains("d=\"M 200 300 L 600 300 \""), "\(text.prefix(300))")

            // Again, and Escape: nothing written, nothing said.
            try press(session, Key.e, with: [Key.leftCtrl, Key.leftShift])
            _ = try waitForDialog(session)
            usleep(500_000)
            try press(session, Key.escape)
            try waitForNoDialog(session)
            usleep(500_000)
            #expect(try FileManager.default.contentsOfDirectory(atPath: pictures).sorted() == ["drawing.png", "lines.svg"])
            #expect(!app.app.standardError.contains("no Save dialog"), "\(app.app.standardError)")
        }
    }
}
