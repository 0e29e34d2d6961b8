// The keyboard path end to end under Weston (E11-E13): lines drawn by touch, then selected, moved,
// given the edit menu and deleted with keys alone, checked on the compositor's screenshots; the
// focus ring on the toolbar; and on a real accessibility bus, focus events that follow Tab.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation
import Testing
import TouchTrackerKit

@Suite("The keyboard path under Weston", .serialized)
struct AccessibilityKeyboardTests {
    /// evdev key codes.
    enum Keys { static let tab = 15, down = 108, menu = 127, delete = 111, leftShift = 42, space = 57 }

    /// The default accent colour (no portal in these sessions).
    static let accent = Pixel(red: 0x35, green: 0x84, blue: 0xE4)

    @Test("E11-E13: two lines by touch, then Tab selects the first, Shift+Down moves it, Menu opens the edit menu, Delete deletes it; Tab goes on to the second line and then to New, ringed")
    func keysAlone() {
        withApp { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.drawLine(1, from: (200, 500), to: (600, 500))
            try app.expectScreen("two black lines") { $0(400, 300) == .black && $0(400, 500) == .black }
            try app.press(Keys.tab)
            try app.press(Keys.tab)
            try app.expectScreen("the first line selected, green") { $0(400, 300) == .green && $0(400, 500) == .black }
            try app.press(Keys.down, with: [Keys.leftShift])
            try app.expectScreen("the first line moved 50 points down") {
                $0(400, 350) == .green && $0(400, 300) == .white && $0(400, 500) == .black
            }
            try app.press(Keys.menu)
            let popup = try app.waitForPopup()
            #expect(abs((popup.x + popup.width / 2) - (app.window.x + 401)) < 4, "at the line's middle: \(popup)")
            try app.press(Keys.delete)
            try app.waitForNoPopup()
            try app.expectScreen("the moved line deleted, the other kept") { $0(400, 350) == .white && $0(400, 500) == .black }
            try app.press(Keys.tab)
            try app.expectScreen("the remaining line selected") { $0(400, 500) == .green }
            try app.press(Keys.tab)
            // Past the last line: New, with the ring just outside its top edge.
            let new = ToolbarView.layout(width: app.window.width)[.new]!
            let top = app.window.height - ToolbarView.height + new.minY
            try app.expectScreen("New ringed in the accent colour, the line deselected") { pixel in
                pixel(new.midX, top - 1).isClose(to: Self.accent, tolerance: 8) && pixel(400, 500) == .black
            }
            try app.press(Keys.space)
            try app.expectScreen("Space pressed New: an empty drawing") { $0(400, 500) == .white }
        }
    }

    @Test("E11, E10: Tab's focus reaches assistive tools as focus events: the canvas, its line, then New")
    func focusEvents() {
        AccessibilityTests.withPublishedApp { app, bus in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.expectScreen("the line") { $0(400, 300) == .black }
            _ = try AccessibilityTests.tree(bus, until: "the line") { try !$0.child("TouchTracker").child("Drawing").children.isEmpty }
            let watch = try bus.watch("TouchTracker", seconds: 6)
            for _ in 0..<3 {
                try app.press(Keys.tab)
                usleep(300_000)
            }
            _ = watch.waitForExit(timeout: 10)
            let focused = watch.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["type"] as? String == "object:state-changed:focused" && $0["detail1"] as? Int == 1 }.compactMap { $0["source"] as? String }
            #expect(focused == ["Drawing", "Line 1 of 1", "New"], "\(watch.standardOutput)")
        }
    }
}
