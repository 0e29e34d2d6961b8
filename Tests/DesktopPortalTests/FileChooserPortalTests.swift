// The parts of the portal client that need no bus: the portal's file URIs as paths. The dialog
// itself is tested against the real portal in Tests/EndToEndTests/GnomePortalTests.swift.
import Testing
@testable import DesktopPortal

@Suite("Desktop portal")
struct FileChooserPortalTests {
    @Test("A chosen file's URI becomes its path, percent escapes (here lowercase) decoded; other schemes are refused")
    func uris() {
        #expect(FileChooserPortal.filePath("file:///home/ana/Pictures/drawing.png") == "/home/ana/Pictures/drawing.png")
        #expect(FileChooserPortal.filePath("file:///home/ana/My%20Pictures/%e7%94%bb.svg") == "/home/ana/My Pictures/画.svg")
        #expect(FileChooserPortal.filePath("file:///a/100%") == "/a/100%", "a stray % stays")
        #expect(FileChooserPortal.filePath("sftp://host/a.png") == nil)
        #expect(FileChooserPortal.filePath("file://host/a.png") == nil, "a file on another host")
    }

    @Test("Without a session bus the portal cannot be reached, and says why")
    func noBus() {
        #expect(throws: PortalError.self) { try FileChooserPortal(environment: { _ in nil }) }
        #expect(throws: PortalError.self) {
            try FileChooserPortal(environment: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? "unix:path=/nonexistent/bus" : nil })
        }
    }
}
