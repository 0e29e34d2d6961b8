// The book's gestures on the real app under Weston (A3-A6, M2) and its keyboard commands,
// checked on the compositor's screenshots and its window list (the popup is a window there).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

extension AppUnderTest {
    /// The popup menu's window, once it is mapped.
    func waitForPopup(timeout: Double = 5) throws -> WindowInfo {
        try session.waitForPopup(of: app, timeout: timeout)
    }

    func waitForNoPopup(timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try !session.windows().contains(where: { $0.popup }) { return }
            usleep(20_000)
        }
        throw HarnessError("the popup menu is still shown after \(timeout) s")
    }

    /// Presses a key combination: modifiers down, key down and up, modifiers up (evdev codes).
    func press(_ key: Int, with modifiers: [Int] = []) throws {
        for modifier in modifiers { try session.key(modifier, down: true) }
        try session.key(key, down: true)
        try session.key(key, down: false)
        for modifier in modifiers.reversed() { try session.key(modifier, down: false) }
    }
}

enum Key {
    static let escape = 1, backspace = 14, z = 44, delete = 111, leftCtrl = 29, leftShift = 42
}

@Suite("Gestures and menu under Weston", .serialized)
struct GestureTests {
    @Test("A3: a double tap clears all lines and its taps leave no dots")
    func doubleTapClears() {
        withApp { app in
            try app.drawLine(0, from: (100, 100), to: (500, 100))
            try app.drawLine(1, from: (100, 300), to: (500, 300))
            try app.expectScreen("two lines") { pixel in pixel(300, 100) == .black && pixel(300, 300) == .black }
            try app.tap(2, 700, 500, settle: false)
            usleep(100_000)
            try app.tap(3, 701, 501)
            try app.expectScreen("an empty canvas") { pixel in
                pixel(300, 100) == .white && pixel(300, 300) == .white && pixel(700, 500) == .white
            }
        }
    }

    @Test("A4 A5 M2: a tap selects the line in green, the Delete popup shows at the tap, tapping Delete removes the line")
    func tapSelectThenDelete() {
        withApp { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.drawLine(1, from: (200, 500), to: (600, 500))
            try app.tap(2, 400, 310)
            let popup = try app.waitForPopup()
            // Above the tap, as iOS places its edit menu, and within the window.
            #expect(popup.y + popup.height <= app.window.y + 310 && popup.y > app.window.y + 200, "\(popup)")
            #expect(abs((popup.x + popup.width / 2) - (app.window.x + 401)) < 2, "centred on the tap: \(popup)")
            try app.expectScreen("the selected line green and the dark menu") { pixel in
                pixel(300, 300) == .green && pixel(300, 500) == .black
                    && pixel(popup.x - app.window.x + 4, popup.y - app.window.y + popup.height / 2).red < 60
            }
            // Delete is the menu's first item (Copy follows it, P2).
            try app.tap(3, popup.x - app.window.x + 24, popup.y - app.window.y + popup.height / 2)
            try app.waitForNoPopup()
            try app.expectScreen("the selected line gone, the other kept") { pixel in
                pixel(300, 300) == .white && pixel(300, 500) == .black
            }
        }
    }

    @Test("A4: a tap on empty space deselects the line and hides the popup")
    func tapElsewhereHides() {
        withApp { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.tap(1, 400, 305)
            _ = try app.waitForPopup()
            try app.tap(2, 400, 600)
            try app.waitForNoPopup()
            try app.expectScreen("the line black again") { pixel in pixel(300, 300) == .black && pixel(400, 600) == .white }
        }
    }

    @Test("M2: a click on the popup's item works like a tap; the menu says 删除 in a Chinese locale")
    func clickDeleteChinese() {
        withApp(arguments: ["--verbose"]) { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.tap(1, 400, 305)
            let popup = try app.waitForPopup()
            try app.session.pointerMotion(x: popup.x + 24, y: popup.y + popup.height / 2)
            try app.session.pointerButton(down: true)
            try app.session.pointerButton(down: false)
            try app.waitForNoPopup()
            try app.expectScreen("the line gone") { pixel in pixel(300, 300) == .white }
            #expect(app.app.standardError.contains("menu: chose Delete"))
        }
        withApp(arguments: ["--verbose"], environment: ["LANG": "zh_CN.UTF-8"]) { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.tap(1, 400, 305)
            let popup = try app.waitForPopup()
            try app.tap(2, popup.x - app.window.x + 24, popup.y - app.window.y + popup.height / 2)
            try app.waitForNoPopup()
            #expect(app.app.standardError.contains("menu: chose 删除"))
        }
    }

    @Test("A6: a long press picks a line up (green), a pan drags it under the finger, release drops it")
    func longPressAndDrag() {
        withApp { app in
            try app.drawLine(0, from: (200, 200), to: (400, 200))
            try app.down(1, 300, 200)
            try app.frame()
            usleep(800_000)  // longer than the 0.6 s press
            try app.expectScreen("the picked line green") { pixel in pixel(250, 200) == .green }
            for step in 1...10 {
                try app.move(1, 300 + Double(step) * 20, 200 + Double(step) * 20)
                try app.frame()
                usleep(16_000)
            }
            try app.expectScreen("the line moved with the finger, still green") { pixel in
                pixel(450, 400) == .green && pixel(250, 200) == .white
            }
            try app.up(1)
            try app.frame()
            try app.expectScreen("the line dropped, black, where the finger left it; no stray line") { pixel in
                pixel(450, 400) == .black && pixel(250, 200) == .white && pixel(400, 300) == .white
            }
        }
    }

    @Test("Keys: Delete deletes the selected line, Escape hides the menu, Ctrl+Z undoes, Ctrl+Shift+Z redoes")
    func keyboard() {
        withApp { app in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.tap(1, 400, 305)
            _ = try app.waitForPopup()
            try app.press(Key.escape)
            try app.waitForNoPopup()
            try app.expectScreen("deselected") { pixel in pixel(300, 300) == .black }
            try app.tap(2, 400, 305)
            _ = try app.waitForPopup()
            try app.press(Key.delete)
            try app.waitForNoPopup()
            try app.expectScreen("deleted") { pixel in pixel(300, 300) == .white }
            try app.press(Key.z, with: [Key.leftCtrl])
            try app.expectScreen("undone: the line is back") { pixel in pixel(300, 300) == .black }
            try app.press(Key.z, with: [Key.leftCtrl, Key.leftShift])
            try app.expectScreen("redone: deleted again") { pixel in pixel(300, 300) == .white }
        }
    }
}
