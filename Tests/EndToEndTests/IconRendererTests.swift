// The toolbar's icons are drawn by a process of their own (the app's executable started as an
// icon renderer): librsvg and the libraries it brings never enter the app, the renderer ends once
// the icons are drawn, and one that hangs is stopped without the app waiting on it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness
import TouchKit
import TouchTrackerKit
@testable import Graphics

@Suite("Icon renderer", .serialized)
struct IconRendererTests {
    @Test("At 800 pt the Undo button shows its icon, yet librsvg is never mapped in the app, and the renderer is gone a few seconds later")
    func iconsWithoutLibrsvgInTheApp() {
        let options = WestonSession.Options(width: 800, height: 600)
        withApp(options: options) { app in
            let undo = try #require(ToolbarView.layout(width: app.window.width)[.undo])
            let top = app.window.y + app.window.height - ToolbarView.height
            // The icon is centred in the button (icons alone at this width); a corner of the
            // button shows its background.
            try app.session.waitForScreen("the Undo icon") { shot in
                guard let background = shot.pixel(x: app.window.x + undo.minX + 3, y: top + undo.midY) else { return false }
                var marked = 0
                for dy in -7...7 {
                    for dx in -7...7 {
                        let point = (x: app.window.x + undo.midX + Double(dx), y: top + undo.midY + Double(dy))
                        if let pixel = shot.pixel(x: point.x, y: point.y), !pixel.isClose(to: background) { marked += 1 }
                    }
                }
                return marked > 15
            }
            let maps = try String(contentsOfFile: "/proc/\(app.app.pid)/maps", encoding: .utf8)
            #expect(!maps.contains("librsvg"), "librsvg is mapped in the app")
            #expect(!maps.contains("libxml2"), "libxml2 is mapped in the app")
            // The renderer ends on its own once idle (IconRendererService.idleSeconds).
            let deadline = Date().addingTimeInterval(Double(IconRendererService.idleSeconds) + 4)
            while !renderers(of: app.session.socketName).isEmpty, Date() < deadline { usleep(100_000) }
            #expect(renderers(of: app.session.socketName).isEmpty, "an icon renderer still runs")
        }
    }

    @Test("A renderer that says hello and then hangs is stopped within the answer's time, twice, and the icon is given up")
    func hangingRendererIsStopped() throws {
        let folder = "/tmp/tt-hanging-renderer-\(getpid())"
        mkdir(folder, 0o755)
        defer { _ = system("rm -rf '\(folder)'") }
        // Says its process id as a renderer does, then never answers.
        let script = folder + "/renderer"
        let body = "#!/usr/bin/env python3\nimport os, struct, sys, time\n"
            + "if os.fork() != 0: os._exit(0)\n"
            + "sys.stdout.buffer.write(struct.pack('=I', os.getpid())); sys.stdout.flush()\n"
            + "open('\(folder)/pids', 'a').write(f'{os.getpid()}\\n')\ntime.sleep(60)\n"
        try body.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let renderer = IconRendererProcess(executable: script)
        let started = Date()
        let answer = renderer.coverage(of: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), pixels: 16)
        let waited = Date().timeIntervalSince(started)
        #expect(answer == .lost)
        #expect(waited < Double(IconRendererProcess.answerSeconds) * 2 + 2, "waited \(waited) s")
        let pids = try String(contentsOfFile: folder + "/pids", encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(pids.count == 2, "one renderer, then one more")
        usleep(200_000)
        for pid in pids { #expect(!isRunning(pid), "renderer \(pid) still runs") }
    }

    @Test("The renderer draws what the app would draw itself: the same coverage for the same SVG")
    func sameCoverageAsInProcess() throws {
        let renderer = IconRendererProcess(executable: try HarnessPaths.executable("touchtracker"))
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="5"/></svg>"#.utf8)
        let inProcess = try #require(IconRendererService.coverage(of: svg, pixels: 24))
        #expect(renderer.coverage(of: svg, pixels: 24) == .drawn(inProcess))
        #expect(renderer.coverage(of: Array("not an svg".utf8), pixels: 24) == .notDrawn)
    }

    /// Whether `pid` is a live process (a killed one may wait as a zombie for its new parent).
    private func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }

    /// Icon renderers started by an app in the compositor with socket `socket`.
    private func renderers(of socket: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  String(decoding: command, as: UTF8.self).contains(IconRendererWire.argument),
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return String(decoding: environment, as: UTF8.self).split(separator: "\0").contains("WAYLAND_DISPLAY=\(socket)")
        }
    }
}
