// Ctrl+Shift+E, Export As: the desktop's Save dialog (xdg-desktop-portal's FileChooser) picks the
// file, PNG or SVG, starting in the pictures folder; the app writes it. Cancelling writes nothing
// and says nothing. Without a portal (no session bus, or no portal on it: Weston, Sway without
// one), the drawing goes to the pictures folder as Ctrl+E puts it there, and the banner says where.
import DesktopPortal
import Logging
import TouchKit
import TouchTrackerKit

final class ExportAs {
    static let filters = [
        FileChooserPortal.Filter(name: "PNG image", patterns: ["*.png"], mimeTypes: ["image/png"]),
        FileChooserPortal.Filter(name: "SVG image", patterns: ["*.svg"], mimeTypes: ["image/svg+xml"]),
    ]
    /// How often the bus is read while the dialog is open: quick enough to feel immediate,
    /// rare enough to cost nothing.
    static let pollInterval = 0.05

    private let document: DrawingDocument
    private let clock: Clock
    private let logger: Logger
    /// Made on first use: a start never waits for the bus.
    private var portal: FileChooserPortal?
    private var pollTimer: TimerToken?

    init(document: DrawingDocument, clock: Clock, logger: Logger) {
        self.document = document
        self.clock = clock
        self.logger = logger
    }

    /// Opens the Save dialog (once: a second Ctrl+Shift+E while it is open does nothing).
    func run(canvas: Size) {
        if portal?.isWaiting == true { return }
        do throws(PortalError) {
            if portal == nil { portal = try FileChooserPortal(environment: DrawingLocation.environment) }
        } catch {
            return exportDirectly(canvas: canvas, because: error.description)
        }
        guard let portal else { return }
        let folder = DrawingLocation.picturesDirectory()
        // The dialog opens in the pictures folder: it must exist (a new account may not have it).
        try? DrawingFile.createFolder(folder)
        let name = DrawingFile.name(of: document.exportPaths(in: folder).png)
        portal.saveFile(title: "Export Drawing", currentName: name, currentFolder: folder, filters: Self.filters) {
            [unowned self] outcome in self.finish(outcome, canvas: canvas)
        }
        poll()
    }

    private func poll() {
        pollTimer = nil
        guard let portal else { return }
        portal.poll()
        if portal.isWaiting {
            pollTimer = clock.schedule(at: clock.now + Self.pollInterval) { [weak self] in self?.poll() }
        }
    }

    private func finish(_ outcome: FileChooserPortal.Outcome, canvas: Size) {
        switch outcome {
        case .chosen(let path, let filter):
            document.startExport(canvas: canvas, to: Self.withExtension(path, filter: filter))
        case .cancelled:
            logger.debug("export cancelled in the Save dialog")
        case .unavailable(let reason):
            exportDirectly(canvas: canvas, because: reason)
        }
    }

    private func exportDirectly(canvas: Size, because reason: String) {
        logger.notice("no Save dialog (\(reason)): exporting to the pictures folder")
        document.startExport(canvas: canvas)
    }

    /// The chosen name, with the chosen type's extension when the user typed none. The dialog
    /// asked about replacing the name as typed, not the one with the extension, so an existing
    /// file of that name is kept and the picture takes the next free numbered name.
    static func withExtension(_ path: String, filter: Int?) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") || lower.hasSuffix(".svg") { return path }
        return DrawingFile.freePath(path + (filter == 1 ? ".svg" : ".png"))
    }
}
