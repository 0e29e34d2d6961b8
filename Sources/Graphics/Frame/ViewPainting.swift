// Painting a window's views into an image through Cairo: one pass clipped to a frame's region,
// here so that the host, the headless replay, the benchmark and tests paint exactly as the app does.
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
                      omittingLiveLinesOf drawnByPainter: Set<ObjectIdentifier> = []) {
        let rects = pixels.rects
        guard let first = rects.first else { return }
        // Whole pixels: Cairo clips to pixel-aligned rectangles as a region (pixman boxes); a
        // fractional edge would make it build a clip mask and composite every line through it,
        // which cost more than the lines themselves.
        let context = CairoContext(surface: image)
        context.viewsWithLiveLines = drawnByPainter
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
}

extension Rect {
    func scaled(by factor: Double) -> Rect {
        Rect(x: minX * factor, y: minY * factor, width: width * factor, height: height * factor)
    }
}
