// A clip as boxes of whole pixels, indexed by row, so a line's rows are cut to it cheaply.

/// Boxes with, for each pixel row, the range of those that cover it: a frame's clip has up to
/// about a hundred boxes, and a row meets a few.
struct RowBoxes {
    /// Sorted by their top row.
    let boxes: [PixelBox]
    /// Per row from `top`: the first box that may cover it and the end of those that may (all
    /// before `end` start at or above the row; those that end above it are skipped as they
    /// come). Only the rows the boxes span are indexed: a live line's clip is a few boxes about
    /// the line, and an index of every row of a 4K image was zeroed and filled every frame.
    private let start: [Int32]
    private let end: [Int32]
    private let top: Int
    /// The one box, when there is one (a whole image, a view, a tile): no index, and a row is
    /// cut by two comparisons (asking an array for its only box, per row, cost a few percent of
    /// a frame of long live lines).
    private let single: PixelBox?

    init(_ boxes: [PixelBox], height: Int) {
        single = boxes.count == 1 ? boxes[0] : nil
        guard boxes.count > 1 else {
            self.boxes = boxes
            start = []
            end = []
            top = 0
            return
        }
        let sorted = boxes.sorted { ($0.y0, $0.x0) < ($1.y0, $1.x0) }
        self.boxes = sorted
        // The rows from the first box's top to the lowest bottom, within the image.
        let top = min(max(sorted[0].y0, 0), max(height, 0))
        let bottom = min(sorted.reduce(top) { max($0, $1.y1) }, max(height, 0))
        self.top = top
        let rows = bottom - top + 1
        var start = [Int32](repeating: 0, count: rows)
        var end = [Int32](repeating: 0, count: rows)
        // Per row, the boxes covering it are a contiguous run only for banded clips (pixman's);
        // in general take from the first box still open to the last that has begun. That run
        // changes only at a box's top or bottom edge, so the rows between two edges are filled at
        // once: a frame's live lines index their clip every frame, and row by row that cost
        // tens of thousands of instructions at 1080p.
        var edges = [0, rows]
        for box in sorted {
            for y in [box.y0 - top, box.y1 - top] where y > 0 && y < rows { edges.append(y) }
        }
        edges.sort()
        var first = 0, begun = 0
        start.withUnsafeMutableBufferPointer { start in
            end.withUnsafeMutableBufferPointer { end in
                for (y, next) in zip(edges, edges.dropFirst()) where y < next {
                    while begun < sorted.count, sorted[begun].y0 <= y + top { begun += 1 }
                    while first < begun, sorted[first].y1 <= y + top, first < sorted.count { first += 1 }
                    start[y..<next].update(repeating: Int32(first))
                    end[y..<next].update(repeating: Int32(max(first, begun)))
                }
            }
        }
        self.start = start
        self.end = end
    }

    /// Cuts `span` to the boxes; calls `body` with each piece.
    @inline(__always)
    func cut(_ span: PixelSpan, _ body: (Int, Int) -> Void) {
        if let box = single {
            guard span.y >= box.y0, span.y < box.y1 else { return }
            let x0 = max(span.x0, box.x0), x1 = min(span.x1, box.x1)
            if x0 < x1 { body(x0, x1) }
            return
        }
        for i in band(span.y) {
            let box = boxes[i]
            guard span.y >= box.y0, span.y < box.y1 else { continue }
            let x0 = max(span.x0, box.x0), x1 = min(span.x1, box.x1)
            if x0 < x1 { body(x0, x1) }
        }
    }

    /// The boxes that may cover row `y` (check each box's rows).
    @inline(__always)
    func band(_ y: Int) -> Range<Int> {
        if let box = single { return y >= box.y0 && y < box.y1 ? 0..<1 : 0..<0 }
        let row = y - top
        guard row >= 0, row < start.count else { return 0..<0 }
        return Int(start[row])..<Int(end[row])
    }
}
