import Glibc
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Preferences")
struct PreferencesTests {
    @Test("A8: the tool, toggles and pen colour read back exactly")
    func roundTrip() {
        var p = Preferences()
        p.tool = .circle
        p.colorsByAngle = true
        p.widthFollowsSpeed = true
        p.drawsWithFingers = false
        p.penColor = Color(red: 0.2, green: 0.5176470588235295, blue: 0.8941176470588236, alpha: 1)
        let (read, warnings) = Preferences.parse(p.text)
        #expect(read == p && warnings.isEmpty)
        #expect(Preferences.parse("").preferences == Preferences(), "an empty file: the defaults")
    }

    @Test("What cannot be read is skipped with a warning naming its line; the rest is kept; a newer version's settings are ignored")
    func brokenLines() {
        let text = "tool = freehand\ncolours-by-angle = yes\n\nnonsense\npen-colour = 2 0 0 1\nsparkles = on\nwidth-by-speed=true\r\n"
        let (read, warnings) = Preferences.parse(text)
        #expect(read.tool == .freehand && read.widthFollowsSpeed && !read.colorsByAngle && read.penColor == .black)
        #expect(warnings == [
            "line 2: colours-by-angle is true or false, not 'yes'",
            "line 4: 'nonsense' is not 'name = value'",
            "line 5: pen-colour is four numbers from 0 to 1 (red green blue alpha), not '2 0 0 1'",
        ])
    }

    @Test("The file lives under $XDG_CONFIG_HOME (else ~/.config); a missing file is the defaults, an unreadable one a warning; saving makes the folder")
    func file() throws {
        #expect(Preferences.defaultFile(environment: { ["XDG_CONFIG_HOME": "/c", "HOME": "/h"][$0] }) == "/c/touchtracker/preferences")
        #expect(Preferences.defaultFile(environment: { ["XDG_CONFIG_HOME": "relative", "HOME": "/h"][$0] }) == "/h/.config/touchtracker/preferences")
        var template = Array("/tmp/tt-prefs-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let path = folder + "/deep/touchtracker/preferences"
        let missing = Preferences.load(path)
        #expect(missing.preferences == Preferences() && missing.warnings.isEmpty)
        var p = Preferences()
        p.tool = .freehand
        try p.save(to: path)
        #expect(Preferences.load(path).preferences == p)
        // A folder where the file should be: one warning, the defaults.
        let (defaults, warnings) = Preferences.load(folder)
        #expect(defaults == Preferences() && warnings.count == 1)
    }

    @Test("A8: the controller shows the preferences it is given and tells of every change from the toolbar")
    func controller() {
        let canvas = Canvas()
        var told: [Preferences] = []
        canvas.controller.onPreferencesChange = { told.append($0) }
        var p = Preferences()
        p.tool = .freehand
        p.colorsByAngle = true
        canvas.controller.preferences = p
        #expect(canvas.drawView.tool == .freehand && canvas.drawView.colorsByAngle)
        #expect(told.isEmpty, "setting them is no change by the user")
        canvas.controller.toolbar.speedButton.sendActions(for: .touchUpInside)
        #expect(told.last?.widthFollowsSpeed == true && told.last?.tool == .freehand)
    }
}
