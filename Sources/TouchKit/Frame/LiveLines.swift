// Live lines: lines a view shows above its own drawing that change every frame, the lines under
// fingers flying across the canvas. Marked dirty, each frame would repaint a band along every such
// line, twice (where it was and where it is), then copy the same again into the other buffer.
// Handed to the window instead, they are drawn by the window's painter straight into its buffer as
// rows of pixels, and erased along those rows by copying back the view's backdrop, a picture of
// what the view shows beneath them: the work follows the lines' own pixels, and no region is built
// for them. Much as a CAShapeLayer is composited by the render server and not drawn by its view.

/// What a view hands the window for one frame (``View/liveLines()``).
public struct LiveLines {
    /// In the view's coordinates. The painter draws opaque ones as rows of pixels; live lines
    /// with others are painted through the view.
    public var lines: [Polyline]
    /// Edges smoothed (each edge pixel blended by how much of it the line covers), for straight
    /// lines (at most two points each); otherwise every pixel whose centre a line covers is filled.
    public var smooth: Bool
    /// What the view draws beneath the lines, its pixel (0, 0) at the view's bounds origin, at
    /// the window's scale: everything the view itself draws where they lie, and nothing else.
    public var backdrop: Bitmap
    /// Lines just drawn into the backdrop (a line a finger has lifted, gone into the view's
    /// cache): the window copies the backdrop along them into this frame's buffer and into each
    /// other buffer before it is shown again, so they show without the view repainting a band
    /// along each. In the view's coordinates; given once.
    public var settled: [Polyline]

    public init(lines: [Polyline], smooth: Bool, backdrop: Bitmap, settled: [Polyline] = []) {
        self.lines = lines
        self.smooth = smooth
        self.backdrop = backdrop
        self.settled = settled
    }
}

/// A view's live lines for one frame, placed in the window.
public struct PlacedLiveLines {
    public let view: ObjectIdentifier
    /// In window points.
    public let lines: [Polyline]
    /// ``LiveLines/smooth``.
    public let smooth: Bool
    /// In window points (``LiveLines/settled``).
    public let settled: [Polyline]
    public let backdrop: Bitmap
    /// Where the backdrop's pixel (0, 0) lies, in window points.
    public let backdropOrigin: Point
    /// The window rectangles the lines may show in: the view's visible part, less the views
    /// drawn above it.
    public let clip: [Rect]
    /// False when a translucent view lies above part of it: the lines must show through that
    /// view, so the frame paints them through the views instead.
    public let drawable: Bool
}

extension Window {
    /// Every visible view's live lines (``View/liveLines()``), back to front, in window points.
    /// Asked for as the frame's dirty region is taken, so that a view that stops handing them
    /// over can mark its lines dirty for the same frame.
    func collectLiveLines() -> [PlacedLiveLines] {
        var placed: [PlacedLiveLines] = []
        collectLiveLines(from: self, visible: bounds, origin: .zero, into: &placed)
        // Settled lines of a frame not painted, for views that no longer hand over live lines:
        // repainted instead.
        for line in pending.unpaintedSettled.values.joined() {
            let xs = line.points.map(\.x), ys = line.points.map(\.y)
            let r = line.width / 2 + 1
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
            setNeedsDisplay(inWindowRect: Rect(x: x0 - r, y: y0 - r, width: x1 - x0 + 2 * r, height: y1 - y0 + 2 * r))
        }
        pending.unpaintedSettled.removeAll()
        return placed
    }

    /// `visible`: the part of `view` not cut off by its ancestors, in window points; `origin`:
    /// where the point (0, 0) of its coordinates lies in the window (its bounds' origin lies that
    /// far on: a scroll view's is its offset).
    private func collectLiveLines(from view: View, visible: Rect, origin: Point, into found: inout [PlacedLiveLines]) {
        if let live = view.liveLines() {
            let (clip, covered) = Self.uncovered(visible, by: view)
            func placed(_ lines: [Polyline]) -> [Polyline] {
                origin == .zero ? lines : lines.map { line in
                    var moved = line
                    moved.points = line.points.map { Point(x: $0.x + origin.x, y: $0.y + origin.y) }
                    return moved
                }
            }
            let key = ObjectIdentifier(view)
            found.append(PlacedLiveLines(
                view: key, lines: placed(live.lines), smooth: live.smooth,
                settled: (pending.unpaintedSettled.removeValue(forKey: key) ?? []) + placed(live.settled),
                backdrop: live.backdrop, backdropOrigin: Point(x: origin.x + view.bounds.minX, y: origin.y + view.bounds.minY),
                clip: clip, drawable: covered))
        }
        for sub in view.subviews where !sub.isHidden && sub.alpha >= 0.01 {
            // `origin` is where the view's coordinates' (0, 0) lies: a subview's frame is in them.
            let frame = sub.frame.offsetBy(dx: origin.x, dy: origin.y)
            let shown = frame.intersection(visible)
            guard !shown.isEmpty else { continue }
            let subOrigin = Point(x: frame.minX - sub.bounds.origin.x, y: frame.minY - sub.bounds.origin.y)
            collectLiveLines(from: sub, visible: shown, origin: subOrigin, into: &found)
        }
    }

    /// `rect` less the frames of the visible views drawn after `view` (its later siblings and
    /// those of its ancestors), as a few rectangles; and whether each of those views that meets
    /// `rect` hides what lies beneath it (an opaque background at full alpha).
    private static func uncovered(_ rect: Rect, by view: View) -> (pieces: [Rect], covered: Bool) {
        var pieces = [rect]
        var covered = true
        var child = view
        while let parent = child.superview {
            guard let index = parent.subviews.firstIndex(where: { $0 === child }) else { break }
            for later in parent.subviews[(index + 1)...] where !later.isHidden && later.alpha >= 0.01 {
                let frame = parent.convert(later.frame, to: nil)
                guard frame.intersects(rect) else { continue }
                let hides = later.alpha >= 1 && (later.isOpaque || (later.backgroundColor?.alpha ?? 0) >= 1)
                if !hides { covered = false }
                pieces = pieces.flatMap { $0.subtracting(frame) }
            }
            child = parent
        }
        return (pieces, covered)
    }
}
