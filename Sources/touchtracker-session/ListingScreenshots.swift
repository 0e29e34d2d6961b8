// The software-centre screenshots (data/screenshots, named by the AppStream metainfo), made the
// same way every time: each scene starts the app on an empty drawing in a private headless
// Weston and plays fixed touches, so a rerun on the same system gives the same pictures.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CompositorHarness
import TouchTrackerKit

struct ListingScreenshots {
    let app: String
    let folder: String

    /// The scenes, by file name: lines by several fingers (two still down, red), a selected line
    /// with its Delete menu, the palette over lines drawn in colour; lines in colour and a selected
    /// line in the dark style; a phone in portrait with its palette.
    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try scene("drawing.png") { stage in
            try stage.fan(fingers: 5, from: (512, 120), length: 380, spread: 0.9)
            try stage.hold([(0, (260, 620), (330, 560)), (1, (770, 620), (700, 560))])
        }
        try scene("selection.png") { stage in
            try stage.fan(fingers: 4, from: (512, 100), length: 420, spread: 0.7)
            // Halfway along the third line.
            try stage.tap(at: Stage.fanPoint(2, of: 4, from: (512, 100), length: 420, spread: 0.7, at: 0.5))
            _ = try stage.session.waitForPopup(of: stage.process)
        }
        try scene("palette.png") { stage in
            for (swatch, start) in [(1, (250.0, 150.0)), (5, (520.0, 150.0)), (4, (790.0, 150.0))] {
                try stage.tapColours()
                try stage.tap(at: stage.swatch(swatch))
                try stage.line(from: start, to: (start.0 - 40, start.1 + 400))
            }
            try stage.tapColours()
        }
        try scene("dark.png", style: "dark") { stage in
            try stage.fan(fingers: 4, from: (512, 100), length: 420, spread: 0.7)
            for (swatch, start) in [(1, (200.0, 150.0)), (5, (830.0, 150.0))] {
                try stage.tapColours()
                try stage.tap(at: stage.swatch(swatch))
                try stage.line(from: start, to: (start.0 - 40, start.1 + 400))
            }
            try stage.tap(at: Stage.fanPoint(2, of: 4, from: (512, 100), length: 420, spread: 0.7, at: 0.5))
            _ = try stage.session.waitForPopup(of: stage.process)
        }
        // A phone in portrait: 360x720 points at scale 2, the narrow toolbar and the palette's two rows.
        try scene("phone.png", output: WestonSession.Options(width: 360, height: 720, scale: 2)) { stage in
            try stage.fan(fingers: 3, from: (180, 60), length: 330, spread: 0.8)
            try stage.tapColours()
            try stage.tap(at: stage.swatch(5))
            try stage.line(from: (60, 140), to: (90, 430))
            try stage.tapColours()
        }
    }

    /// One scene in a fresh compositor, app and data folder; its screenshot goes to `name`.
    /// `style` is the app's TOUCHTRACKER_STYLE (Weston has no portal to say it).
    private func scene(_ name: String, style: String = "light", output: WestonSession.Options = WestonSession.Options(),
                       _ play: (Stage) throws -> Void) throws {
        let session = try WestonSession(output)
        defer { session.stop() }
        let process = try session.launch(app, [], environment: ["TOUCHTRACKER_STYLE": style])
        let window = try session.waitForWindow(appID: "org.touchtracker.TouchTracker", process: process)
        try session.waitForScreen(timeout: 10, "the canvas") { shot in
            let paper = shot.pixel(x: window.x + 5, y: window.y + 5)
            return style == "light" ? paper == .white : paper != .white
        }
        // The pointer rests in the output's last pixel: an arrow's tip there leaves the picture.
        let output = try session.output()
        try session.pointerMotion(x: output.x + output.width - 1, y: output.y + output.height - 1)
        try play(Stage(session: session, window: window, process: process))
        // Everything drawn and shown: the screen no longer changes.
        usleep(600_000)
        let path = URL(fileURLWithPath: folder + "/" + name).standardizedFileURL.path
        _ = try session.screenshot(to: path)
        print("wrote \(path)")
    }
}

/// Touches on one app's window, in window coordinates.
struct Stage {
    let session: WestonSession
    let window: WindowInfo
    let process: ChildProcess

    private func at(_ p: (Double, Double)) -> (x: Double, y: Double) { (window.x + p.0, window.y + p.1) }

    /// Where `finger` of a fan is, `t` of the way along its line.
    static func fanPoint(_ finger: Int, of fingers: Int, from origin: (Double, Double), length: Double,
                         spread: Double, at t: Double) -> (Double, Double) {
        let angle = (Double(finger) / Double(fingers - 1) - 0.5) * spread
        return (origin.0 + sin(angle) * (30 + length * t), origin.1 + cos(angle) * (30 + length * t))
    }

    /// `fingers` fingers land together on a short arc and sweep outward in a fan, then lift.
    func fan(fingers: Int, from origin: (Double, Double), length: Double, spread: Double) throws {
        func point(_ finger: Int, _ t: Double) -> (Double, Double) {
            Self.fanPoint(finger, of: fingers, from: origin, length: length, spread: spread, at: t)
        }
        for finger in 0..<fingers { let p = at(point(finger, 0)); try session.touchDown(finger, x: p.x, y: p.y) }
        try session.touchFrame()
        for step in 1...20 {
            for finger in 0..<fingers {
                let p = at(point(finger, Double(step) / 20))
                try session.touchMotion(finger, x: p.x, y: p.y)
            }
            try session.touchFrame()
            usleep(16_000)
        }
        for finger in 0..<fingers { try session.touchUp(finger) }
        try session.touchFrame()
        usleep(100_000)
    }

    /// Fingers that land, move and stay down: their lines show red, in progress.
    func hold(_ fingers: [(id: Int, from: (Double, Double), to: (Double, Double))]) throws {
        for finger in fingers { let p = at(finger.from); try session.touchDown(10 + finger.id, x: p.x, y: p.y) }
        try session.touchFrame()
        for step in 1...8 {
            for finger in fingers {
                let t = Double(step) / 8
                let p = at((finger.from.0 + (finger.to.0 - finger.from.0) * t, finger.from.1 + (finger.to.1 - finger.from.1) * t))
                try session.touchMotion(10 + finger.id, x: p.x, y: p.y)
            }
            try session.touchFrame()
            usleep(16_000)
        }
    }

    /// One finger's line, finished.
    func line(from a: (Double, Double), to b: (Double, Double)) throws {
        try hold([(10, a, b)])
        try session.touchUp(20)
        try session.touchFrame()
        usleep(100_000)
    }

    /// A tap, then the wait for the double tap to fail (so that a single tap takes effect).
    func tap(at point: (Double, Double)) throws {
        let p = at(point)
        try session.touchDown(30, x: p.x, y: p.y)
        try session.touchFrame()
        usleep(50_000)
        try session.touchUp(30)
        try session.touchFrame()
        usleep(500_000)
    }

    /// The toolbar's Colours button, where the app lays it out.
    func tapColours() throws {
        let frame = ToolbarView.layout(width: window.width)[.colours]!
        try tap(at: (frame.midX, window.height - ToolbarView.height + frame.midY))
    }

    /// The palette's swatch `index`, where the app lays it out.
    func swatch(_ index: Int) -> (Double, Double) {
        let frame = PaletteView.swatchFrames(width: window.width)[index]
        return (frame.midX, window.height - ToolbarView.height - PaletteView.height(forWidth: window.width) + frame.midY)
    }

}
