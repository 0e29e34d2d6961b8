// The app in the user's language (gettext catalogues from po/): under a real Weston the toolbar
// shows German or Hebrew words, compared pixel for pixel with the toolbar drawn here with the
// words of po/de.po or po/he.po; a language or catalogue that is missing leaves it in English.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation
import Graphics
import Testing
import TouchKit
import TouchTrackerKit
import WaylandHost

/// The app's window as it first shows (or, `afterALine`, its toolbar once a line is drawn), drawn
/// in this process at `scale`, its toolbar titles (English here: the tests run in the C locale)
/// put through `translate`, laid out in `direction`, in `style`.
func expectedWindow(width: Double, height: Double, showsTitleBar: Bool = true, scale: Double = 1,
                    afterALine: Bool = false, direction: LayoutDirection = .leftToRight, style: Appearance = .light,
                    translate: (String) -> String = { $0 }) -> (image: ImageSurface, buttons: [Button]) {
    let application = Application(clock: ManualClock())
    let window = WaylandHost.offscreenWindow(title: "TouchTracker", size: Size(width: width, height: height),
                                             showsTitleBar: showsTitleBar)
    application.addWindow(window)
    window.desktopAppearance = style
    let controller = DrawViewController()
    controller.toolbar.direction = direction
    window.rootViewController = controller
    let buttons = controller.toolbar.subviews.compactMap { $0 as? Button }
    for button in buttons { button.title = translate(button.title) }
    // After a line, Undo is enabled.
    if afterALine { controller.toolbar.undoButton.isEnabled = true }
    window.layoutIfNeeded()
    let shown = buttons.filter { !$0.isHidden }
    // Pixels as the app's buffer has them: `paint` applies the scale itself.
    let image = ImageSurface(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()))
    window.paint(window.takeDirtyRegion(), into: image, scale: scale)
    return (image, shown)
}

/// Pixels of the toolbar (the bottom rows) that differ between `image` and the part of `shot` at
/// `origin` (the window's place on the screen), leaving out the bottom-right corner where the
/// parked pointer's cursor is; with one example.
func toolbarDifferences(_ image: ImageSurface, _ shot: Screenshot, origin: (x: Int, y: Int)) -> (count: Int, example: String) {
    var count = 0, example = ""
    for y in (image.height - Int(ToolbarView.height))..<image.height {
        for x in 0..<(image.width - 40) {
            guard let expected = image.color(x: x, y: y),
                  let seen = shot.pixel(x: origin.x + x, y: origin.y + y) else { continue }
            let want = Pixel(red: UInt8((expected.red * 255).rounded()), green: UInt8((expected.green * 255).rounded()),
                             blue: UInt8((expected.blue * 255).rounded()))
            if !seen.isClose(to: want, tolerance: 4) {
                count += 1
                if example.isEmpty { example = "\(x),\(y): expected \(want), saw \(seen)" }
            }
        }
    }
    return (count, example)
}

/// The same comparison between two pictures drawn here.
func toolbarDifferences(_ a: ImageSurface, _ b: ImageSurface) -> Int {
    var count = 0
    for y in (a.height - Int(ToolbarView.height))..<a.height {
        for x in 0..<a.width where a.color(x: x, y: y) != b.color(x: x, y: y) { count += 1 }
    }
    return count
}

/// The window as `touchtracker replay` draws it with no input (as it first shows, 1024 by 768),
/// run by `executable` (the tests' build unless given) with `environment` added; no compositor.
func replayedWindow(executable: String? = nil, environment: [String: String]) throws -> (status: Int32, error: String, shot: Screenshot?) {
    let folder = NSTemporaryDirectory() + "tt-replayed-window-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = folder + "/empty.ttrec", picture = folder + "/window.png"
    try "touchtracker-input 1\nwindow 1024 768 1 titlebar\n".write(toFile: recording, atomically: true, encoding: .utf8)
    let arguments = ["replay", recording, "--window-png", picture]
    let (status, error): (Int32, String)
    if let executable {
        (status, error) = try runCommand([executable] + arguments, environment: environment)
    } else {
        let run = try runTouchTracker(arguments, environment: environment)
        (status, error) = (run.status, run.error)
    }
    return (status, error, try? Screenshot(contentsOf: picture))
}

@Suite("Translations")
struct TranslationTests {
    /// Where screenshots are kept for a look (not removed).
    static let shots = NSTemporaryDirectory() + "tt-translation-shots"

    /// Runs the app under Weston with `environment` and compares its toolbar with the one drawn
    /// with `language`'s words (nil: English), laid out in `direction`.
    static func expectToolbar(environment: [String: String], language: String?, direction: LayoutDirection = .leftToRight,
                              shotName: String) {
        withApp(arguments: ["--verbose"], environment: environment) { app in
            let words = try language.map { try POFile($0 + ".po").translations } ?? [:]
            let (expected, _) = expectedWindow(width: app.window.width, height: app.window.height, direction: direction) { words[$0] ?? $0 }
            try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
            var last = (count: -1, example: "")
            // The first frames may still be on their way: wait for the toolbar to settle.
            let deadline = Date().addingTimeInterval(5)
            repeat {
                let shot = try app.session.screenshot(to: shots + "/" + shotName + ".png")
                last = toolbarDifferences(expected, shot, origin: (Int(app.window.x), Int(app.window.y)))
                if last.count == 0 { break }
                usleep(100_000)
            } while Date() < deadline
            #expect(last.count == 0, "\(last.count) toolbar pixels differ, e.g. \(last.example); see \(shots)/\(shotName).png")
            try expected.writePNG(to: shots + "/" + shotName + "-expected.png")
        }
    }

    @Test("LANGUAGE=de: the toolbar shows po/de.po's German words (Rückgängig, Wiederholen, ...)")
    func germanToolbar() throws {
        // The comparison tells the languages apart: German and English toolbars differ.
        let german = try POFile("de.po").translations
        #expect(german["Undo"] == "Rückgängig")
        let english = expectedWindow(width: 1024, height: 768) { $0 }.image
        #expect(toolbarDifferences(expectedWindow(width: 1024, height: 768) { german[$0] ?? $0 }.image, english) > 500)
        Self.expectToolbar(environment: ["LANGUAGE": "de"], language: "de", shotName: "de")
    }

    @Test("A12: LANGUAGE=he, the toolbar shows po/he.po's Hebrew words, shaped right to left, each inside its button, the bar mirrored")
    func hebrewToolbar() throws {
        let hebrew = try POFile("he.po").translations
        let (_, buttons) = expectedWindow(width: 1024, height: 768) { hebrew[$0] ?? $0 }
        let measure = CairoContext(surface: ImageSurface(width: 10, height: 10))
        for button in buttons {
            #expect(button.title.unicodeScalars.contains { (0x0590...0x05FF).contains($0.value) }, "\(button.title) is not Hebrew")
            // Beside its icon: the words shown, and inside the room the icon leaves.
            let size = try #require(button.titleFontSizeBesideIcon(in: measure), "\(button.title) shows beside its icon")
            let width = measure.measureText(button.title, fontSize: size).width
            let room = button.bounds.width - 8 - Button.iconSize - 6
            #expect(width > 8 && width <= room + 0.01, "\(button.title) is \(width) pt wide beside the icon in a \(button.bounds.width) pt button")
        }
        Self.expectToolbar(environment: ["LANGUAGE": "he"], language: "he", direction: .rightToLeft, shotName: "he")
    }

    @Test("A language with no catalogue, or no catalogues at all, leaves the window in English; Spanish shows Spanish")
    func fallbackToEnglish() throws {
        let english = expectedWindow(width: 1024, height: 768) { $0 }.image
        let spanishWords = try POFile("es.po").translations
        let spanish = expectedWindow(width: 1024, height: 768) { spanishWords[$0] ?? $0 }.image
        let cases: [(String, [String: String], ImageSurface)] = [
            ("no catalogue for the language", ["LANGUAGE": "xx"], english),
            ("no catalogues where they are looked for", ["LANGUAGE": "de", "TOUCHTRACKER_LOCALEDIR": "/nonexistent"], english),
            ("a locale that is not installed, no catalogue for it", ["LC_ALL": "xx_YY.UTF-8"], english),
            ("Spanish", ["LANGUAGE": "es"], spanish),
        ]
        for (what, environment, expected) in cases {
            let replay = try replayedWindow(environment: environment)
            #expect(replay.status == 0, "\(what): \(replay.error)")
            let drawn = try #require(replay.shot, "\(what): no picture")
            let (count, example) = toolbarDifferences(expected, drawn, origin: (0, 0))
            #expect(count == 0, "\(what): \(count) toolbar pixels differ, e.g. \(example)")
        }
    }
}
