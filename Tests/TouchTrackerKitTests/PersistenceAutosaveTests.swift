// Autosave as the user relies on it: every finished change reaches the file within the delay, a
// failing save shows the banner and is retried until it works, quitting saves what is left.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Graphics
import Logging
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: autosave")
struct PersistenceAutosaveTests {
    func line(_ drawing: Drawing, _ x: Double) {
        drawing.add(.line(drawing.makeID(), from: Point(x: x, y: 10), to: Point(x: x + 50, y: 60)))
    }

    func saved(_ path: String) -> [Stroke]? {
        guard let bytes = readFile(path) else { return nil }
        return try? DrawingFormat.decode(bytes)
    }

    @Test("A change is on disk once the delay has passed, and a burst of changes costs one save")
    func debounced() {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let clock = ManualClock()
        let drawing = Drawing()
        let saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 0.2, inBackground: false)
        var statuses: [Autosaver.Status] = []
        saver.onStatusChange = { statuses.append($0) }
        line(drawing, 10)
        clock.advance(by: 0.1)
        line(drawing, 20)
        #expect(saved(path) == nil, "not before the delay")
        clock.advance(by: 0.1)
        #expect(saved(path)?.count == 2)
        #expect(statuses == [.unsaved, .saved])
        // Undo is a change like any other.
        drawing.undoStack.undo()
        clock.advance(by: 0.2)
        #expect(saved(path)?.map(\.id) == [StrokeID(1)])
        #expect(!saver.hasUnsavedChanges)
    }

    @Test("A failing save reports once, keeps the drawing, retries, and recovers when the disk does")
    func retriesUntilItWorks() throws {
        let folder = TemporaryFolder()
        let path = folder.file("later/drawing.json")
        let clock = ManualClock()
        let drawing = Drawing()
        let log = LogRecorder()
        let saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 0.2, inBackground: false,
                              logger: Logger(label: "test") { _ in log })
        saver.retryDelays = [1, 2]
        line(drawing, 10)
        clock.advance(by: 0.2)
        guard case .failing(let error) = saver.status else {
            Issue.record("status \(saver.status)")
            return
        }
        #expect(error.reason == "No such file or directory")
        line(drawing, 20)
        clock.advance(by: 3)  // two more attempts fail
        #expect(log.lines.filter { $0.contains("cannot create a temporary file") }.count == 1, "reported once: \(log.lines)")
        #expect(drawing.strokes.count == 2)
        mkdir(folder.file("later"), 0o755)
        clock.advance(by: 2)
        #expect(saver.status == .saved)
        #expect(saved(path)?.count == 2)
        #expect(log.lines.contains { $0.contains("saved \(path) again") })
    }

    @Test("saveNow writes pending changes at once (quitting), waiting for a background save")
    func saveNowOnQuit() {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let clock = ManualClock()
        let drawing = Drawing()
        let saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 60, inBackground: true)
        for x in stride(from: 0.0, to: 500, by: 10) { line(drawing, x) }
        #expect(saver.saveNow() == nil)
        #expect(saved(path)?.count == 50)
        #expect(saver.status == .saved)
    }

    @Test("In the background the event loop only polls; the file follows the drawing")
    func backgroundSaves() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let clock = EventLoopClock { tt_monotonic_now() }
        let drawing = Drawing()
        let saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 0.05, inBackground: true)
        for x in stride(from: 0.0, to: 300, by: 10) { line(drawing, x) }
        let deadline = tt_monotonic_now() + 5
        while saver.status != .saved, tt_monotonic_now() < deadline {
            usleep(2000)
            clock.fireDueTimers()
        }
        #expect(saver.status == .saved)
        #expect(identical(saved(path) ?? [], drawing.strokes))
        #expect(saver.lastReport.map { $0.strokes } == 30)
    }

    @Test("The banner shows a failing save in red with its reason, over the canvas, and goes when saving works")
    func bannerForFailingSave() throws {
        let folder = TemporaryFolder()
        let path = folder.file("gone/drawing.json")
        let clock = ManualClock()
        let failing = DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
        // The folder goes away before the first save, as a removed or unmounted folder would.
        rmdir(folder.file("gone"))
        let window = Window(frame: Rect(x: 0, y: 0, width: 800, height: 300))
        let controller = DrawViewController(drawing: failing.drawing)
        window.rootViewController = controller
        failing.noticeDisplay = controller
        failing.drawing.add(.line(StrokeID(1), from: Point(x: 20, y: 10), to: Point(x: 780, y: 10)))
        clock.advance(by: 0.2)
        #expect(controller.banner.isShowing)
        #expect(controller.banner.message == "Cannot save drawing.json: No such file or directory. Your drawing is kept; retrying…")
        let image = render(window)
        #expect(image.color(x: 4, y: 4) == Appearance.light.bannerError, "the red strip")
        #expect(countPixels(image, inX: 0..<800, y: 0..<36) { ($0.red + $0.green + $0.blue) > 2.7 } > 200, "white text")
        #expect(image.color(x: 400, y: 150) == .white, "the canvas below")
        mkdir(folder.file("gone"), 0o755)
        clock.advance(by: 1)
        #expect(!controller.banner.isShowing)
        #expect(render(window).color(x: 4, y: 4) == .white)
        #expect(saved(path)?.count == 1)
    }

    @Test("A document opened from an unreadable file shows why in the banner for a while")
    func bannerForUnreadableFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        writeFile(path, "{\"format\": \"touchtracker-drawing\", \"version\": 3, \"strokes\": []}")
        let clock = ManualClock()
        let document = DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
        let controller = DrawViewController(drawing: document.drawing)
        document.noticeDisplay = controller
        #expect(document.drawing.strokes.isEmpty)
        #expect(controller.banner.isShowing && controller.banner.style == .error)
        #expect(controller.banner.message.hasPrefix("Could not read drawing.json (line 1, column 47: format version 3 is newer"))
        clock.advance(by: 0.2)
        #expect(readFile(path).flatMap { try? DrawingFormat.decode($0) } == [], "the freed path holds the new empty drawing")
        clock.advance(by: 20)
        #expect(!controller.banner.isShowing)
    }

    @Test("Closing saves the last change; if the file cannot be written the drawing goes to a rescue file")
    func closeRescues() throws {
        let folder = TemporaryFolder()
        let path = folder.file("sub/drawing.json")
        let clock = ManualClock()
        let document = DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), autosaveDelay: 60,
                                       saveInBackground: false)
        document.drawing.add(.line(StrokeID(1), from: .zero, to: Point(x: 5, y: 5)))
        _ = system("rm -rf '\(folder.file("sub"))'")
        let message = try #require(document.close(rescueFolders: [folder.path]))
        #expect(message.hasPrefix("cannot create a temporary file in \(folder.path)/sub: No such file or directory; saved the drawing to \(folder.path)/drawing-rescued-"))
        let rescued = try #require(folder.names.first { $0.hasPrefix("drawing-rescued-") })
        #expect(saved(folder.file(rescued))?.count == 1)
    }
}

/// Renders a window the way the host does, into an image.
func render(_ window: Window) -> ImageSurface {
    let image = ImageSurface(width: Int(window.bounds.width), height: Int(window.bounds.height))
    window.layoutIfNeeded()
    window.render(window.bounds, in: CairoContext(surface: image))
    return image
}

func countPixels(_ image: ImageSurface, inX xs: Range<Int>, y ys: Range<Int>, _ test: (Color) -> Bool) -> Int {
    var n = 0
    for y in ys {
        for x in xs where image.color(x: x, y: y).map(test) == true { n += 1 }
    }
    return n
}

/// Collects log lines for assertions.
final class LogRecorder: LogHandler, @unchecked Sendable {
    private(set) var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level) \(event.message)")
    }
}
