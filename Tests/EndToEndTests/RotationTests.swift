// Turning a phone: the output goes from portrait to landscape and back while the app runs (a real
// headless Sway, whose output mode changes through its IPC as a rotation does), and the window lays
// out again at once: the narrow toolbar in portrait, the wide one in landscape.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit

@Suite("Rotation under Sway", .serialized)
struct RotationTests {
    @Test("Portrait 360x720 at scale 2, landscape 720x360, portrait again: every control laid out for each, inside the window")
    func rotate() throws {
        let session = try SwaySession(SwaySession.Options(width: 720, height: 1440,
                                                          config: ["output HEADLESS-1 scale 2", "default_border none"]))
        defer { session.stop() }
        do {
            let app = try session.launch(try HarnessPaths.executable("touchtracker"), ["--verbose"], name: "touchtracker")
            for (index, (width, height)) in [(360.0, 720.0), (720.0, 360.0), (360.0, 720.0)].enumerated() {
                if index > 0 { try session.command("output HEADLESS-1 mode \(Int(width * 2))x\(Int(height * 2))") }
                let window = try session.waitForWindow(appID: AppUnderTest.appID, process: app) {
                    $0.content.width == width && $0.content.height == height
                }
                let top = height - ToolbarView.height
                let controls = ToolbarView.layout(width: width)
                #expect(controls.count == (width < ToolbarView.narrowBelow ? 7 : 10))
                let shot = try session.waitForScreen("the toolbar laid out for \(width)x\(height)") { shot in
                    controls.values.allSatisfy { frame in
                        let face = shot.pixel(x: (window.content.x + frame.minX + 5) * 2, y: (window.content.y + top + frame.midY) * 2)
                        let bar = shot.pixel(x: (window.content.x + 1) * 2, y: (window.content.y + height - 2) * 2)
                        return face != nil && face != bar && frame.maxX <= width
                    }
                }
                keepScreenshot(shot, "rotation-\(index)-\(Int(width))x\(Int(height)).png")
            }
            session.removeFiles()
        } catch {
            session.keepFiles = true
            Issue.record("\(error)\n\(session.diagnostics)")
        }
    }
}
