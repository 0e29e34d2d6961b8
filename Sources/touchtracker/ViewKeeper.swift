// Each drawing's view (where it was scrolled and zoomed) kept across starts: the drawing opens as
// it was left, else whole (CanvasScrollView.InitialView), and the view is written a second after
// it comes to rest, and at the end, to the state folder's views file (DrawingViews).
import Logging
import TouchKit
import TouchTrackerKit

final class ViewKeeper {
    private let file = DrawingViews.defaultFile()
    private var views: DrawingViews
    private let clock: Clock
    private let logger: Logger
    /// The newest view not written yet, and its drawing's path.
    private var pending: (path: String, viewport: CanvasViewport)?
    private var timer: TimerToken?

    init(document: DrawingDocument, scrollView: CanvasScrollView, clock: Clock, logger: Logger) {
        views = DrawingViews.load(file)
        self.clock = clock
        self.logger = logger
        scrollView.initialView = views.viewport(for: DrawingFile.absolute(document.path)).map { .restore($0) } ?? .whole
        scrollView.onViewportChange = { [unowned self, unowned document] viewport in
            changed(viewport, of: DrawingFile.absolute(document.path))
        }
    }

    /// The view of the drawing at `path` moved: written once it rests (another drawing's waiting
    /// view, after New, is written at once).
    private func changed(_ viewport: CanvasViewport, of path: String) {
        if let pending, pending.path != path { flush() }
        pending = (path, viewport)
        timer?.cancel()
        timer = clock.schedule(at: clock.now + 1) { [weak self] in self?.flush() }
    }

    /// Writes the view waiting to be written, if any.
    func flush() {
        timer?.cancel()
        timer = nil
        guard let pending else { return }
        self.pending = nil
        views.set(pending.viewport, for: pending.path)
        do throws(FileIOError) {
            try views.save(to: file)
        } catch {
            logger.warning("cannot keep the drawing's view: \(error.message)")
        }
    }
}
