// One repaint of a TouchKit window into pixels: the step the Wayland host runs per frame, here so
// that the benchmark and tests paint exactly as the app does.
import TouchKit

extension Window {
    /// Paints `region` (window points) into `image` at `scale` pixels per point: one pass clipped
    /// to the exact union of the region's rectangles in whole pixels, so each view and line is
    /// drawn once however many rectangles it touches, and no pixel outside them is painted.
    public func paint(_ region: DirtyRegion, into image: ImageSurface, scale: Double) {
        paint(PixelRegion(region, scale: scale), into: image, scale: scale)
    }

    /// Paints the pixels of `pixels` into `image`.
    public func paint(_ pixels: PixelRegion, into image: ImageSurface, scale: Double,
                      omittingSketchesOf sketching: Set<ObjectIdentifier> = []) {
        let rects = pixels.rects
        guard let first = rects.first else { return }
        // Whole pixels: Cairo clips to pixel-aligned rectangles as a region (pixman boxes); a
        // fractional edge would make it build a clip mask and composite every line through it,
        // which cost more than the lines themselves.
        let context = CairoContext(surface: image)
        context.sketchedViews = sketching
        pixels.clip(context.cairo)
        context.scaleBy(x: scale, y: scale)
        let bounds = rects.dropFirst().reduce(first) { $0.union($1) }
        render(bounds.scaled(by: 1 / scale), in: context)
        image.flush()
    }

    /// Paints what changed into `screen`, as the host does each frame, without a compositor (a
    /// headless replay, the fuzz targets): `screen` is an image of the window's size, made anew
    /// (and wholly repainted) when the size changes. Live lines are erased and drawn by the update.
    public func paintOffscreen(into screen: inout ImageSurface?, scale: Double) {
        layoutIfNeeded()
        let size = ImageSurface(size: bounds.size, scale: scale)
        if screen.map({ $0.width != size.width || $0.height != size.height }) ?? true {
            screen = size
            setNeedsDisplay()
        }
        guard let screen else { return }
        update(screen, stale: DirtyRegion(), dirty: takeDirtyRegion(), copyingFrom: nil, others: [], scale: scale)
    }

    /// Brings `image`, a buffer shown some frames ago, up to date for this frame. What it lacks
    /// from those frames (`stale`) is copied from `newest`, the buffer shown last, which has it;
    /// only this frame's change (`dirty`) is painted. Lines under moving fingers are then stroked
    /// once per frame, not once per buffer, and a copy costs a fraction of painting. Without
    /// `newest` (none yet, or another size) the stale part is painted as well. The views'
    /// sketches (``sketches``, taken with `dirty`) are then erased where this image held them
    /// and drawn where they are now (SketchPainting.swift); their restored lines are copied from
    /// the backdrop here, and left for `others` (the window's other buffers) to copy before
    /// they are shown again.
    ///
    /// The painted part is clipped to at most ``clipRects`` boxes
    /// (``PixelRegion/coarseRects(count:)``): Cairo strokes through a clip of many boxes at
    /// several times the cost of a few, while boxes merged as they come grew into boxes as large
    /// as the window. The copied part is exact: it is copied row by row, where a box costs little.
    /// Returns the compositor's damage: the painted boxes and boxes along the sketch lines, those
    /// shown before and those shown now.
    @discardableResult
    public func update(_ image: ImageSurface, stale: DirtyRegion, dirty: DirtyRegion,
                       copyingFrom newest: ImageSurface?, others: [ImageSurface], scale: Double) -> [Rect] {
        let newest = newest.flatMap { $0 !== image && $0.width == image.width && $0.height == image.height ? $0 : nil }
        // Restored lines are erased like lines held: in this image now, in the others next time.
        let restored = PixelSketch.restoredRows(of: sketches, scale: scale, image: image)
        if !restored.isEmpty {
            for other in others where other !== image {
                for view in restored.boxes.keys { other.sketched.add(restored, of: view) }
            }
        }
        var drawn: [PixelSketch] = []
        // What this frame leaves in the image: the rows drawn, or painted through the views
        // (their lines move on without marking anything dirty, so where they were is repainted
        // in the next frame here).
        var now = SketchPixels()
        for sketch in sketches {
            if let pixels = PixelSketch(sketch, scale: scale, image: image) {
                drawn.append(pixels)
            } else {
                PixelSketch.addRows(of: sketch, scale: scale, image: image, to: &now)
            }
        }
        let sketching = Set(drawn.map(\.view))
        var held = image.sketched
        for view in restored.boxes.keys { held.add(restored, of: view) }
        let shownBefore = newest?.sketched ?? SketchPixels()
        // Painted through the views: their lines, and lines of views that stopped sketching.
        var rows = now
        for view in held.boxes.keys where !sketching.contains(view) { rows.add(held, of: view) }
        for view in shownBefore.boxes.keys where !sketching.contains(view) { rows.add(shownBefore, of: view) }

        var toPaint = dirty
        if newest == nil { toPaint.add(stale) }
        var boxes = PixelRegion(toPaint, scale: scale).coarseRects(count: Self.clipRects)
        if !rows.isEmpty { boxes = PixelRegion(pixels: boxes + SketchDamage.rects(covering: rows.allBoxes)).coarseRects(count: Self.clipRects) }
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
        image.flush()
        for sketch in drawn {
            sketch.erase(held.lines[sketch.view] ?? [], in: image)
            // Pixels copied from `newest` may hold its lines.
            if let copied {
                let boxes = copied.rects.map { PixelBox(x0: Int($0.minX), y0: Int($0.minY), x1: Int($0.maxX), y1: Int($0.maxY)) }
                sketch.erase(shownBefore.lines[sketch.view] ?? [], within: RowBoxes(boxes, height: image.height), in: image)
            }
        }
        image.markDirty()
        paint(painted, into: image, scale: scale, omittingSketchesOf: sketching)
        image.flush()
        for (sketch, runs) in zip(drawn, runs) {
            sketch.fill(runs, in: image)
            for line in runs { now.add(line: line.covered, of: sketch.view) }
        }
        image.markDirty()
        image.sketched = now
        // Against the buffer shown before: its lines, this one's old lines, and the new ones.
        return boxes + SketchDamage.rects(covering: held.allBoxes + shownBefore.allBoxes + now.allBoxes)
    }

    /// The most boxes a frame is painted or copied through, about.
    public static let clipRects = 96
}

extension Rect {
    func scaled(by factor: Double) -> Rect {
        Rect(x: minX * factor, y: minY * factor, width: width * factor, height: height * factor)
    }
}
