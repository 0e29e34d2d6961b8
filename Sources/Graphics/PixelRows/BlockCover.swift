// Lines piled many times over a pixel, drawn without what is hidden. Zoomed back out, 100,000 lines
// cover a 4K screen four times over and a phone's thirty, and drawn in paint order most of their
// pixels are blended, then painted over. A first, cheap pass marks blocks of pixels that one line
// covers whole, by the last such line; drawing then leaves out, for every line before that one,
// the block's pixels. What a line covers whole ends as its colour whatever lay beneath, and what
// comes after it is drawn as ever, so the picture is the one drawing every line makes.
import CCairo
import TouchKit

/// Per block of 8x8 pixels of a box, the index of the last line of a pile (numbered in paint
/// order from 1) that covers the block whole; 0 where none does (``CairoContext/cover(_:from:in:)``,
/// ``CairoContext/stroke(_:from:over:)``).
public final class BlockCover {
    /// Blocks are 1 << shift pixels a side.
    static let shift = 3
    /// The least radius (pixels) of a line that can cover a block whole: its whole pixels reach
    /// half a pixel less, and a pixel each side is left for rounding. Narrower lines (a 10 pt
    /// line at scale 1) are not looked at.
    public static let narrowest = Double((1 << shift) + 2) / 2 + 0.5
    private(set) var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
    /// The first block's column and row (the blocks lie on the image's grid of blocks).
    private(set) var first = (column: 0, row: 0)
    private(set) var columns = 0
    private(set) var owners = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    private var capacity = 0
    /// Blocks marked so far (a block marked again counts again).
    public private(set) var marked = 0

    public init() {}

    deinit { owners.deallocate() }

    /// Starts a pile in `context`'s clip, no block covered; false (and no pile) where the clip is
    /// not one box of whole pixels or lines would not be drawn smooth as rows of pixels there.
    public func reset(for context: CairoContext) -> Bool {
        marked = 0
        guard context.antialiasing != .draft, let space = context.pixelSpace(),
              let box = CairoContext.oneBox(space.clip, width: space.width, height: space.height) else {
            self.box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
            columns = 0
            return false
        }
        let s = Self.shift
        first = (box.x0 >> s, box.y0 >> s)
        columns = ((box.x1 - 1) >> s) - first.column + 1
        let count = columns * (((box.y1 - 1) >> s) - first.row + 1)
        if count > capacity {
            owners.deallocate()
            owners = .allocate(capacity: count)
            capacity = count
        }
        owners.update(repeating: 0, count: count)
        self.box = box
        return true
    }

    /// Whether the pile was made for a clip of `other`.
    func fits(_ other: PixelBox) -> Bool {
        columns > 0 && other.x0 == box.x0 && other.y0 == box.y0 && other.x1 == box.x1 && other.y1 == box.y1
    }

    /// Marks the blocks inside the box whose every pixel lies in columns `x0..<x1` of block row
    /// `row`, as line `index`'s.
    @inline(__always)
    func mark(row: Int, _ x0: Int, _ x1: Int, index: UInt32) {
        let s = Self.shift
        let c0 = max((x0 + (1 << s) - 1) >> s, (box.x0 + (1 << s) - 1) >> s), c1 = min(x1 >> s, box.x1 >> s)
        guard c0 < c1 else { return }
        (owners + ((row - first.row) * columns + c0 - first.column)).update(repeating: index, count: c1 - c0)
        marked += c1 - c0
    }

    /// The marks of the block row holding pixel row `y`, indexed by block column.
    @inline(__always)
    func marks(ofRow y: Int) -> UnsafePointer<UInt32> {
        UnsafePointer(owners + ((y >> Self.shift) - first.row) * columns - first.column)
    }
}

extension CairoContext {
    /// A clip of one box, cut to an image of `width` x `height`; nil for any other clip or an
    /// empty box.
    static func oneBox(_ clip: RowBoxes, width: Int, height: Int) -> PixelBox? {
        guard clip.boxes.count == 1 else { return nil }
        let b = clip.boxes[0]
        let box = PixelBox(x0: max(b.x0, 0), y0: max(b.y0, 0), x1: min(b.x1, width), y1: min(b.y1, height))
        return box.x0 < box.x1 && box.y0 < box.y1 ? box : nil
    }

    /// Whether a line covers blocks of a pile: opaque and straight, drawn smooth as rows of pixels.
    static func covers(_ line: Polyline) -> Bool { line.color.alpha >= 1 && line.points.count == 2 }

    /// Marks the blocks `lines`, numbered from `first` in paint order, cover whole. Every one of
    /// them must then be drawn by ``stroke(_:from:over:)`` with the same number.
    public func cover(_ lines: ArraySlice<Polyline>, from first: UInt32, in cover: BlockCover) {
        guard let space = pixelSpace(), let box = Self.oneBox(space.clip, width: space.width, height: space.height),
              cover.fits(box) else { return }
        var points = PixelLine.Points()
        for (i, line) in zip(lines.indices, lines) where Self.covers(line) && line.width * space.scale / 2 >= BlockCover.narrowest {
            let pixels = PixelLine(points: points.mapped(line.points, by: space.map), radius: line.width * space.scale / 2,
                                   pixel: Self.opaquePixel(line.color), smooth: true)
            pixels.markBlocks(in: cover, index: first + UInt32(i - lines.startIndex))
        }
    }

    /// ``stroke(_:)`` of `lines`, numbered from `first` as they were marked in `cover`, leaving
    /// out of each straight line the blocks a later line covers whole. Draws them all where the
    /// pile is not this clip's.
    public func stroke(_ lines: [Polyline], from first: UInt32, over cover: BlockCover) {
        guard antialiasing != .draft, let space = pixelSpace(),
              let box = Self.oneBox(space.clip, width: space.width, height: space.height), cover.fits(box) else {
            return stroke(lines)
        }
        cairo_surface_flush(space.target)
        guard let data = cairo_image_surface_get_data(space.target) else { return stroke(lines) }
        let stride = Int(cairo_image_surface_get_stride(space.target))
        // Cairo's own drawing and the rows written here take turns: each tells the other.
        var flushed = true
        var points = PixelLine.Points()
        for (i, line) in lines.enumerated() {
            guard Self.covers(line) else {
                if flushed { cairo_surface_mark_dirty(space.target) }
                flushed = false
                strokeAsPath(line)
                continue
            }
            if !flushed { cairo_surface_flush(space.target) }
            flushed = true
            let pixels = PixelLine(points: points.mapped(line.points, by: space.map), radius: line.width * space.scale / 2,
                                   pixel: Self.opaquePixel(line.color), smooth: true)
            pixels.draw(limit: box, into: data, stride: stride, over: cover, index: first + UInt32(i))
        }
        if flushed { cairo_surface_mark_dirty(space.target) }
    }
}
