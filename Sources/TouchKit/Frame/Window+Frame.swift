// What a window collects between two frames, and how the host takes it: the rectangles views
// mark dirty and the live lines they hand over. The host takes both once per frame
// (``Window/takeDirtyRegion()``) and paints them into a buffer (Graphics' `Window.update`);
// docs/frame.md follows the whole path.

/// What changed in a window since its last frame was taken.
struct PendingFrame {
    /// The rectangles views marked, in window points.
    var dirty = DirtyRegion()
    /// Whether the host has been asked for a frame that it has not taken yet.
    var isScheduled = false
    /// A view's live lines changed (``View/setNeedsLiveLines()``), or a frame was not painted.
    var liveLinesMarked = false
    /// Settled lines (``LiveLines/settled``) of a frame that was not painted, by view: handed to
    /// the next frame, or repainted if their view no longer hands over live lines.
    var unpaintedSettled: [ObjectIdentifier: [Polyline]] = [:]
}

extension Window {
    /// Adds `rect` (window coordinates) to the area to redraw; calls ``needsDisplayHandler`` if
    /// the window was clean.
    public func setNeedsDisplay(inWindowRect rect: Rect) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return }
        pending.dirty.add(clipped)
        scheduleUpdate()
    }

    /// Asks the host for a frame unless one is already pending.
    func scheduleUpdate() {
        guard !pending.isScheduled else { return }
        pending.isScheduled = true
        needsDisplayHandler?()
    }

    /// Asks for a frame because a view's live lines changed (``View/setNeedsLiveLines()``).
    public func requestLiveLinesFrame() {
        pending.liveLinesMarked = true
        scheduleUpdate()
    }

    /// Whether a frame has been asked for and not yet taken.
    public var needsDisplay: Bool { pending.isScheduled }

    /// The host's step at every frame: runs pending layout, collects the views' live lines for the
    /// frame (``liveLines``, ``liveLinesChanged``), then returns and clears the area to redraw as a
    /// few rectangles (see ``DirtyRegion``), each clipped to the bounds and rounded out to whole
    /// points: the host repaints and damages only these. Empty when nothing is dirty. After this
    /// the window is clean, and the next `setNeedsDisplay` calls the handler again.
    public func takeDirtyRegion() -> DirtyRegion {
        layoutIfNeeded()
        // First: a view that stops handing over live lines marks them dirty for this frame.
        let before = liveLines.map(\.view)
        liveLines = collectLiveLines()
        liveLinesChanged = pending.liveLinesMarked || liveLines.map(\.view) != before
        pending.liveLinesMarked = false
        let region = DirtyRegion(pending.dirty.rects.map { $0.intersection(bounds).integral })
        pending.dirty.removeAll()
        pending.isScheduled = false
        return region
    }

    /// Tells the window that the frame taken last, whose dirty region was `dirty`, was not painted
    /// (no buffer was free): its region is marked again, and the next frame is painted for its
    /// live lines and takes their settled lines again.
    public func frameNotPainted(_ dirty: DirtyRegion) {
        for rect in dirty.rects { setNeedsDisplay(inWindowRect: rect) }
        guard liveLinesChanged else { return }
        for lines in liveLines where !lines.settled.isEmpty {
            pending.unpaintedSettled[lines.view, default: []] += lines.settled
        }
        requestLiveLinesFrame()
    }
}
