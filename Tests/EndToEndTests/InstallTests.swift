// `meson install` of the app into a fresh prefix: binary, .desktop file, icon and man page, with
// the app id tying them together.
import Foundation
import Testing
import WestonHarness

@Suite("Install with meson")
struct InstallTests {
    func run(_ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("meson install puts the binary, a valid .desktop file named by the app id, an SVG icon and a man page into the prefix")
    func installIntoPrefix() throws {
        let work = NSTemporaryDirectory() + "tt-install-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let prefix = work + "/prefix"
        // The binary the tests built; a user's install builds it with `swift build -c release`.
        let binary = try HarnessPaths.executable("touchtracker")
        let setup = try run(["meson", "setup", work + "/build", HarnessPaths.packageRoot + "/meson-helpers",
                             "-Dapp=true", "-Dapp_binary=\(binary)", "--prefix=\(prefix)"])
        #expect(setup.status == 0, "\(setup.output)")
        let install = try run(["meson", "install", "-C", work + "/build"])
        #expect(install.status == 0, "\(install.output)")

        let appID = "org.touchtracker.TouchTracker"
        let desktop = prefix + "/share/applications/\(appID).desktop"
        let files = ["/bin/touchtracker", "/share/applications/\(appID).desktop",
                     "/share/icons/hicolor/scalable/apps/\(appID).svg", "/share/man/man1/touchtracker.1"]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix + file), "missing \(file)")
        }
        let validate = try run(["desktop-file-validate", desktop])
        #expect(validate.status == 0 && validate.output.isEmpty, "\(validate.output)")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8)
        #expect(entry.contains("\nExec=touchtracker\n") && entry.contains("\nIcon=\(appID)\n"))
        let version = try run([prefix + "/bin/touchtracker", "--version"])
        #expect(version.status == 0 && version.output.hasPrefix("0."), "\(version.output)")
        let svg = try String(contentsOfFile: prefix + "/share/icons/hicolor/scalable/apps/\(appID).svg", encoding: .utf8)
        #expect(svg.contains("<svg"))
        // The meson test target validates the .desktop file too.
        let mesonTest = try run(["meson", "test", "-C", work + "/build", "desktop-file"])
        #expect(mesonTest.status == 0, "\(mesonTest.output)")
    }
}
