// `meson install` of the app into a fresh prefix: binary, .desktop file, icon, man page, MIME type
// and software-centre listing, with the app id tying them together.
import Foundation
import Testing
import CompositorHarness

@Suite("Install with meson")
struct InstallTests {
    func run(_ arguments: [String], in directory: String? = nil,
             environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try runCommand(arguments, in: directory, environment: environment)
    }

    @Test("meson install puts the binary, a valid .desktop file named by the app id (translated), an SVG icon, a man page, the translations and the drawing file type into the prefix; a desktop resolves drawings to the app")
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
                     "/share/icons/hicolor/scalable/apps/\(appID).svg", "/share/man/man1/touchtracker.1",
                     "/share/mime/packages/\(appID).xml", "/share/metainfo/\(appID).metainfo.xml"]
            + (try catalogueLanguages()).map { "/share/locale/\($0)/LC_MESSAGES/touchtracker.mo" }
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix + file), "missing \(file)")
        }
        let validate = try run(["desktop-file-validate", desktop])
        #expect(validate.status == 0 && validate.output.isEmpty, "\(validate.output)")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8)
        #expect(entry.contains("\nExec=touchtracker %f\n") && entry.contains("\nIcon=\(appID)\n"))
        #expect(entry.contains("\nMimeType=application/vnd.touchtracker.drawing+json;\n"))
        #expect(entry.contains("\nX-Purism-FormFactor=Workstation;Mobile;\n"), "phone software centres list it")
        // The entry in the languages of po/, merged from the catalogues.
        let german = try POFile("de.po").translations
        for (key, english) in [("Name", "TouchTracker"), ("GenericName", "Multi-touch Drawing"),
                               ("Comment", "Draw with every finger: each one draws its own line")] {
            let line = "\n\(key)[de]=\(try #require(german[english]))\n"
            #expect(entry.contains(line), "no \(line) in \(entry)")
        }
        #expect(entry.contains("\nName[zh_CN]=触摸画板\n") && entry.contains("\nComment[es]="), "\(entry)")
        // The installed app finds its catalogues beside it: German with LANGUAGE=de.
        let replay = try replayedWindow(executable: prefix + "/bin/touchtracker",
                                        environment: ["LANGUAGE": "de", "TOUCHTRACKER_LOCALEDIR": ""])
        let shot = try #require(replay.shot, "\(replay.error)")
        let expected = expectedWindow(width: 1024, height: 768) { german[$0] ?? $0 }.image
        #expect(toolbarDifferences(expected, shot, origin: (0, 0)).count == 0, "the installed app does not show German")
        // The drawing type resolves as a desktop resolves it (GNOME's gio, through xdg-mime), by
        // the name's extension and by a drawing's first bytes; and the app opens it.
        let desktopEnvironment = ["XDG_DATA_DIRS": prefix + "/share:/usr/share", "XDG_DATA_HOME": work + "/data",
                                  "XDG_CONFIG_HOME": work + "/config", "XDG_CURRENT_DESKTOP": "GNOME"]
        let drawing = "{\"format\":\"touchtracker-drawing\",\"version\":1,\"strokes\":[]}\n"
        for name in ["sketch.touchtracker", "sketch-without-extension"] {
            try drawing.write(toFile: work + "/" + name, atomically: true, encoding: .utf8)
            let type = try run(["xdg-mime", "query", "filetype", work + "/" + name], environment: desktopEnvironment)
            #expect(type.output.trimmingCharacters(in: .whitespacesAndNewlines) == "application/vnd.touchtracker.drawing+json",
                    "\(name): \(type.output)")
        }
        let opener = try run(["xdg-mime", "query", "default", "application/vnd.touchtracker.drawing+json"], environment: desktopEnvironment)
        #expect(opener.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(appID).desktop", "\(opener.output)")
        let version = try run([prefix + "/bin/touchtracker", "--version"])
        #expect(version.status == 0 && version.output.hasPrefix("0."), "\(version.output)")
        let svg = try String(contentsOfFile: prefix + "/share/icons/hicolor/scalable/apps/\(appID).svg", encoding: .utf8)
        #expect(svg.contains("<svg"))
        // The meson test targets validate the .desktop file and the listing too.
        let mesonTest = try run(["meson", "test", "-C", work + "/build", "desktop-file", "metainfo"])
        #expect(mesonTest.status == 0, "\(mesonTest.output)")

        // The software-centre listing: valid for AppStream with no error, warning or note, tied to
        // the .desktop file and to the drawing type.
        let metainfo = prefix + "/share/metainfo/\(appID).metainfo.xml"
        let listing = try run(["appstreamcli", "validate", "--no-net", metainfo])
        #expect(listing.status == 0, "\(listing.output)")
        let problems = listing.output.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") || $0.hasPrefix("I:") }
        #expect(problems.isEmpty, "\(listing.output)")
        let component = try String(contentsOfFile: metainfo, encoding: .utf8)
        #expect(component.contains("<launchable type=\"desktop-id\">\(appID).desktop</launchable>"))
        #expect(component.contains("<mediatype>application/vnd.touchtracker.drawing+json</mediatype>"))
        #expect(component.contains("<control>touch</control>") && component.contains("<content_rating type=\"oars-1.1\""))
        #expect(component.contains("<display_length compare=\"ge\">360</display_length>"), "a phone's width is enough")
        #expect(!component.contains("@URL@"), "the project address is filled in")
    }

    @Test("Every screenshot the listing names is in the repository, a PNG of the app of the size the listing says, light and dark, and a phone")
    func listingScreenshotsExist() throws {
        let template = try String(contentsOfFile: HarnessPaths.packageRoot
            + "/meson-helpers/data/org.touchtracker.TouchTracker.metainfo.xml.in", encoding: .utf8)
        // "<image type="source" width="W" height="H">@URL@/raw/HEAD/data/screenshots/drawing.png</image>":
        // the size and the path in the repository.
        let images = template.components(separatedBy: "<image").dropFirst().compactMap { element -> (String, Int, Int)? in
            guard let start = element.range(of: "@URL@/raw/HEAD/"), let end = element.range(of: "</image>") else { return nil }
            func attribute(_ name: String) -> Int? {
                guard let from = element.range(of: name + "=\"") else { return nil }
                return Int(element[from.upperBound...].prefix { $0 != "\"" })
            }
            return (String(element[start.upperBound..<end.lowerBound]), attribute("width") ?? 0, attribute("height") ?? 0)
        }
        #expect(images.count == template.components(separatedBy: "<image").count - 1, "every image is in the repository")
        #expect(images.count >= 5)
        var bars: Set<String> = []
        for (image, width, height) in images {
            let path = HarnessPaths.packageRoot + "/" + image
            let shot = try Screenshot(contentsOf: path)
            #expect(shot.width == width && shot.height == height, "\(image): \(shot.width) x \(shot.height)")
            // The app's toolbar is along the bottom, its bar's grey (light or dark) behind the buttons.
            let bar = shot.pixel(x: 4, y: height - 4)
            #expect(bar == Pixel(red: 0xEB, green: 0xEB, blue: 0xEB) || bar == Pixel(red: 0x30, green: 0x30, blue: 0x30),
                    "\(image) shows the app")
            bars.insert(bar.map(\.description) ?? "")
        }
        #expect(bars.count == 2, "the light style and the dark")
        #expect(images.contains { $0.2 > $0.1 }, "a phone in portrait")
    }
}
