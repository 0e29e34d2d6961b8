// The line cache's raster drawn into: strokes go in through the canvas's viewport (the raster is
// the part of the drawing the canvas shows, at its zoom), and a tile too dense for one turn is made
// aside over turns.
import Dispatch
import Graphics
import TouchKit

extension LineCache {
    /// A raster of `size` at `scale`: the spare when it fits. A pinch on a drawing small enough
    /// to be drawn again within the frame makes a raster a frame, and so does a resize; a new
    /// raster's pages are faulted in and cleared by the system, 4 to 6 ms a frame at 1080p.
    /// With where it may hold anything but paper (all of a new one), and whether it was made now
    /// (its pages not touched yet).
    func raster(size: Size, scale: Double) -> (image: ImageSurface, inked: PixelBox?, made: Bool) {
        let pixels = ImageSurface.pixelSize(size, scale: scale)
        if let spare, spare.image.scale == scale, spare.image.width == pixels.width, spare.image.height == pixels.height {
            self.spare = nil
            return (spare.image, spare.inked, false)
        }
        // Scrollable: a scroll then moves where the raster starts, not its pixels (a 4K
        // raster's move cost a pan's frame over a millisecond).
        let image = scrollsInPlace ? ImageSurface(scrollable: size, scale: scale) : ImageSurface(size: size, scale: scale)
        // A fast pinch's builds wait most of each frame (LineCache.swift): its raster's pages
        // are faulted in meanwhile, not by the build after the fingers stop.
        image.populateAside()
        return (image, .whole(image), true)
    }

    /// A strip a scroll shows is made as tiles of at most this many pixels a side: the strokes
    /// of each are looked up and drawn between looks at the clock (a window-high strip of a
    /// drawing of 100,000 lines holds thousands, several milliseconds' work).
    static let tilePixels = 256.0

    /// At most this many strokes, from the top, are looked at for a tile they cover whole.
    static let coverLook = 64

    /// The strokes of `tile` (raster points) that may show there, in order: from the first of the
    /// topmost that cover it whole (opaque lines, ``RowCover``) on, or all of them. A dense
    /// drawing zoomed in piles hundreds of lines wider than a tile on each of its pixels, and
    /// drawing every one of them made a scroll's strips late by half a second on a phone.
    func shown(_ strokes: [Stroke], in tile: Rect) -> ArraySlice<Stroke> {
        guard strokes.count > 2 * Self.coverLook, let image,
              var cover = Self.strokeContext(image, viewport: viewport, area: whole(tile)).rowCover() else { return strokes[...] }
        for i in stride(from: strokes.count - 1, through: strokes.count - Self.coverLook, by: -1) where strokes[i].kind != .circle {
            cover.add(StrokeRenderer.polyline(strokes[i], ink: ink))
            if cover.isWhole { return strokes[i...] }
        }
        return strokes[...]
    }

    /// Keeps `raster`, let go, as the spare for a second: long enough for the next frame of a
    /// gesture, short enough that memory once input stops holds one raster.
    func keepSpare(_ raster: ImageSurface, inked: PixelBox?) {
        guard let clock = clock() else { return }
        spare = (raster, inked)
        spareTimer?.cancel()
        spareTimer = clock.schedule(at: clock.now + 1) { [unowned self] in
            self.spareTimer = nil
            if case let (image, _)? = self.spare {
                self.spare = nil
                Self.letGo(consume image)
            }
        }
    }

    /// Drops `raster` on another thread: giving a 4K raster's pages back to the system took the
    /// event loop's turn 6 to 8 ms. The caller hands over its last reference.
    static func letGo(_ raster: consuming ImageSurface) {
        let held = HeldRaster(consume raster)
        DispatchQueue.global(qos: .utility).async { held.drop() }
    }

    /// A context on `surface` that draws strokes in the drawing's coordinates: clipped to `area`
    /// (raster points) and filled there with paper first when given.
    static func strokeContext(_ surface: ImageSurface, viewport: CanvasViewport, area: Rect? = nil,
                              paper: Color? = nil) -> CairoContext {
        let context = CairoContext(surface: surface)
        if let area {
            context.clip(to: area)
            if let paper { context.replace(area, with: paper) }
        }
        if !viewport.isIdentity { context.concatenate(viewport.transform) }
        return context
    }

    /// A tile re-made aside, in a copy of its pixels, a few strokes a turn; the copy goes into the
    /// raster once whole, so the canvas never shows half a tile. Anything that changes the
    /// raster meanwhile (a repair queued, a stroke added or put back, a build, a scroll) starts it
    /// over.
    struct PartialTile {
        let section: ImageSurface
        private let area: Rect
        private let strokes: [Stroke]
        private let ink: ScreenInk
        private let viewport: CanvasViewport
        private var next = 0

        init?(area: Rect, strokes: [Stroke], raster: ImageSurface?, ink: ScreenInk, viewport: CanvasViewport) {
            guard let raster else { return nil }
            let area = area.integral(scale: raster.scale)
            let pixels = Rect(x: area.minX * raster.scale, y: area.minY * raster.scale,
                              width: area.width * raster.scale, height: area.height * raster.scale).integral
            section = raster.section(pixels)
            self.area = area
            self.strokes = strokes
            self.ink = ink
            self.viewport = viewport
            let context = CairoContext(surface: section)
            context.clip(to: area)
            context.replace(area, with: ink.paper)
        }

        /// Draws strokes until `deadline` (at least one); true once every stroke is in.
        mutating func draw(until deadline: Double, on clock: Clock) -> Bool {
            guard next < strokes.count else { return true }
            let context = LineCache.strokeContext(section, viewport: viewport, area: area)
            repeat {
                StrokeRenderer.draw(strokes[next], in: context, ink: ink)
                next += 1
            } while next < strokes.count && clock.now < deadline
            return next == strokes.count
        }
    }
}

/// A raster on its way to another thread to be freed there; nothing else holds it.
private final class HeldRaster: @unchecked Sendable {
    private var raster: ImageSurface?
    init(_ raster: ImageSurface) { self.raster = raster }
    func drop() { raster = nil }
}
