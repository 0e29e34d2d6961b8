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
    /// a few percent of a frame of long lines. The blocks lie one after another in one array,
    /// merged in place: an array per block was an allocation per block of rows, every frame.
    static func rects(covering input: [PixelBox], limit: Int = 128) -> [Rect] {
        guard let bottom = input.map(\.y0).max() else { return [] }
        var shift = blockShift
        func block(_ box: PixelBox) -> Int { max(box.y0, 0) >> shift }
        // A counting sort into blocks, each block's boxes in the order given.
        let blocks = max(bottom, 0) >> shift + 1
        var starts = [Int](repeating: 0, count: blocks + 1)
        for box in input { starts[block(box) + 1] += 1 }
        for i in 0..<blocks { starts[i + 1] += starts[i] }
        var boxes = input
        var next = starts
        for box in input {
            let b = block(box)
            boxes[next[b]] = box
            next[b] += 1
        }
        starts = merge(&boxes, blocks: starts, step: 1)
        while starts[starts.count - 1] > limit, shift < 12 {
            shift += 1
            starts = merge(&boxes, blocks: starts, step: 2)
        }
        return boxes[..<starts[starts.count - 1]].map {
            Rect(x: Double($0.x0), y: Double($0.y0), width: Double($0.x1 - $0.x0), height: Double($0.y1 - $0.y0))
        }
    }

    /// Each run of `step` blocks (the boxes between consecutive `blocks` starts) made one block,
    /// its boxes in order of x, each merged into the one before where they overlap or nearly
    /// meet; packed to the front of `boxes` (a block's boxes never move right, so nothing is
    /// overwritten before it is read). Returns the new blocks' starts.
    private static func merge(_ boxes: inout [PixelBox], blocks: [Int], step: Int) -> [Int] {
        let count = blocks.count - 1
        var starts = [0]
        starts.reserveCapacity(count / step + 2)
        var written = 0
        for first in stride(from: 0, to: count, by: step) {
            let range = blocks[first]..<blocks[min(first + step, count)]
            if range.count > 1 { boxes[range].sort { $0.x0 < $1.x0 } }
            let blockStart = written
            for i in range {
                let box = boxes[i]
                if written > blockStart, box.x0 <= boxes[written - 1].x1 + joinGap {
                    let last = boxes[written - 1]
                    boxes[written - 1] = PixelBox(x0: last.x0, y0: min(last.y0, box.y0), x1: max(last.x1, box.x1), y1: max(last.y1, box.y1))
                } else {
                    boxes[written] = box
                    written += 1
                }
            }
            starts.append(written)
        }
        return starts
    }
}
