// Export: `touchtracker export` without a compositor, and Ctrl+E in the running app.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchTrackerKit

@Suite("Persistence under Weston: export", .serialized)
struct PersistenceExportTests {
    /// Names `home/NAME` in the session as the user's pictures folder (user-dirs.dirs), so no
    /// export lands in the real home folder.
    static func setPicturesFolder(_ name: String, for app: PersistentApp) throws -> String {
        let pictures = app.session.runtimeDirectory + "/home/" + name
        let config = app.session.runtimeDirectory + "/config"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"\(pictures)\"\n".write(toFile: config + "/user-dirs.dirs", atomically: true, encoding: .utf8)
        return pictures
    }

    @Test("touchtracker export --png and --svg write the drawing without a compositor")
    func exportCommand() throws {
        let folder = NSTemporaryDirectory() + "tt-export-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/drawing.json"
        try Data("""
            {"format":"touchtracker-drawing","version":1,"strokes":[
            {"id":1,"kind":"line","color":[0.0,0.0,0.0,1.0],"width":10.0,"points":[[100.0,100.0],[400.0,100.0]]},
            {"id":2,"kind":"line","color":[1.0,0.0,0.0,1.0],"width":10.0,"points":[[100.0,1000.0],[1500.0,1000.0]]}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let (status, output, error) = try runTouchtracker(["export", "--file", file, "--png", folder + "/out.png", "--svg", folder + "/out.svg"])
        #expect(status == 0, "\(error)")
        #expect(output == "wrote \(folder)/out.png\nwrote \(folder)/out.svg\n")
        let png = try Screenshot(contentsOf: folder + "/out.png")
        #expect(png.width == 1507 && png.height == 1007, "the page grows to hold every line")
        #expect(png.pixel(x: 250, y: 100) == .black && png.pixel(x: 800, y: 1000) == .red && png.pixel(x: 250, y: 300) == .white)
        let svg = String(decoding: contents(folder + "/out.svg") ?? Data(), as: UTF8.self)
        #expect(svg.contains("<svg") && svg.contains("d=\"M 100 100 L 400 100 \"") && svg.contains("stroke:rgb(100%,0%,0%)"))
        // The positional form, and the default drawing.
        #expect(try runTouchtracker(["export", file, "--png", folder + "/again.png"]).0 == 0)
        let (noArgs, _, usage) = try runTouchtracker(["export", file])
        #expect(noArgs != 0 && usage.contains("--png OUT, --svg OUT or both"))
    }

    @Test("Ctrl+E exports the drawing as PNG and SVG into the user's pictures folder, logs the paths, says so in a banner, and a second export does not overwrite the first")
    func controlE() {
        withPersistentApp { app in
            // The user's pictures folder, named as a German desktop names it.
            let pictures = try Self.setPicturesFolder("Bilder", for: app)
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.expectScreen("the line") { pixel in pixel(300, 300) == .black }
            // Keyboard focus follows the mapped window; evdev 29 = left Ctrl, 18 = E.
            func controlE() throws {
                try app.session.key(29, down: true)
                try app.session.key(18, down: true)
                try app.session.key(18, down: false)
                try app.session.key(29, down: false)
            }
            try controlE()
            try app.expectBanner(red: false)
            #expect(app.log.contains("exported \(pictures)/drawing.png and \(pictures)/drawing.svg"), "\(app.log)")
            let png = try Screenshot(contentsOf: pictures + "/drawing.png")
            // The canvas: the window less the toolbar along its bottom.
            #expect(png.width == 1024 && png.height == 768 - Int(ToolbarView.height))
            #expect(png.pixel(x: 300, y: 300) == .black && png.pixel(x: 300, y: 200) == .white)
            #expect(String(decoding: contents(pictures + "/drawing.svg") ?? Data(), as: UTF8.self).contains("d=\"M 100 300 L 500 300 \""))
            try controlE()
            let deadline = Date().addingTimeInterval(5)
            while !FileManager.default.fileExists(atPath: pictures + "/drawing 2.svg"), Date() < deadline { usleep(20_000) }
            #expect(FileManager.default.fileExists(atPath: pictures + "/drawing 2.png"), "\(app.log)")
        }
    }

    @Test("Ctrl+Shift+E with no desktop portal (Weston here has no session bus) exports into the pictures folder as Ctrl+E does, and says so")
    func exportAsWithoutPortal() {
        withPersistentApp { app in
            let pictures = try Self.setPicturesFolder("Pictures", for: app)
            try app.drawLine(0, from: (100, 300), to: (500, 300))
            try app.expectScreen("the line") { pixel in pixel(300, 300) == .black }
            // evdev 29 = left Ctrl, 42 = left Shift, 18 = E.
            for (code, down) in [(29, true), (42, true), (18, true), (18, false), (42, false), (29, false)] {
                try app.session.key(code, down: down)
            }
            try app.expectBanner(red: false)
            #expect(app.log.contains("no Save dialog ("), "\(app.log)")
            #expect(app.log.contains("exported \(pictures)/drawing.png and \(pictures)/drawing.svg"), "\(app.log)")
            #expect(try Screenshot(contentsOf: pictures + "/drawing.png").pixel(x: 300, y: 300) == .black)
        }
    }
}
