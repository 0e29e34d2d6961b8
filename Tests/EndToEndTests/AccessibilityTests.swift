// The app as assistive tools see it on a real accessibility bus (at-spi2-core's, read through
// libatspi as Orca reads it), the app under Weston: the toolbar's controls with names, roles and
// states in English and German, Undo pressed through the Action interface, and a line drawn by
// touch published as a child of the canvas with its description, with the events that say so.
#if canImport(Glibc)
import Glibc
#endif
import CompositorHarness
import Foundation
import Testing

/// One object of the tree the client printed.
struct PublishedNode {
    let json: [String: Any]

    var name: String { json["name"] as? String ?? "" }
    var role: String { json["role"] as? String ?? "" }
    var states: Set<String> { Set(json["states"] as? [String] ?? []) }
    var description: String { json["description"] as? String ?? "" }
    var actions: [String] { json["actions"] as? [String] ?? [] }
    var children: [PublishedNode] { (json["children"] as? [[String: Any]] ?? []).map(PublishedNode.init) }

    func child(_ name: String) throws -> PublishedNode {
        guard let found = children.first(where: { $0.name == name }) else {
            throw HarnessError("no \(name) under \(self.name): \(children.map(\.name))")
        }
        return found
    }
}

@Suite("Accessibility over AT-SPI", .serialized)
struct AccessibilityTests {
    /// The wide toolbar's controls, in English.
    static let toolbar = ["New", "Undo", "Redo", "Line", "Free", "Circle", "Angle", "Speed", "Fingers", "Colours"]

    /// The app under Weston on a private accessibility bus, with `environment` added.
    static func withPublishedApp(environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation,
                                 _ body: (AppUnderTest, AccessibilityBusUnderTest) throws -> Void) {
        let bus: AccessibilityBusUnderTest
        do {
            bus = try AccessibilityBusUnderTest()
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return
        }
        defer { bus.stop() }
        withApp(arguments: ["--verbose"], environment: bus.environment.merging(environment) { $1 }, sourceLocation: sourceLocation) { app in
            try body(app, bus)
        }
    }

    @Test("E9: with a session bus but no accessibility bus the app says so once, publishes nothing and draws as ever")
    func noAccessibilityBus() {
        let bus: AccessibilityBusUnderTest
        do {
            bus = try AccessibilityBusUnderTest(accessibility: false)
        } catch {
            Issue.record("\(error)")
            return
        }
        defer { bus.stop() }
        withApp(arguments: ["--verbose"], environment: bus.environment) { app in
            try app.drawLine(1, from: (100, 100), to: (500, 400))
            try app.expectScreen("the line, black") { $0(300, 250) == .black }
            let log = app.app.standardError
            #expect(log.contains("not published for assistive tools: no accessibility bus"), "\(log)")
            #expect(!log.contains("published for assistive tools on the accessibility bus"))
        }
    }

    static func tree(_ bus: AccessibilityBusUnderTest, app name: String = "TouchTracker") throws -> PublishedNode {
        let json = try bus.client(["tree", name])
        guard let object = json as? [String: Any] else { throw HarnessError("not a tree: \(json)") }
        return PublishedNode(json: object)
    }

    /// The tree once `condition` holds (the app answers from its state at each call).
    static func tree(_ bus: AccessibilityBusUnderTest, app name: String = "TouchTracker", until what: String,
                     _ condition: (PublishedNode) throws -> Bool) throws -> PublishedNode {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let tree = try tree(bus, app: name)
            if try condition(tree) { return tree }
            if Date() > deadline { throw HarnessError("the tree never showed \(what): \(tree.json)") }
            usleep(100_000)
        }
    }

    @Test("E8: the application holds its window, the canvas and the toolbar's controls: named push and toggle buttons, the tool checked, Undo and Redo not enabled")
    func toolbarInEnglish() {
        Self.withPublishedApp { _, bus in
            let started = Date()
            let app = try Self.tree(bus)
            // libatspi waits up to 15 s for an answer that does not come: every call is answered at once.
            #expect(Date().timeIntervalSince(started) < 8, "reading the tree took \(Date().timeIntervalSince(started)) s")
            #expect(app.role == "application")
            let frame = try app.child("TouchTracker")
            #expect(frame.role == "frame" && frame.states.contains("active"))
            let canvas = try frame.child("Drawing")
            #expect(canvas.role == "canvas" && canvas.description == "Lines: 0")
            let bar = try frame.child("Toolbar")
            #expect(bar.children.map(\.name) == Self.toolbar)
            #expect(try bar.child("New").role == "push button")
            #expect(try bar.child("Undo").role == "push button")
            let undo = try bar.child("Undo"), redo = try bar.child("Redo")
            #expect(!undo.states.contains("enabled") && !undo.states.contains("sensitive") && !redo.states.contains("enabled"))
            #expect(try bar.child("New").states.isSuperset(of: ["enabled", "sensitive", "showing", "visible"]))
            let line = try bar.child("Line"), circle = try bar.child("Circle")
            #expect(line.role == "toggle button" && line.states.contains("checked"))
            #expect(circle.role == "toggle button" && !circle.states.contains("checked") && circle.states.contains("checkable"))
            #expect(try bar.child("Fingers").states.contains("checked"))
            #expect(line.actions == ["click"])
            // Extents in window coordinates: each control a finger's size.
            let extents = line.json["extents"] as? [Int] ?? []
            #expect(extents.count == 4 && extents[2] >= 44 && extents[3] >= 44)
        }
    }

    @Test("E8: LANGUAGE=de: the same tree with po/de.po's words")
    func toolbarInGerman() throws {
        let german = try POFile("de.po").messages
        func de(_ english: String) -> String { german.first { $0.msgid == english }?.msgstr ?? "(no translation of \(english))" }
        // The catalogue as po/de.po has it now, compiled for this run.
        let catalogues = try HarnessPaths.privateFolder("a11y-locale")
        defer { try? FileManager.default.removeItem(atPath: catalogues) }
        try FileManager.default.createDirectory(atPath: catalogues + "/de/LC_MESSAGES", withIntermediateDirectories: true)
        let compiled = try runCommand(["msgfmt", "-o", catalogues + "/de/LC_MESSAGES/touchtracker.mo", POFile.path("de.po")])
        #expect(compiled.status == 0, "\(compiled.output)")
        Self.withPublishedApp(environment: ["LANGUAGE": "de", "TOUCHTRACKER_LOCALEDIR": catalogues]) { _, bus in
            let app = try Self.tree(bus, app: de("TouchTracker"))
            let frame = try app.child(de("TouchTracker"))
            #expect(try frame.child(de("Drawing")).description == de("Lines: {count}").replacingOccurrences(of: "{count}", with: "0"))
            let bar = try frame.child(de("Toolbar"))
            #expect(bar.children.map(\.name) == Self.toolbar.map(de))
            #expect(bar.children.map(\.name) != Self.toolbar, "German differs from English")
            #expect(try bar.child(de("Undo")).role == "push button")
            #expect(try bar.child(de("Line")).states.contains("checked"))
        }
    }

    @Test("E8: pressing Undo through the Action interface undoes the line drawn by touch")
    func undoThroughAction() {
        Self.withPublishedApp { app, bus in
            try app.drawLine(1, from: (100, 100), to: (500, 400))
            try app.expectScreen("the line, black") { $0(300, 250) == .black }
            let before = try Self.tree(bus, until: "Undo enabled") { try $0.child("TouchTracker").child("Toolbar").child("Undo").states.contains("enabled") }
            #expect(try before.child("TouchTracker").child("Drawing").description == "Lines: 1")
            let pressed = try bus.client(["do", "TouchTracker", "TouchTracker/Toolbar/Undo", "click"]) as? [String: Any]
            #expect(pressed?["done"] as? Bool == true)
            try app.expectScreen("the line undone") { $0(300, 250) == .white }
            let after = try Self.tree(bus)
            #expect(try after.child("TouchTracker").child("Drawing").description == "Lines: 0")
            let bar = try after.child("TouchTracker").child("Toolbar")
            #expect(try !bar.child("Undo").states.contains("enabled") && bar.child("Redo").states.contains("enabled"))
        }
    }

    @Test("E10: a banner's message is sent as an announcement: New on an empty drawing says so")
    func bannerAnnounced() {
        Self.withPublishedApp { app, bus in
            let watch = try bus.watch("TouchTracker", seconds: 4)
            let pressed = try bus.client(["do", "TouchTracker", "TouchTracker/Toolbar/New", "click"]) as? [String: Any]
            #expect(pressed?["done"] as? Bool == true)
            _ = watch.waitForExit(timeout: 10)
            let announced = watch.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { ($0["type"] as? String ?? "").hasPrefix("object:announcement") }
            #expect(announced.contains { ($0["data"] as? String ?? "").contains("is empty: draw here") }, "\(watch.standardOutput)")
        }
    }

    @Test("E8: the edit menu, while it shows, is a popup menu beside the window whose items pick as a tap on them does")
    func editMenu() {
        Self.withPublishedApp { app, bus in
            try app.drawLine(0, from: (200, 300), to: (600, 300))
            try app.tap(1, 400, 310)
            _ = try app.waitForPopup()
            let tree = try Self.tree(bus, until: "the menu") { $0.children.contains { $0.name == "Edit menu" } }
            let menu = try tree.child("Edit menu")
            #expect(menu.role == "popup menu")
            #expect(menu.children.map(\.name) == ["Delete", "Copy"], "Paste shows only with TouchTracker's lines on the clipboard (P5)")
            #expect(menu.children.allSatisfy { $0.role == "menu item" && $0.actions == ["click"] })
            let picked = try bus.client(["do", "TouchTracker", "Edit menu/Delete", "click"]) as? [String: Any]
            #expect(picked?["done"] as? Bool == true)
            try app.waitForNoPopup()
            try app.expectScreen("the line deleted") { $0(400, 300) == .white }
            #expect(try !Self.tree(bus).children.contains { $0.name == "Edit menu" })
        }
    }

    @Test("E8, E10: a line drawn by touch is a child of the canvas with its description; its Delete action deletes it; events say both")
    func lineAsChild() {
        Self.withPublishedApp { app, bus in
            let watch = try bus.watch("TouchTracker", seconds: 12)
            // The canvas is the window less its 46-point title bar and its toolbar: 1024 by 662.
            try app.drawLine(1, from: (100, 100), to: (500, 400))
            try app.expectScreen("the line, black") { $0(300, 250) == .black }
            let tree = try Self.tree(bus, until: "the line") { try !$0.child("TouchTracker").child("Drawing").children.isEmpty }
            let canvas = try tree.child("TouchTracker").child("Drawing")
            #expect(canvas.children.map(\.name) == ["Line 1 of 1"])
            let line = try canvas.child("Line 1 of 1")
            #expect(line.description == "black, from the upper left towards the centre, 500 points long")
            #expect(line.role == "image" && line.actions == ["select", "Delete"])
            #expect(line.states.contains("selectable") && !line.states.contains("selected"))
            let extents = line.json["extents"] as? [Int] ?? []
            #expect(extents.count == 4 && abs(extents[0] - 100) <= 10 && abs(extents[1] - 100) <= 10 && abs(extents[2] - 400) <= 16, "\(extents)")
            let selected = try bus.client(["do", "TouchTracker", "TouchTracker/Drawing/Line 1 of 1", "select"]) as? [String: Any]
            #expect(selected?["done"] as? Bool == true)
            try app.expectScreen("the line selected, green") { $0(300, 250).green > 150 && $0(300, 250).red < 100 }
            #expect(try Self.tree(bus).child("TouchTracker").child("Drawing").child("Line 1 of 1").states.contains("selected"))
            let deleted = try bus.client(["do", "TouchTracker", "TouchTracker/Drawing/Line 1 of 1", "Delete"]) as? [String: Any]
            #expect(deleted?["done"] as? Bool == true)
            try app.expectScreen("the line deleted") { $0(300, 250) == .white }
            #expect(try Self.tree(bus).child("TouchTracker").child("Drawing").children.isEmpty)
            _ = watch.waitForExit(timeout: 15)
            let events = watch.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            func saw(_ type: String, _ source: String, _ data: String? = nil) -> Bool {
                events.contains { $0["type"] as? String == type && $0["source"] as? String == source && (data == nil || $0["data"] as? String == data) }
            }
            #expect(saw("object:children-changed:add", "Drawing", "Line 1 of 1"), "\(events)")
            #expect(saw("object:children-changed:remove", "Drawing"), "\(events)")
            #expect(saw("object:state-changed:enabled", "Undo"), "\(events)")
        }
    }
}
