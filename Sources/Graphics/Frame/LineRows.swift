// One live line as a window buffer holds it, kept for the compositor's damage in the next frame
// shown after it. A live line keeps where it starts, its width and its colour while its finger
// moves, so the same line is found again in the next frame; between the two, a pixel can differ
// only where either touches it and it is not covered whole by both. A line swinging about where
// its finger landed then changes its edges and the wedge it swept, not all of its pixels: zoomed
// in, a line is a hundred pixels wide and more, and the compositor repaints what it is told
// changed. Narrow lines are damaged whole: their boxes are hardly wider than their edges.
import TouchKit

struct LineRows {
    /// What finds the line again: where it starts (pixels), its radius and its pixel value.
    struct Key: Equatable {
        let x: Double, y: Double, radius: Double
        let pixel: UInt32
    }

    let key: Key
    /// A few boxes per block of ``RowDamage/blockShift`` rows around every pixel it touches.
    let boxes: [PixelBox]
    /// For a wide straight line, per row from `top`: the pixels it touches, and those it covers
    /// whole (none where `x1 <= x0`).
    private var top = 0
    private var touched: [(x0: Int32, x1: Int32)] = []
    private var whole: [(x0: Int32, x1: Int32)] = []

    /// Lines at least this many pixels across are followed row by row.
    static let wide = 32.0

    /// `line` drawn as `runs` (its own, from ``PixelLine/runs(limit:clip:)``).
    init(_ line: PixelLine, _ runs: PixelLine.Runs) {
        let start = line.points.first ?? (0, 0)
        key = Key(x: start.x, y: start.y, radius: line.radius, pixel: line.pixel)
        var boxes: [PixelBox] = []
        Self.addBoxes(of: runs.covered, to: &boxes)
        self.boxes = boxes
        guard line.points.count <= 2, line.radius * 2 >= Self.wide, let first = runs.covered.first else { return }
        // A straight line's runs come row by row, a row's several when the clip cuts it.
        top = first.y
        touched.reserveCapacity((runs.covered.last?.y ?? top) - top + 1)
        for run in runs.covered {
            let r = run.y - top
            while touched.count <= r { touched.append((0, 0)) }
            if touched[r].x1 <= touched[r].x0 {
                touched[r] = (Int32(run.x0), Int32(run.x1))
            } else {
                touched[r] = (min(touched[r].x0, Int32(run.x0)), max(touched[r].x1, Int32(run.x1)))
            }
        }
        guard line.smooth else {
            whole = touched
            return
        }
        whole.reserveCapacity(touched.count)
        for r in touched.indices {
            let i = top + r - runs.innerTop
            guard i >= 0, i < runs.inner.count else { whole.append((0, 0)); continue }
            whole.append((max(runs.inner[i].x0, touched[r].x0), min(runs.inner[i].x1, touched[r].x1)))
        }
    }

    /// Each of `lines` drawn as `runs`, when a wide line is among them; nil otherwise: a narrow
    /// line's damage is its boxes anyway, and finding it again costs more than it saves.
    static func shapes(of lines: [PixelLine], drawn runs: [PixelLine.Runs]) -> [LineRows]? {
        guard lines.contains(where: { $0.radius * 2 >= wide }) else { return nil }
        return zip(lines, runs).map { LineRows($0, $1) }
    }

    /// Per row of an image `height` rows high, pixels one of `lines` covers whole (the widest
    /// such run where several do).
    static func wholeRows(of lines: [LineRows], height: Int) -> [(x0: Int32, x1: Int32)] {
        var rows = [(x0: Int32, x1: Int32)](repeating: (0, 0), count: height)
        for line in lines {
            for (r, run) in line.whole.enumerated() {
                let y = line.top + r
                guard y >= 0, y < height, run.x1 - run.x0 > rows[y].x1 - rows[y].x0 else { continue }
                rows[y] = run
            }
        }
        return rows
    }

    /// Adds to `boxes` boxes around `runs`, one per block of rows per run of blocks.
    static func addBoxes(of runs: [PixelSpan], to boxes: inout [PixelBox]) {
        var box: PixelBox?
        for run in runs {
            if var b = box, b.y0 >> RowDamage.blockShift == run.y >> RowDamage.blockShift {
                b.x0 = min(b.x0, run.x0)
                b.x1 = max(b.x1, run.x1)
                b.y0 = min(b.y0, run.y)
                b.y1 = max(b.y1, run.y + 1)
                box = b
            } else {
                if let box { boxes.append(box) }
                box = PixelBox(x0: run.x0, y0: run.y, x1: run.x1, y1: run.y + 1)
            }
        }
        if let box { boxes.append(box) }
    }

    /// Adds to `out` boxes around every pixel that may differ between `old`'s lines and `new`'s,
    /// drawn in order over the same backdrop. A line found in both (the same key, once in each,
    /// in the same order as the others found) adds what may differ between its two positions;
    /// every other line adds all of its boxes. (Any two lines of one colour could be paired so:
    /// the key only pairs those that moved little.)
    static func changes(from old: [LineRows], to new: [LineRows], into out: inout [PixelBox]) {
        var found = Array(repeating: false, count: old.count)
        var next = 0
        for line in new {
            // Looked for after the last one found: a view hands over a few lines (one per
            // finger), in the same order from frame to frame.
            if let i = old[next...].firstIndex(where: { $0.key == line.key }) {
                found[i] = true
                next = i + 1
                changes(from: old[i], to: line, into: &out)
            } else {
                out.append(contentsOf: line.boxes)
            }
        }
        for i in old.indices where !found[i] { out.append(contentsOf: old[i].boxes) }
    }

    /// Boxes around the pixels that may differ between the line drawn as `a` and as `b`.
    private static func changes(from a: LineRows, to b: LineRows, into out: inout [PixelBox]) {
        guard !a.touched.isEmpty, !b.touched.isEmpty else {
            out.append(contentsOf: a.boxes)
            out.append(contentsOf: b.boxes)
            return
        }
        var open = BlockBoxes()
        for y in min(a.top, b.top)..<max(a.top + a.touched.count, b.top + b.touched.count) {
            let (ta, wa) = a.row(y), (tb, wb) = b.row(y)
            // Covered whole in both: the line's pixel in both.
            let s0 = max(wa.x0, wb.x0), s1 = min(wa.x1, wb.x1)
            func emit(_ x0: Int32, _ x1: Int32) {
                guard x0 < x1 else { return }
                guard s0 < s1, s0 < x1, x0 < s1 else { return open.add(y: y, Int(x0), Int(x1), into: &out) }
                if x0 < s0 { open.add(y: y, Int(x0), Int(s0), into: &out) }
                if s1 < x1 { open.add(y: y, Int(s1), Int(x1), into: &out) }
            }
            if ta.x1 <= ta.x0 {
                emit(tb.x0, tb.x1)
            } else if tb.x1 <= tb.x0 {
                emit(ta.x0, ta.x1)
            } else if ta.x0 <= tb.x1, tb.x0 <= ta.x1 {
                emit(min(ta.x0, tb.x0), max(ta.x1, tb.x1))
            } else {
                emit(ta.x0, ta.x1)
                emit(tb.x0, tb.x1)
            }
        }
        open.flush(into: &out)
    }

    private func row(_ y: Int) -> (touched: (x0: Int32, x1: Int32), whole: (x0: Int32, x1: Int32)) {
        let r = y - top
        guard r >= 0, r < touched.count else { return ((0, 0), (0, 0)) }
        return (touched[r], whole[r])
    }
}

/// Runs of rows gathered into boxes within blocks of ``RowDamage/blockShift`` rows: a run joins
/// a box of its block that it overlaps or nearly meets, as RowDamage merges boxes.
private struct BlockBoxes {
    private var block = Int.min
    private var boxes: [PixelBox] = []

    mutating func add(y: Int, _ x0: Int, _ x1: Int, into out: inout [PixelBox]) {
        if y >> RowDamage.blockShift != block {
            flush(into: &out)
            block = y >> RowDamage.blockShift
        }
        for i in boxes.indices where x0 <= boxes[i].x1 + RowDamage.joinGap && x1 + RowDamage.joinGap >= boxes[i].x0 {
            boxes[i].x0 = min(boxes[i].x0, x0)
            boxes[i].x1 = max(boxes[i].x1, x1)
            boxes[i].y1 = y + 1
            return
        }
        boxes.append(PixelBox(x0: x0, y0: y, x1: x1, y1: y + 1))
    }

    mutating func flush(into out: inout [PixelBox]) {
        out.append(contentsOf: boxes)
        boxes.removeAll(keepingCapacity: true)
    }
}
