// Plasma's accent colour: Debian 12's KDE portal has no standard accent-color, but it passes on
// kdeglobals, where System Settings > Colours keeps the accent a user chose (General/AccentColor).
// A session whose kdeglobals names red: the tool that is on is filled red.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KWinHarness
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit

@Suite("Plasma's accent colour under KWin", .serialized, .kwinSession)
struct KWinAccentTests {
    @Test("kdeglobals' AccentColor 224,27,36: the Line tool and the Fingers toggle are filled with it, the other buttons are not")
    func accentFromKdeglobals() throws {
        let session = try #require(KWinSessionTrait.current)
        // Before the portal starts: it reads kdeglobals when the app's question starts it.
        try "[General]\nAccentColor=224,27,36\n".write(toFile: session.home + "/.config/kdeglobals", atomically: true, encoding: .utf8)
        withKWinApp(arguments: ["--verbose"]) { app in
            try app.waitForLog("accent", "the style with the accent colour", timeout: 10)
            let top = app.window.height - ToolbarView.height
            let frames = ToolbarView.layout(width: app.window.width).mapValues { $0.offsetBy(dx: 0, dy: top) }
            func at(_ item: ToolbarView.Item) -> (x: Double, y: Double) {
                (app.window.x + frames[item]!.minX + 6, app.window.y + frames[item]!.minY + 6)
            }
            let red = Pixel(red: 224, green: 27, blue: 36)
            let shot = try session.waitForScreen("the accent on the tool and the toggle") { shot in
                [ToolbarView.Item.line, .fingers].allSatisfy { shot.pixel(x: at($0).x, y: at($0).y) == red }
            }
            keepScreenshot(shot, "kwin-accent.png")
            #expect(shot.pixel(x: at(.freehand).x, y: at(.freehand).y) == Pixel(Appearance().controlFill))
        }
    }
}
