// Runs TouchTracker where a newcomer is: in their Wayland session, in a Weston window nested in X11,
// or in a private headless Weston that plays a short demo and saves a screenshot.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import CompositorHarness

@main
struct TouchTrackerSession: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker-session",
        abstract: "Run TouchTracker in the current Wayland session, or in a private Weston.")

    @Option(help: "Where the headless demo saves its screenshot.")
    var screenshot = "touchtracker-demo.png"

    @Option(help: "Write the software-centre screenshots into this folder (in private headless Westons) and exit.")
    var listingScreenshots: String?

    @Argument(help: "Arguments passed to touchtracker.")
    var appArguments: [String] = []

    mutating func run() throws {
        let app = try HarnessPaths.executable("touchtracker")
        let environment = ProcessInfo.processInfo.environment
        if let listingScreenshots {
            try ListingScreenshots(app: app, folder: listingScreenshots).run()
        } else if environment["WAYLAND_DISPLAY"] != nil {
            try execute(app, appArguments)
        } else if environment["DISPLAY"] != nil {
            try runNested(app)
        } else {
            try runHeadlessDemo(app)
        }
    }

    private func execute(_ path: String, _ arguments: [String]) throws {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw HarnessError("cannot run \(path): \(String(cString: strerror(errno)))")
    }

    /// Weston in an X11 window; the app runs inside it until either ends.
    private func runNested(_ app: String) throws {
        // SIGINT/SIGTERM to the launcher end Weston and the app too.
        signal(SIGTERM, endChildren)
        signal(SIGINT, endChildren)
        let runtime = NSTemporaryDirectory() + "touchtracker-\(getpid())"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let weston = Process()
        weston.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        weston.arguments = ["--backend=x11-backend.so", "--width=1024", "--height=768", "--socket=touchtracker-0"]
        weston.environment = environment
        try weston.run()
        childPIDs[0] = weston.processIdentifier
        defer { weston.terminate(); weston.waitUntilExit() }
        let socket = runtime + "/touchtracker-0"
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        environment["WAYLAND_DISPLAY"] = "touchtracker-0"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: app)
        child.arguments = appArguments
        child.environment = environment
        try child.run()
        childPIDs[1] = child.processIdentifier
        child.waitUntilExit()
    }

    /// No display at all: a private headless Weston, three fingers and a mouse draw, a screenshot.
    private func runHeadlessDemo(_ app: String) throws {
        print("No WAYLAND_DISPLAY or DISPLAY: running TouchTracker in a private headless Weston.")
        let session = try WestonSession()
        defer { session.stop() }
        let process = try session.launch(app, appArguments)
        let window = try session.waitForWindow(appID: "org.touchtracker.TouchTracker", process: process)
        func at(_ x: Double, _ y: Double) -> (Double, Double) { (window.x + x, window.y + y) }
        // Touches reach a window once the compositor has shown it: wait for the white canvas.
        try session.waitForScreen(timeout: 10, "the white canvas") { shot in
            shot.pixel(x: window.x + 5, y: window.y + 5) == .white
        }

        // Three fingers land together and sweep down: three lines, finished when they lift.
        let starts: [(Double, Double)] = [(200, 150), (400, 150), (600, 150)]
        for (id, start) in starts.enumerated() {
            let p = at(start.0, start.1)
            try session.touchDown(id, x: p.0, y: p.1)
        }
        try session.touchFrame()
        for step in 1...20 {
            for (id, start) in starts.enumerated() {
                let p = at(start.0 + Double(step) * 5 * Double(id - 1), start.1 + Double(step) * 20)
                try session.touchMotion(id, x: p.0, y: p.1)
            }
            try session.touchFrame()
            usleep(16_000)
        }
        for id in starts.indices { try session.touchUp(id) }
        try session.touchFrame()
        // One finger stays down, drawn red, while the mouse draws a line.
        let held = at(800, 600)
        try session.touchDown(7, x: held.0, y: held.1)
        try session.touchFrame()
        let h2 = at(900, 650)
        try session.touchMotion(7, x: h2.0, y: h2.1)
        try session.touchFrame()
        let m1 = at(150, 650), m2 = at(600, 700)
        try session.pointerMotion(x: m1.0, y: m1.1)
        try session.pointerButton(down: true)
        try session.pointerMotion(x: m2.0, y: m2.1)
        try session.pointerButton(down: false)
        usleep(300_000)
        let path = URL(fileURLWithPath: screenshot).standardizedFileURL.path
        _ = try session.screenshot(to: path)
        print("Screenshot of the demo: \(path)")
        print("(Inside a Wayland session, scripts/run opens the app's window instead.)")
    }
}

/// The nested Weston and the app, for the signal handler (which may capture nothing).
nonisolated(unsafe) var childPIDs: [pid_t] = [0, 0]

private func endChildren(_ signal: Int32) {
    for pid in childPIDs.reversed() where pid > 0 { kill(pid, SIGTERM) }
    _exit(0)
}
