// Lines piled many times over a pixel, drawn without what is hidden. Zoomed back out, 100,000 lines
// cover a 4K screen tens of times over, and drawn in paint order most of their pixels are blended,
// then painted over. A first pass goes down the pile from its topmost line with a bit per pixel for
// the pixels the lines above cover whole, and keeps of each line, eight rows at a time, only the
// columns where a pixel of it still shows. Drawing then goes up the pile as ever, each line only
// there: a pixel a line covers whole ends as its colour whatever lay beneath, and the topmost line
// covering a pixel whole always finds it showing, so the picture is the one drawing every line
// makes. Deep in the pile most lines show nowhere: a second bit per cell of eight rows by 64
// columns, set once the cell is covered whole, finds them without a look at each pixel's.
import CCairo
import TouchKit

/// The pixels of one box covered whole by the lines of a pile looked at so far (from its topmost
/// line down, numbered in paint order from 1), and where each of those lines shows
/// (``CairoContext/cover(_:from:in:)``, ``CairoContext/stroke(_:from:over:)``).
public final class PileCover {
    /// Rows are looked at 1 << shift at a time.
    static let shift = 3
    /// The width in pixels of the narrowest line looked at: thinner ones cover too few pixels
    /// whole to hide much (looking at 100,000 of them at 10 % doubled the build).
    public static let narrowest = 3.0
    private(set) var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
    /// 64-bit words per row of `bits`.
    private var words = 0
    /// A bit per pixel of the box, row after row: set where a line looked at covers it whole.
    private var bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var capacity = 0
    /// A bit per cell, a group's rows (1 << shift, aligned to the image's rows) by one word of
    /// `bits`: set once every pixel of it in the box is covered. Deep in a pile most are, and a
    /// line is found hidden there by a bit per 64 columns, not a word per row.
    private var cells = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var cellCapacity = 0
    /// 64-bit words per group of `cells`.
    private var cellWords = 0
    /// The bits of the last word of a row that lie in the box.
    private var lastMask: UInt64 = 0

    /// Where a line shows: in the rows of the group beginning at `row` (those of them it reaches),
    /// columns `x0..<x1`.
    struct Showing {
        var index: UInt32
        var row: Int32
        var x0: Int32
        var x1: Int32
    }

    /// Appended from the top of the pile down, so the last are the lowest line's.
    private var showings: [Showing] = []
    /// The lowest line looked at (its index); lines below it are not yet.
    private(set) var lowest = UInt32.max
    /// A bit per line looked at, by index: the rest are drawn whole.
    private var lookedAt: [UInt64] = []
    /// A bit per line looked at and found hidden everywhere, by index: not drawn at all.
    private var hiddenWhole: [UInt64] = []
    /// Groups of a line's rows found wholly hidden so far.
    public private(set) var hidden = 0

    public init() {}

    deinit {
        bits.deallocate()
        cells.deallocate()
    }

    /// Starts a pile in `context`'s clip, nothing covered; false (and no pile) where the clip is
    /// not one box of whole pixels or lines would not be drawn smooth as rows of pixels there.
    public func reset(for context: CairoContext) -> Bool {
        hidden = 0
        lowest = .max
        showings.removeAll(keepingCapacity: true)
        lookedAt.removeAll(keepingCapacity: true)
        hiddenWhole.removeAll(keepingCapacity: true)
        guard context.antialiasing != .draft, let space = context.pixelSpace(),
              let box = CairoContext.oneBox(space.clip, width: space.width, height: space.height) else {
            self.box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
            words = 0
            return false
        }
        words = (box.x1 - box.x0 + 63) >> 6
        let count = words * (box.y1 - box.y0)
        if count > capacity {
            bits.deallocate()
            bits = .allocate(capacity: count)
            capacity = count
        }
        bits.update(repeating: 0, count: count)
        self.box = box
        lastMask = Self.mask(0, ((box.x1 - box.x0 - 1) & 63) + 1)
        cellWords = (words + 63) >> 6
        let cellCount = cellWords * (((box.y1 - 1) >> Self.shift) - (box.y0 >> Self.shift) + 1)
        if cellCount > cellCapacity {
            cells.deallocate()
            cells = .allocate(capacity: cellCount)
            cellCapacity = cellCount
        }
        cells.update(repeating: 0, count: cellCount)
        return true
    }

    /// Whether the pile was made for a clip of `other`.
    func fits(_ other: PixelBox) -> Bool {
        words > 0 && other.x0 == box.x0 && other.y0 == box.y0 && other.x1 == box.x1 && other.y1 == box.y1
    }

    @inline(__always)
    private func row(_ y: Int) -> UnsafeMutablePointer<UInt64> { bits + (y - box.y0) * words }

    /// The mask of bits `b0..<b1` (0 <= b0 < b1 <= 64) of a word.
    @inline(__always)
    private static func mask(_ b0: Int, _ b1: Int) -> UInt64 {
        (b1 == 64 ? ~0 : (1 << UInt64(b1)) &- 1) & ~((1 << UInt64(b0)) &- 1)
    }

    /// Whether the cells of words `w0...w1` in the group of rows holding row `y` are all covered.
    @inline(__always)
    private func cellsFull(group y: Int, _ w0: Int, _ w1: Int) -> Bool {
        let row = cells + ((y >> Self.shift) - (box.y0 >> Self.shift)) * cellWords
        var c = w0 >> 6
        while c <= w1 >> 6 {
            let m = Self.mask(c == w0 >> 6 ? w0 & 63 : 0, c == w1 >> 6 ? (w1 & 63) + 1 : 64)
            guard row[c] & m == m else { return false }
            c += 1
        }
        return true
    }

    /// Whether every cell columns `x0..<x1` (inside the box) reach in rows `y0...y1` is covered.
    @inline(__always)
    func cellsCover(rows y0: Int, _ y1: Int, _ x0: Int, _ x1: Int) -> Bool {
        let w0 = (x0 - box.x0) >> 6, w1 = (x1 - 1 - box.x0) >> 6
        var y = y0
        while y <= y1 {
            guard cellsFull(group: y, w0, w1) else { return false }
            y = ((y >> Self.shift) + 1) << Self.shift
        }
        return true
    }

    /// Word `w` of row `y` became whole: marks its cell covered if its group's other rows are too.
    private func wordFilled(row y: Int, _ w: Int) {
        let s = Self.shift, full = w == words - 1 ? lastMask : ~0
        let top = max(box.y0, (y >> s) << s), bottom = min(box.y1, ((y >> s) + 1) << s)
        var r = bits + (top - box.y0) * words + w
        for _ in top..<bottom {
            guard r.pointee == full else { return }
            r += words
        }
        cells[((y >> s) - (box.y0 >> s)) * cellWords + (w >> 6)] |= 1 << UInt64(w & 63)
    }

    /// Whether every pixel of columns `x0..<x1` (inside the box) of rows `y0...y1` is covered.
    @inline(__always)
    func isCovered(rows y0: Int, _ y1: Int, _ x0: Int, _ x1: Int) -> Bool {
        let b0 = x0 - box.x0, b1 = x1 - box.x0
        let w0 = b0 >> 6, w1 = (b1 - 1) >> 6
        if y0 >> Self.shift == y1 >> Self.shift, cellsFull(group: y0, w0, w1) { return true }
        let first = Self.mask(b0 & 63, w0 == w1 ? ((b1 - 1) & 63) + 1 : 64), last = Self.mask(0, ((b1 - 1) & 63) + 1)
        var r = row(y0)
        for _ in y0...y1 {
            defer { r += words }
            guard r[w0] & first == first else { return false }
            guard w0 < w1 else { continue }
            var w = w0 + 1
            while w < w1 {
                guard r[w] == ~0 else { return false }
                w += 1
            }
            guard r[w1] & last == last else { return false }
        }
        return true
    }

    /// The first and last columns of `x0..<x1` (inside the box) of row `y` not covered; nil when
    /// every one is.
    @inline(__always)
    func uncovered(row y: Int, _ x0: Int, _ x1: Int) -> (first: Int, last: Int)? {
        let r = row(y), b0 = x0 - box.x0, b1 = x1 - box.x0
        let w0 = b0 >> 6, w1 = (b1 - 1) >> 6
        var first = -1
        var w = w0
        while w <= w1 {
            let open = ~r[w] & Self.mask(w == w0 ? b0 & 63 : 0, w == w1 ? ((b1 - 1) & 63) + 1 : 64)
            if open != 0 {
                first = w << 6 + open.trailingZeroBitCount
                break
            }
            w += 1
        }
        guard first >= 0 else { return nil }
        w = w1
        while true {
            let open = ~r[w] & Self.mask(w == w0 ? b0 & 63 : 0, w == w1 ? ((b1 - 1) & 63) + 1 : 64)
            if open != 0 { return (box.x0 + first, box.x0 + w << 6 + 63 - open.leadingZeroBitCount) }
            w -= 1
        }
    }

    /// Marks columns `x0..<x1` (inside the box) of row `y` covered.
    @inline(__always)
    func cover(row y: Int, _ x0: Int, _ x1: Int) {
        guard x0 < x1 else { return }
        let r = row(y), b0 = x0 - box.x0, b1 = x1 - box.x0
        let w0 = b0 >> 6, w1 = (b1 - 1) >> 6
        @inline(__always)
        func set(_ w: Int, _ mask: UInt64) {
            let old = r[w], new = old | mask
            guard new != old else { return }
            r[w] = new
            if new == (w == words - 1 ? lastMask : ~0) { wordFilled(row: y, w) }
        }
        if w0 == w1 { return set(w0, Self.mask(b0 & 63, ((b1 - 1) & 63) + 1)) }
        set(w0, Self.mask(b0 & 63, 64))
        var w = w0 + 1
        while w < w1 {
            set(w, ~0)
            w += 1
        }
        set(w1, Self.mask(0, ((b1 - 1) & 63) + 1))
    }

    /// Line `index`, the next one down the pile, shows in `row`'s group at columns `x0..<x1`.
    @inline(__always)
    func show(_ index: UInt32, row: Int, _ x0: Int, _ x1: Int) {
        showings.append(Showing(index: index, row: Int32(row), x0: Int32(x0), x1: Int32(x1)))
    }

    /// Line `index` looked at; `hiding` of its groups wholly hidden.
    @inline(__always)
    func looked(_ index: UInt32, hiding: Int) {
        precondition(index < lowest, "a pile is looked at from its top down")
        lowest = index
        hidden += hiding
        let word = Int(index >> 6), bit: UInt64 = 1 << UInt64(index & 63)
        if word >= lookedAt.count {
            lookedAt.append(contentsOf: repeatElement(0, count: word + 1 - lookedAt.count))
            hiddenWhole.append(contentsOf: repeatElement(0, count: word + 1 - hiddenWhole.count))
        }
        lookedAt[word] |= bit
        if showings.last?.index != index { hiddenWhole[word] |= bit }
    }

    /// Whether line `index` was looked at and shows nowhere.
    @inline(__always)
    public func isHidden(_ index: UInt32) -> Bool {
        let word = Int(index >> 6)
        return word < hiddenWhole.count && hiddenWhole[word] & (1 << UInt64(index & 63)) != 0
    }

    /// Whether line `index` was looked at (and so is drawn only where it shows).
    @inline(__always)
    func wasLooked(_ index: UInt32) -> Bool {
        let word = Int(index >> 6)
        return word < lookedAt.count && lookedAt[word] & (1 << UInt64(index & 63)) != 0
    }

    /// Calls `body` with each group where line `index` shows, a line looked at and the next one
    /// up the pile: the lines are drawn in paint order.
    @inline(__always)
    func forEachShowing(of index: UInt32, _ body: (Showing) -> Void) {
        while let last = showings.last, last.index <= index {
            showings.removeLast()
            if last.index == index { body(last) }
        }
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

    /// Whether a line takes part in a pile: drawn smooth as rows of pixels, and at least
    /// ``PileCover/narrowest`` pixels wide at `scale`.
    static func covers(_ line: Polyline, scale: Double) -> Bool {
        drawsSmoothAsRows(line) && line.width * scale >= PileCover.narrowest
    }

    /// Looks at `lines`, numbered from `first` in paint order, going down the pile: every line
    /// after them must have been looked at already, and each of them must then be drawn by
    /// ``stroke(_:from:over:)`` with the same number.
    public func cover(_ lines: ArraySlice<Polyline>, from first: UInt32, in pile: PileCover) {
        guard let space = pixelSpace(), let box = Self.oneBox(space.clip, width: space.width, height: space.height),
              pile.fits(box) else { return }
        var points = PixelLine.Points()
        for i in lines.indices.reversed() where Self.covers(lines[i], scale: space.scale) {
            let line = lines[i]
            // Its colour plays no part in what it hides (converting it was a seventieth of a build).
            let pixels = PixelLine(points: points.mapped(line.points, by: space.map), radius: line.width * space.scale / 2,
                                   pixel: 0, smooth: true)
            pixels.look(in: pile, index: first + UInt32(i - lines.startIndex))
        }
    }

    /// ``stroke(_:)`` of `lines`, numbered from `first` as they were looked at in `pile`, each
    /// line of the pile drawn only where it shows (those hidden everywhere not even read: a
    /// stand-in will do). Draws the others whole where the pile is not this clip's.
    public func stroke(_ lines: ArraySlice<Polyline>, from first: UInt32, over pile: PileCover) {
        guard !lines.isEmpty else { return }
        func strokeShowing() { stroke(zip(0..., lines).filter { !pile.isHidden(first + UInt32($0.0)) }.map(\.1)) }
        guard antialiasing != .draft, let space = pixelSpace(),
              let box = Self.oneBox(space.clip, width: space.width, height: space.height), pile.fits(box) else {
            return strokeShowing()
        }
        cairo_surface_flush(space.target)
        guard let data = cairo_image_surface_get_data(space.target) else { return strokeShowing() }
        let stride = Int(cairo_image_surface_get_stride(space.target))
        // Cairo's own drawing and the rows written here take turns: each tells the other.
        var flushed = true
        var points = PixelLine.Points()
        for (i, line) in zip(0..., lines) where !pile.isHidden(first + UInt32(i)) {
            guard Self.drawsSmoothAsRows(line) else {
                if flushed { cairo_surface_mark_dirty(space.target) }
                flushed = false
                strokeAsPath(line)
                continue
            }
            if !flushed { cairo_surface_flush(space.target) }
            flushed = true
            let pixels = PixelLine(points: points.mapped(line.points, by: space.map), radius: line.width * space.scale / 2,
                                   pixel: Self.opaquePixel(line.color), smooth: true)
            if pile.wasLooked(first + UInt32(i)) {
                pixels.draw(limit: box, into: data, stride: stride, over: pile, index: first + UInt32(i))
            } else {
                pixels.draw(limit: box, into: data, stride: stride)
            }
        }
        if flushed { cairo_surface_mark_dirty(space.target) }
    }
}
