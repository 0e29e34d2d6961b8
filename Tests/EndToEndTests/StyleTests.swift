// The style's accent colour and high contrast on screen, under Weston, which has no portal to say
// them: TOUCHTRACKER_STYLE gives them, as a desktop's portal would (GNOME's and Plasma's of Debian 12
// report neither; GnomeStyleTests switches the dark style through the real portal).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit

@Suite("The style's accent and contrast under Weston", .serialized)
struct StyleTests {
    @Test("Dark, a red accent and high contrast: the tool that is on filled red, the buttons outlined, the canvas dark, a black line light")
    func accentAndContrast() {
        let style = Appearance(scheme: .dark, accent: Color(hex: 0xE01B24), highContrast: true)
        func pixel(_ c: Color) -> Pixel {
            Pixel(red: UInt8((c.red * 255).rounded()), green: UInt8((c.green * 255).rounded()), blue: UInt8((c.blue * 255).rounded()))
        }
        withApp(environment: ["TOUCHTRACKER_STYLE": "dark,high-contrast,accent=E01B24"], paper: pixel(style.paper)) { app in
            let width = app.window.width, height = app.window.height
            let top = height - ToolbarView.height
            let frames = ToolbarView.layout(width: width)
            let line = frames[.line]!.offsetBy(dx: 0, dy: top), free = frames[.freehand]!.offsetBy(dx: 0, dy: top)
            try app.drawLine(0, from: (100, 200), to: (500, 200))
            // The line in the same wait: a screenshot taken once the toolbar showed could come
            // before the line's frame (it did under AddressSanitizer).
            let shot = try app.expectScreen("the dark style with its accent and outlines, the black line light") { at in
                let stroke = at(300, 200)
                return at(line.minX + 6, line.minY + 6) == pixel(style.accentColor)
                    && at(free.minX + 6, free.minY + 6) == pixel(style.controlFill)
                    && at(free.midX, free.minY) == pixel(style.separator)
                    && at(free.midX, free.minY + 1) == pixel(style.separator)
                    && at(300, 100) == pixel(style.paper)
                    && stroke.red > 0xD0 && stroke.green > 0xD0
            }
            keepScreenshot(shot, "style-dark-accent-contrast.png")
        }
    }
}
