// One repaint of a TouchKit window into pixels: the step the Wayland host runs per frame, here so
// that the benchmark and tests paint exactly as the app does.
import TouchKit

extension Window {
    /// Paints `region` (window points) into `image` at `scale` pixels per point: one pass clipped
    /// to the union of the region's rectangles, so each view and line is drawn once however many
    /// rectangles it touches.
    public func paint(_ region: DirtyRegion, into image: ImageSurface, scale: Double) {
        guard !region.isEmpty else { return }
        // Whole pixels: Cairo clips to pixel-aligned rectangles as a region (pixman boxes); a
        // fractional edge would make it build a clip mask and composite every line through it,
        // which cost more than the lines themselves.
        let pixels = region.rects.map { $0.scaled(by: scale).integral }
        let context = CairoContext(surface: image)
        context.clip(toUnionOf: pixels)
        context.scaleBy(x: scale, y: scale)
        let bounds = pixels.dropFirst().reduce(pixels[0]) { $0.union($1) }
        render(bounds.scaled(by: 1 / scale), in: context)
        image.flush()
    }
}

extension Rect {
    func scaled(by factor: Double) -> Rect {
        Rect(x: minX * factor, y: minY * factor, width: width * factor, height: height * factor)
    }
}
