// The compositor's damage for lines drawn as rows of pixels: a few boxes per line per block of
// rows, however many lines, so neither the messages nor the compositor's work grow with them.

import TouchKit

enum RowDamage {
    /// Boxes are kept within blocks of 32 rows: a straight line crosses a block in a narrow box.
    static let blockShift = 5
    /// Boxes of a block this many pixels apart or less are joined: a box costs the compositor
    /// more than the few pixels between.
    static let joinGap = 16

    /// `boxes` (each within one block of rows) merged where they overlap or nearly meet within
    /// a block, as rectangles (image pixels); blocks are paired up until at most `limit` remain,
    /// so the compositor gets a few boxes however many lines there are. Boxes are put in their
    /// block once and sorted there: sorting all of them again for each coarser block size cost
    /// a few percent of a frame of long lines.
    static func rects(covering boxes: [PixelBox], limit: Int = 128) -> [Rect] {
        guard let bottom = boxes.map(\.y0).max() else { return [] }
        var shift = blockShift
        var blocks = [[PixelBox]](repeating: [], count: max(bottom, 0) >> shift + 1)
        for box in boxes { blocks[max(box.y0, 0) >> shift].append(box) }
        for i in blocks.indices where blocks[i].count > 1 { blocks[i] = merged(blocks[i]) }
        var count = blocks.reduce(0) { $0 + $1.count }
        while count > limit, shift < 12 {
            shift += 1
            blocks = stride(from: 0, to: blocks.count, by: 2).map { i in
                merged(i + 1 < blocks.count ? blocks[i] + blocks[i + 1] : blocks[i])
            }
            count = blocks.reduce(0) { $0 + $1.count }
        }
        return blocks.joined().map { Rect(x: Double($0.x0), y: Double($0.y0), width: Double($0.x1 - $0.x0), height: Double($0.y1 - $0.y0)) }
    }

    /// One block's boxes in order of x, each merged into the one before where they overlap or
    /// nearly meet.
    private static func merged(_ boxes: [PixelBox]) -> [PixelBox] {
        guard boxes.count > 1 else { return boxes }
        var merged: [PixelBox] = []
        merged.reserveCapacity(boxes.count)
        for box in boxes.sorted(by: { $0.x0 < $1.x0 }) {
            if let last = merged.last, box.x0 <= last.x1 + joinGap {
                merged[merged.count - 1] = PixelBox(x0: last.x0, y0: min(last.y0, box.y0), x1: max(last.x1, box.x1), y1: max(last.y1, box.y1))
            } else {
                merged.append(box)
            }
        }
        return merged
    }
}
