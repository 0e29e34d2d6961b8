// Which pixels of a clip lie whole under opaque lines, row by row. A dense drawing zoomed in
// has hundreds of lines, each wider than a tile of the line cache, piled on every pixel: once the
// topmost of them cover the tile, what lies beneath cannot show and need not be drawn.
import TouchKit

/// The pixels of one box covered whole by the opaque lines added so far (``add(_:)``).
public struct RowCover {
    private let box: PixelBox
    /// User space to the image's pixels, as the lines are drawn (``CairoContext/rowCover()``).
    private let scale: Double
    private let map: PixelMapping
    /// Per row of the box, its covered runs, sorted and apart; a row covered whole holds one.
    private var rows: [[(x0: Int, x1: Int)]]
    private var open: Int

    init(box: PixelBox, scale: Double, map: PixelMapping) {
        self.box = box
        self.scale = scale
        self.map = map
        rows = Array(repeating: [], count: max(box.y1 - box.y0, 0))
        open = rows.count
    }

    /// Every pixel of the box is under a line added.
    public var isWhole: Bool { open == 0 }

    /// Adds what `line` covers whole: the pixels whose every point lies within the line, taken as
    /// those whose centre is a pixel closer to its middle than its edge (a pixel's half diagonal
    /// is 0.71, and Cairo's round joins and caps are polygons within a tenth of a pixel), so
    /// whether it is drawn as rows of pixels or by Cairo's rasterizer, nothing beneath shows there.
    /// A line not opaque covers nothing.
    public mutating func add(_ line: Polyline) {
        guard line.color.alpha >= 1, !isWhole else { return }
        let radius = line.width * scale / 2 - 1
        guard radius > 0 else { return }
        StrokeSpans.forEach(line.points.map { map.apply($0) }, radius: radius, limit: box) { span in
            insert(span.x0, span.x1, row: span.y - box.y0)
        }
    }

    /// Adds pixels `x0..<x1` of `row` to its runs, merging those they meet, in place.
    private mutating func insert(_ x0: Int, _ x1: Int, row: Int) {
        if rows[row].count == 1, rows[row][0].x0 <= box.x0, rows[row][0].x1 >= box.x1 { return }
        var lo = x0, hi = x1
        var first = 0
        while first < rows[row].count, rows[row][first].x1 < lo { first += 1 }
        var last = first
        while last < rows[row].count, rows[row][last].x0 <= hi {
            lo = min(lo, rows[row][last].x0)
            hi = max(hi, rows[row][last].x1)
            last += 1
        }
        rows[row].replaceSubrange(first..<last, with: CollectionOfOne((x0: lo, x1: hi)))
        if rows[row].count == 1, lo <= box.x0, hi >= box.x1 { open -= 1 }
    }
}

extension CairoContext {
    /// A cover of this context's clip for lines drawn in its user space, empty; nil where the
    /// clip is not one box of whole pixels of an image, or user space is not mapped to pixels
    /// by one scale and an offset.
    public func rowCover() -> RowCover? {
        guard let space = pixelSpace(), let box = Self.oneBox(space.clip, width: space.width, height: space.height) else { return nil }
        return RowCover(box: box, scale: space.scale, map: space.map)
    }
}
