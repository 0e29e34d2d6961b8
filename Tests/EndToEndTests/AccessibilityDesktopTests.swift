// The app's tree read with libatspi under GNOME Shell and KWin, on the accessibility bus each
// desktop session's own at-spi2-core starts: the toolbar's controls named, and a toggle and the
// Colours button pressed through the Action interface.
import CompositorHarness
import Foundation
import Testing

/// Reads `app`'s tree on its session's accessibility bus and works two controls through Action.
func checkPublished(_ app: DesktopAppUnderTest) throws {
    let bus = try AccessibilityBusUnderTest(existingSessionBus: "unix:path=\(app.runtimeDirectory)/bus")
    let tree = try AccessibilityTests.tree(bus, until: "the toolbar") { (try? $0.child("TouchTracker").child("Toolbar")) != nil }
    let bar = try tree.child("TouchTracker").child("Toolbar")
    for name in ["Undo", "Redo", "Line", "Free", "Circle", "Colours"] {
        #expect(bar.children.contains { $0.name == name }, "no \(name) in \(bar.children.map(\.name))")
    }
    #expect(try bar.child("Undo").role == "push button" && !bar.child("Undo").states.contains("enabled"))
    #expect(try bar.child("Line").states.contains("checked") && !bar.child("Circle").states.contains("checked"))
    let pressed = try bus.client(["do", "TouchTracker", "TouchTracker/Toolbar/Circle", "click"]) as? [String: Any]
    #expect(pressed?["done"] as? Bool == true)
    let after = try AccessibilityTests.tree(bus, until: "Circle checked") { try $0.child("TouchTracker").child("Toolbar").child("Circle").states.contains("checked") }
    #expect(try !after.child("TouchTracker").child("Toolbar").child("Line").states.contains("checked"))
    _ = try bus.client(["do", "TouchTracker", "TouchTracker/Toolbar/Colours", "click"])
    let palette = try AccessibilityTests.tree(bus, until: "the palette") { (try? $0.child("TouchTracker").child("Colours")) != nil }
    #expect(try palette.child("TouchTracker").child("Colours").children.map(\.name).prefix(3) == ["black", "red", "orange"])
}

@Suite("Accessibility under GNOME Shell", .serialized, .gnomeSession)
struct AccessibilityGnomeTests {
    @Test("E8: under GNOME Shell the app is on the session's accessibility bus; Circle and Colours pressed through Action")
    func published() {
        withGnomeApp(arguments: ["--verbose"]) { app in try checkPublished(app) }
    }
}

@Suite("Accessibility under KWin", .serialized, .kwinSession)
struct AccessibilityKWinTests {
    @Test("E8: under KWin the app is on the session's accessibility bus; Circle and Colours pressed through Action")
    func published() {
        withKWinApp(arguments: ["--verbose"]) { app in try checkPublished(app) }
    }
}
