// One frame into one window buffer: what the buffer lacks copied from the buffer shown last, the
// live lines it holds erased, the frame's dirty region painted through the views, the live lines
// drawn where they are now. The step the host runs per frame (docs/frame.md).
import TouchKit

extension Window {
    /// Brings `image`, a buffer shown some frames ago, up to date for this frame. What it lacks
    /// from those frames (`stale`) is copied from `newest`, the buffer shown last, which has it;
    /// only this frame's change (`dirty`) is painted. Lines under moving fingers are then stroked
    /// once per frame, not once per buffer, and a copy costs a fraction of painting. Without
    /// `newest` (none yet, or another size) the stale part is painted as well. The views'
    /// live lines (``liveLines``, taken with `dirty`) are then erased where this image held them
    /// and drawn where they are now (LiveLineLayer); their settled lines are copied from
    /// the backdrop here, and left for `others` (the window's other buffers) to copy before
    /// they are shown again.
    ///
    /// The painted part is clipped to at most ``clipRects`` boxes
    /// (``PixelRegion/coarseRects(count:)``): Cairo strokes through a clip of many boxes at
    /// several times the cost of a few, while boxes merged as they come would grow into boxes as
    /// large as the window. The copied part is exact: it is copied row by row, where a box costs little.
    /// Returns the compositor's damage: the painted boxes and boxes around what the live lines
    /// changed against the buffer the compositor shows (``lineChanges(settled:before:now:)``).
    @discardableResult
    public func update(_ image: ImageSurface, stale: DirtyRegion, dirty: DirtyRegion,
                       copyingFrom newest: ImageSurface?, others: [ImageSurface], scale: Double) -> [Rect] {
        let newest = newest.flatMap { $0 !== image && $0.width == image.width && $0.height == image.height ? $0 : nil }
        // Settled lines are erased like lines held: in this image now, in the others next time.
        let settled = LiveLineLayer.settledRows(of: liveLines, scale: scale, image: image)
        if !settled.isEmpty {
            for other in others where other !== image {
                for view in settled.boxes.keys { other.heldLines.add(settled, of: view) }
            }
        }
        var drawn: [LiveLineLayer] = []
        // What this frame leaves in the image: the rows drawn, or painted through the views
        // (their lines move on without marking anything dirty, so where they were is repainted
        // in the next frame here).
        var now = HeldLineRows()
        for placed in liveLines {
            if let pixels = LiveLineLayer(placed, scale: scale, image: image) {
                drawn.append(pixels)
            } else {
                LiveLineLayer.addRows(of: placed, scale: scale, image: image, to: &now)
            }
        }
        let drawnByPainter = Set(drawn.map(\.view))
        var held = image.heldLines
        for view in settled.boxes.keys { held.add(settled, of: view) }
        let shownBefore = newest?.heldLines ?? HeldLineRows()
        // What the compositor shows: the buffer brought up to date last (this one, when the
        // compositor gave it back at once; `newest` is then an older one).
        let last = (others + [image]).max { $0.frameNumber < $1.frameNumber }
        let onScreen = last.map { $0.frameNumber > 0 ? $0.heldLines : HeldLineRows() } ?? HeldLineRows()
        image.frameNumber = (last?.frameNumber ?? 0) + 1
        // Painted through the views: their lines, and the lines of views whose live lines the
        // painter no longer draws.
        var rows = now
        for view in held.boxes.keys where !drawnByPainter.contains(view) { rows.add(held, of: view) }
        for view in shownBefore.boxes.keys where !drawnByPainter.contains(view) { rows.add(shownBefore, of: view) }

        var toPaint = dirty
        if newest == nil { toPaint.add(stale) }
        var boxes = PixelRegion(toPaint, scale: scale).coarseRects(count: Self.clipRects)
        if !rows.isEmpty { boxes = PixelRegion(pixels: boxes + RowDamage.rects(covering: rows.allBoxes)).coarseRects(count: Self.clipRects) }
        let painted = PixelRegion(pixels: boxes)
        var copied: PixelRegion?
        if let newest {
            // What this frame paints anyway is not copied first.
            let stalePixels = PixelRegion(stale, scale: scale)
            stalePixels.subtract(painted)
            image.copyPixels(from: newest, in: stalePixels)
            if !stalePixels.isEmpty { copied = stalePixels }
        }
        guard !drawn.isEmpty || !held.isEmpty || !shownBefore.isEmpty || !now.isEmpty else {
            paint(painted, into: image, scale: scale)
            return boxes
        }
        // Erased before the frame's own change is painted: whatever the view draws this frame
        // over its backdrop (a line just finished, not yet in the backdrop) lies in `dirty`.
        let runs = drawn.map { $0.runs(in: image) }
        let shapes = zip(drawn, runs).map { LineRows.shapes(of: $0.lines, drawn: $1) }
        image.flush()
        for (layer, shapes) in zip(drawn, shapes) {
            // What a wide line covers whole now is filled whole, not erased first.
            let spared = shapes.map { LineRows.wholeRows(of: $0, height: image.height) }
            layer.erase(held.lines[layer.view] ?? [], sparing: spared, in: image)
            // Pixels copied from `newest` may hold its lines.
            if let copied {
                let boxes = copied.rects.map { PixelBox(x0: Int($0.minX), y0: Int($0.minY), x1: Int($0.maxX), y1: Int($0.maxY)) }
                layer.erase(shownBefore.lines[layer.view] ?? [], within: RowBoxes(boxes, height: image.height), sparing: spared, in: image)
            }
        }
        image.markDirty()
        paint(painted, into: image, scale: scale, omittingLiveLinesOf: drawnByPainter)
        image.flush()
        for ((layer, runs), shapes) in zip(zip(drawn, runs), shapes) {
            layer.fill(runs, in: image)
            now.add(runs, shapes, of: layer.view)
        }
        image.markDirty()
        image.heldLines = now
        return boxes + RowDamage.rects(covering: Self.lineChanges(settled: settled, before: onScreen, now: now))
    }

    /// Boxes around the pixels that live lines change against the buffer shown before (this
    /// image's own older lines are erased to what that buffer shows there): the settled lines'
    /// rows, copied from the backdrop; where the painter drew a view's lines in both frames, what
    /// may differ between them (LineRows); otherwise every pixel either frame's lines touch.
    private static func lineChanges(settled: HeldLineRows, before: HeldLineRows, now: HeldLineRows) -> [PixelBox] {
        var boxes = settled.allBoxes
        for view in before.boxes.keys.filter({ now.boxes[$0] == nil }) + now.boxes.keys {
            if let old = before.shapes[view], let new = now.shapes[view] {
                LineRows.changes(from: old, to: new, into: &boxes)
            } else {
                boxes += (before.boxes[view] ?? []) + (now.boxes[view] ?? [])
            }
        }
        return boxes
    }

    /// The most boxes a frame is painted or copied through, about.
    public static let clipRects = 96
}

