// Export As (Ctrl+Shift+E) under a real headless KWin with the real xdg-desktop-portal and its KDE
// backend, started on demand by the session's own D-Bus: Plasma's Save dialog appears as a window
// of the session, keys typed into it choose the file, and the app writes it there.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import KWinHarness

@Suite("Export As through the desktop portal under KWin", .serialized, .kwinSession)
struct KWinPortalTests {
    /// evdev key codes.
    enum Key { static let enter = 28, escape = 1, leftCtrl = 29, leftShift = 42, e = 18 }

    /// The portal's Save dialog: a window of another program, titled as the app asked.
    func waitForDialog(_ session: KWinSession, present: Bool = true, timeout: Double = 30) throws -> KWinWindow? {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [KWinWindow] = []
        while Date() < deadline {
            last = try session.windows()
            let dialog = last.first { $0.title.contains("Export Drawing") && $0.width > 0 }
            if present, let dialog { return dialog }
            if !present, dialog == nil { return nil }
            usleep(100_000)
        }
        throw HarnessError(present ? "no Save dialog after \(timeout) s; windows: \(last)" : "the Save dialog is still open")
    }

    @Test("Ctrl+Shift+E opens Plasma's Save dialog through the portal; Enter saves drawing.png in the pictures folder; Escape cancels and writes nothing")
    func saveDialog() {
        withKWinApp(arguments: ["--verbose"]) { app in
            let session = app.session
            let pictures = session.home + "/Pictures"
            try? FileManager.default.removeItem(atPath: pictures)
            _ = try app.drawShownLine(y: 300, from: 200, to: 600)

            try app.press(Key.e, with: [Key.leftCtrl, Key.leftShift])
            let dialog = try #require(try waitForDialog(session))
            #expect(dialog.pid != app.app.pid, "the dialog is the portal's window, not the app's: \(dialog)")
            usleep(800_000)
            try app.press(Key.enter)
            _ = try waitForDialog(session, present: false)
            let png = pictures + "/drawing.png"
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: png), Date() < deadline { usleep(50_000) }
            let image = try Screenshot(contentsOf: png)
            #expect(image.pixel(x: 400, y: 300) == .black, "the line is in the exported picture")

            try app.press(Key.e, with: [Key.leftCtrl, Key.leftShift])
            _ = try waitForDialog(session)
            usleep(800_000)
            try app.press(Key.escape)
            _ = try waitForDialog(session, present: false)
            usleep(500_000)
            #expect(try FileManager.default.contentsOfDirectory(atPath: pictures) == ["drawing.png"])
        }
    }
}
