// Frames painted wholly through the views, for tests that check what the canvas itself draws:
// the dirty area is taken without asking the views for live lines, so the canvas keeps drawing
// its lines under fingers itself.
@testable import TouchKit

extension Window {
    /// The area views marked dirty as one rectangle (clipped, whole points), or nil; the window
    /// is clean afterwards.
    func takeDirtyRect() -> Rect? {
        layoutIfNeeded()
        let rect = pending.dirty.bounds.map { $0.intersection(bounds).integral }
        pending.dirty.removeAll()
        pending.isScheduled = false
        guard let rect, !rect.isEmpty else { return nil }
        return rect
    }
}
