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
    public func paint(_ pixels: PixelRegion, into image: ImageSurface, scale: Double) {
        let rects = pixels.rects
        guard let first = rects.first else { return }
        // Whole pixels: Cairo clips to pixel-aligned rectangles as a region (pixman boxes); a
        // fractional edge would make it build a clip mask and composite every line through it,
        // which cost more than the lines themselves.
        let context = CairoContext(surface: image)
        pixels.clip(context.cairo)
        context.scaleBy(x: scale, y: scale)
        let bounds = rects.dropFirst().reduce(first) { $0.union($1) }
        render(bounds.scaled(by: 1 / scale), in: context)
        image.flush()
    }

    /// Brings `image`, a buffer shown some frames ago, up to date for this frame. What it lacks
    /// from those frames (`stale`) is copied from `newest`, the buffer shown last, which has it;
    /// only this frame's change (`dirty`) is painted. Lines under moving fingers are then stroked
    /// once per frame, not once per buffer, and a copy costs a fraction of painting. Without
    /// `newest` (none yet, or another size) the stale part is painted as well.
    ///
    /// The painted part is clipped to at most ``clipRects`` boxes
    /// (``PixelRegion/coarseRects(count:)``): Cairo strokes through a clip of many boxes at
    /// several times the cost of a few, while boxes merged as they come grew into boxes as large
    /// as the window. The copied part is exact: it is copied row by row, where a box costs little.
    /// Returns the painted boxes, which are also the compositor's damage.
    @discardableResult
    public func update(_ image: ImageSurface, stale: DirtyRegion, dirty: DirtyRegion,
                       copyingFrom newest: ImageSurface?, scale: Double) -> [Rect] {
        guard let newest, newest !== image, newest.width == image.width, newest.height == image.height else {
            var both = stale
            both.add(dirty)
            let boxes = PixelRegion(both, scale: scale).coarseRects(count: Self.clipRects)
            paint(PixelRegion(pixels: boxes), into: image, scale: scale)
            return boxes
        }
        let boxes = PixelRegion(dirty, scale: scale).coarseRects(count: Self.clipRects)
        let painted = PixelRegion(pixels: boxes)
        // What this frame paints anyway is not copied first.
        let copied = PixelRegion(stale, scale: scale)
        copied.subtract(painted)
        image.copyPixels(from: newest, in: copied)
        paint(painted, into: image, scale: scale)
        return boxes
    }

    /// The most boxes a frame is painted or copied through, about.
    public static let clipRects = 96
}

extension Rect {
    func scaled(by factor: Double) -> Rect {
        Rect(x: minX * factor, y: minY * factor, width: width * factor, height: height * factor)
    }
}
