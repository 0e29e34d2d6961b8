// Where the line cache's raster may hold anything but paper. Most drawings are a sketch on paper
// in part of the window: a build at a new zoom (each step of a pinch starts one over, in the same
// raster) lays paper only where the raster may hold lines, not over all of it (33 MB at 4K), and
// the canvas marks only where lines were and are when the view moves (DrawView.swift).
import Graphics
import TouchKit

/// Rows and columns of a raster's pixels.
struct PixelBox: Equatable {
    var rows: Range<Int>
    var columns: Range<Int>

    static func whole(_ image: ImageSurface) -> PixelBox { PixelBox(rows: 0..<image.height, columns: 0..<image.width) }

    var isEmpty: Bool { rows.isEmpty || columns.isEmpty }

    /// The box holding both.
    func union(_ other: PixelBox?) -> PixelBox {
        guard let other, !other.isEmpty else { return self }
        guard !isEmpty else { return other }
        return PixelBox(rows: min(rows.lowerBound, other.rows.lowerBound)..<max(rows.upperBound, other.rows.upperBound),
                        columns: min(columns.lowerBound, other.columns.lowerBound)..<max(columns.upperBound, other.columns.upperBound))
    }

    /// Moved by (dx, dy) pixels and cut to `image`; nil when nothing of it is left there.
    func moved(dx: Int, dy: Int, within image: ImageSurface) -> PixelBox? {
        let box = PixelBox(rows: (rows.lowerBound + dy..<rows.upperBound + dy).clamped(to: 0..<image.height),
                           columns: (columns.lowerBound + dx..<columns.upperBound + dx).clamped(to: 0..<image.width))
        return box.isEmpty ? nil : box
    }
}

extension Optional where Wrapped == PixelBox {
    func union(_ other: PixelBox?) -> PixelBox? { map { $0.union(other) } ?? other }
}

extension LineCache {
    /// A stroke the raster may show from now on (added, or moved to where it is): the ink's
    /// reach grows by its box.
    func noteInk(_ stroke: Stroke) {
        let box = stroke.bounds
        inkReach = inkReach.map { $0.union(box) } ?? box
        if let image { inked = inked.union(pixels(of: box, in: image)) }
    }

    /// The drawing was replaced: its lines are all the ink there is (the raster's old lines are
    /// still counted in ``inked`` until paper covers them).
    func resetInk() {
        inkReach = drawing.bounds
    }

    /// The pixels of `image` (showing the drawing through ``viewport``) where the drawing's
    /// rectangle `r` shows, with two pixels of room for smoothed edges; nil where it does not.
    func pixels(of r: Rect, in image: ImageSurface) -> PixelBox? {
        let s = image.scale
        // Cut to the image in points first: a far line's pixels would not fit an Int.
        let extent = Rect(x: 0, y: 0, width: Double(image.width) / s, height: Double(image.height) / s)
        let rect = viewport.canvasRect(r).insetBy(dx: -2 / s, dy: -2 / s).intersection(extent)
        guard !rect.isEmpty else { return nil }
        let box = PixelBox(rows: (Int((rect.minY * s).rounded(.down))..<Int((rect.maxY * s).rounded(.up))).clamped(to: 0..<image.height),
                           columns: (Int((rect.minX * s).rounded(.down))..<Int((rect.maxX * s).rounded(.up))).clamped(to: 0..<image.width))
        return box.isEmpty ? nil : box
    }

    /// Where every line there is shows in `image` through ``viewport``.
    func inkPixels(in image: ImageSurface) -> PixelBox? { inkReach.flatMap { pixels(of: $0, in: image) } }
}
