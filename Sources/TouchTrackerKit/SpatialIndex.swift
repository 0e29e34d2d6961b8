// Hit-testing that does not grow with the drawing: a uniform grid of square cells over the plane,
// each listing the strokes whose centre line passes through it. Drawing keeps one, updated from its
// change notifications, and answers `stroke(near:within:)` through it. It knows nothing of views,
// rasters or undo: strokes go in and out by id, and the caller says which of two strokes is on top.
import TouchKit

/// A spatial index of strokes for "which stroke is near this point" queries.
///
/// The plane is cut into square cells of ``cellSize`` points. A stroke is listed in every cell its
/// centre line touches (a circle: every cell of its box), so a query within radius `r` of a point
/// looks only at the cells of the square `point ± r`: its cost depends on how many strokes pass
/// near the point, not on how many the drawing holds. Strokes that would cover more than
/// ``maxCellsPerStroke`` cells (huge or non-finite coordinates) are kept in a short list that every
/// query scans.
///
/// Only ids are stored; the caller supplies the strokes (``nearest(to:within:lookup:)``) and for
/// removal the stroke as it was when inserted (Drawing's change notifications carry it).
public final class SpatialIndex {
    /// The side of one grid cell, in points.
    public let cellSize: Double
    /// Strokes covering more cells than this go to the scanned list instead.
    public let maxCellsPerStroke: Int

    /// Grid cell (packed column and row) -> slots of the strokes passing through it.
    private var cells: [Int64: [Int32]] = [:]
    /// Slot -> stroke id (`freeSlot`: none). A plain Int: an optional id would take 16 bytes.
    private var ids: [Int] = []
    private static let freeSlot = Int.min
    /// Slot -> where the stroke lies, in single precision, so that most candidates are turned
    /// away without looking the stroke up: a straight line's end points (`isSegment`), whose
    /// distance bound turns away more than a box would, else the stroke's bounds (min x, min y,
    /// max x, max y, rounded outwards).
    private var shapes: [SIMD4<Float>] = []
    private var isSegment: [Bool] = []
    /// Slot -> the query that last saw it, so a stroke in several cells is considered once.
    private var seen: [UInt32] = []
    private var slotByID = StrokeIDMap()
    private var freeSlots: [Int32] = []
    /// Slots of strokes not in the grid (too many cells).
    private var oversized: Set<Int32> = []
    /// The columns and rows of every cell ever listed since the last ``removeAll()`` (never
    /// shrinks): a rectangle's query looks only there, so a strip far from the drawing looks at
    /// nothing.
    private var columnsListed = (low: Int.max, high: Int.min), rowsListed = (low: Int.max, high: Int.min)
    /// How many slots the cells list in all: a query whose cells list more than the index holds
    /// strokes looks at each stroke once instead.
    private var listed = 0
    private var query: UInt32 = 0
    /// The most any indexed stroke's bounds reach beyond its centre line (never shrinks).
    private var maxPad = 0.0

    /// An empty index; `cellSize` suits fingers (a 20 pt hit radius spans at most 3 × 3 cells).
    public init(cellSize: Double = 32, maxCellsPerStroke: Int = 4096) {
        precondition(cellSize > 0 && cellSize.isFinite, "cellSize must be positive")
        self.cellSize = cellSize
        self.maxCellsPerStroke = maxCellsPerStroke
    }

    /// An index of `strokes`.
    public convenience init<S: Sequence>(_ strokes: S, cellSize: Double = 32) where S.Element == Stroke {
        self.init(cellSize: cellSize)
        // As long as needed and a sixteenth more (these arrays hold a quarter of the index's
        // bytes): growth would leave up to half unused, and the first few thousand lines drawn
        // after opening a drawing do not copy them.
        let count = strokes.underestimatedCount + strokes.underestimatedCount / 16
        ids.reserveCapacity(count)
        shapes.reserveCapacity(count)
        isSegment.reserveCapacity(count)
        seen.reserveCapacity(count)
        for stroke in strokes { insert(stroke) }
    }

    /// How many strokes are indexed.
    public var count: Int { slotByID.count }

    /// Whether a stroke with this id is indexed.
    public func contains(_ id: StrokeID) -> Bool { slotByID[id] != nil }

    // MARK: Changes

    /// Adds a stroke. A stroke with the same id is replaced only through ``remove(_:)`` first:
    /// inserting a known id does nothing.
    public func insert(_ stroke: Stroke) {
        guard slotByID[stroke.id] == nil else { return }
        let slot: Int32
        let id = stroke.id.rawValue
        let segment = Self.segment(stroke)
        let shape = segment ?? Self.box(stroke.bounds)
        if let free = freeSlots.popLast() {
            slot = free
            ids[Int(slot)] = id
            shapes[Int(slot)] = shape
            isSegment[Int(slot)] = segment != nil
        } else {
            slot = Int32(ids.count)
            ids.append(id)
            shapes.append(shape)
            isSegment.append(segment != nil)
            seen.append(0)
        }
        slotByID[stroke.id] = Int(slot)
        if stroke.width / 2 + 2 > maxPad { maxPad = stroke.width / 2 + 2 }
        if !forEachCell(of: stroke, { key in
            cells[key, default: []].append(slot)
            listed += 1
            let column = Int(key >> 32), row = Int(Int32(truncatingIfNeeded: key))
            if column < columnsListed.low { columnsListed.low = column }
            if column > columnsListed.high { columnsListed.high = column }
            if row < rowsListed.low { rowsListed.low = row }
            if row > rowsListed.high { rowsListed.high = row }
        }) {
            oversized.insert(slot)
        }
    }

    /// Removes `stroke`, which must have the geometry it had when inserted (its cells are found
    /// from it). Unknown ids are ignored.
    public func remove(_ stroke: Stroke) {
        guard let found = slotByID[stroke.id] else { return }
        slotByID[stroke.id] = nil
        let slot = Int32(found)
        if oversized.remove(slot) == nil {
            _ = forEachCell(of: stroke) { key in
                guard var list = cells[key], let i = list.firstIndex(of: slot) else { return }
                list.swapAt(i, list.count - 1)
                list.removeLast()
                listed -= 1
                cells[key] = list.isEmpty ? nil : list
            }
        }
        ids[Int(slot)] = Self.freeSlot
        freeSlots.append(slot)
    }

    /// Empties the index.
    public func removeAll() {
        cells.removeAll()
        ids.removeAll()
        shapes.removeAll()
        isSegment.removeAll()
        seen.removeAll()
        slotByID.removeAll()
        freeSlots.removeAll()
        oversized.removeAll()
        columnsListed = (Int.max, Int.min)
        rowsListed = (Int.max, Int.min)
        listed = 0
    }

    /// Applies one of Drawing's change notifications; `current` gives the strokes after the change
    /// (used for `.reset`).
    public func apply(_ change: Drawing.Change, current: () -> [Stroke]) {
        switch change {
        case .added(let stroke):
            insert(stroke)
        case .removed(let stroke):
            remove(stroke)
        case .updated(let old, let new):
            remove(old)
            insert(new)
        case .reset:
            removeAll()
            for stroke in current() { insert(stroke) }
        }
    }

    // MARK: Queries

    /// Calls `body` once for each indexed stroke that may pass within `radius` of `point`: every
    /// stroke that does is among them (and usually a few that do not).
    public func forEachCandidate(near point: Point, within radius: Double, _ body: (StrokeID) -> Void) {
        forEachCandidate(near: point, within: radius, pruneBeyond: nil, meeting: nil, body)
    }

    /// With `pruneBeyond`, cells are visited nearest first and the visit stops at the first cell
    /// farther from `point` than `pruneBeyond()`: a stroke that close lies in a cell at least that
    /// close (every cell its centre line crosses lists it), and those were all visited.
    /// With `rect` (inside the square `point ± radius`), strokes are turned away by whether they
    /// can paint into it rather than by their distance from `point`.
    private func forEachCandidate(near point: Point, within radius: Double, pruneBeyond: (() -> Double)?,
                                  meeting rect: Rect?, _ body: (StrokeID) -> Void) {
        query &+= 1
        if query == 0 {  // wrapped: forget old marks
            for i in seen.indices { seen[i] = 0 }
            query = 1
        }
        // A hair more than the radius: the distance and the cell maths round differently.
        let reach = radius * (1 + 1e-9) + 1e-9
        // Strokes whose bounds are farther than the radius cannot be within it (the same test the
        // scan makes), nor paint into a rectangle they do not meet; NaN lets everything through, as
        // the scan's test then decides nothing.
        let low = rect.map { SIMD2<Float>(Self.up($0.maxX), Self.up($0.maxY)) }
            ?? SIMD2<Float>(Self.up(point.x + reach), Self.up(point.y + reach))
        let high = rect.map { SIMD2<Float>(Self.down($0.minX), Self.down($0.minY)) }
            ?? SIMD2<Float>(Self.down(point.x - reach), Self.down(point.y - reach))
        let boxTest = reach.isFinite && point.x.isFinite && point.y.isFinite
        /// At most the distance from `point` to the line stored as `g`: the distance to the
        /// single-precision end points, less how far rounding may have moved them.
        func distanceBound(to g: SIMD4<Float>) -> Double {
            let a = Point(x: Double(g[0]), y: Double(g[1])), b = Point(x: Double(g[2]), y: Double(g[3]))
            return Stroke.distance(from: point, toSegment: a, b) - Self.roundingSlack(g)
        }
        /// Whether the line stored as `g` may paint into `rect`: it passes within the widest
        /// stroke's reach of it, and rounding's. Its box first; then the line itself, since a
        /// zoomed-in tile of a dense drawing meets the boxes of several times the lines that cross
        /// it (long diagonals), and each one let through costs the caller a look-up.
        func mayPaint(_ g: SIMD4<Float>, into rect: Rect) -> Bool {
            let pad = maxPad + Self.roundingSlack(g)
            guard Double(Swift.min(g[0], g[2])) - pad <= rect.maxX && Double(Swift.max(g[0], g[2])) + pad >= rect.minX
                && Double(Swift.min(g[1], g[3])) - pad <= rect.maxY && Double(Swift.max(g[1], g[3])) + pad >= rect.minY
            else { return false }
            return Stroke.clip(Point(x: Double(g[0]), y: Double(g[1])), Point(x: Double(g[2]), y: Double(g[3])),
                               to: rect.insetBy(dx: -pad, dy: -pad)) != nil
        }
        func visit(_ slot: Int32) {
            let s = Int(slot)
            let id = ids[s]
            guard seen[s] != query, id != Self.freeSlot else { return }
            seen[s] = query
            if boxTest {
                let g = shapes[s]
                if !isSegment[s] {
                    // min x <= p.x + r, min y <= p.y + r, max x >= p.x - r, max y >= p.y - r
                    guard g[0] <= low[0], g[1] <= low[1], g[2] >= high[0], g[3] >= high[1] else { return }
                } else if let rect {
                    guard mayPaint(g, into: rect) else { return }
                } else {
                    // Farther than the radius, or than the nearest stroke found so far: it cannot
                    // be the answer, and the costlier look-up is skipped. (A stroke within the
                    // radius is within its bounds' reach too, so no box test is needed first.)
                    var limit = reach
                    if let pruneBeyond { limit = Swift.min(limit, pruneBeyond() * (1 + 1e-9) + 1e-9) }
                    if distanceBound(to: g) > limit { return }
                }
            }
            body(StrokeID(id))
        }
        for slot in oversized { visit(slot) }
        guard radius >= 0, point.x.isFinite, point.y.isFinite else { return }
        if let rect {
            // The rectangle's own cells, widened by the widest stroke's reach (a stroke painting
            // into it has its centre line there), and only where cells were ever listed: a tall
            // strip a scroll uncovers is not looked at as the square around it, and one far from
            // the drawing (zoomed out, most of them) looks at nothing.
            let pad = maxPad * (1 + 1e-9) + 1e-9 + cellSize * 1e-9
            guard let wide = cellRange(rect.minX - pad, rect.maxX + pad), let high = cellRange(rect.minY - pad, rect.maxY + pad) else { return }
            let left = Swift.max(wide.lowerBound, columnsListed.low), right = Swift.min(wide.upperBound, columnsListed.high)
            let top = Swift.max(high.lowerBound, rowsListed.low), bottom = Swift.min(high.upperBound, rowsListed.high)
            guard left <= right, top <= bottom else { return }
            let columns = left...right, rows = top...bottom
            // Cells that list more slots than there are strokes (a rectangle over most of a dense
            // drawing): each stroke once is fewer looks.
            if Double(columns.count) * Double(rows.count) * Double(listed) > Double(ids.count) * Double(Swift.max(cells.count, 1)) {
                for slot in ids.indices { visit(Int32(slot)) }
                return
            }
            for column in columns {
                for row in rows {
                    guard let list = cells[Self.key(column, row)] else { continue }
                    for slot in list { visit(slot) }
                }
            }
            return
        }
        guard let columns = cellRange(point.x - reach, point.x + reach),
              let rows = cellRange(point.y - reach, point.y + reach),
              Double(columns.count) * Double(rows.count) <= Double(Swift.max(cells.count, 16))
        else {
            // The square spans more cells than exist: visit every stroke instead.
            for slot in ids.indices { visit(Int32(slot)) }
            return
        }
        guard let pruneBeyond else {
            for column in columns {
                for row in rows {
                    guard let list = cells[Self.key(column, row)] else { continue }
                    for slot in list { visit(slot) }
                }
            }
            return
        }
        var nearestFirst: [(distance: Double, key: Int64)] = []
        nearestFirst.reserveCapacity(columns.count * rows.count)
        for column in columns {
            for row in rows {
                let key = Self.key(column, row)
                guard cells[key] != nil else { continue }
                let x0 = Double(column) * cellSize, y0 = Double(row) * cellSize
                let dx = Swift.max(x0 - point.x, 0, point.x - (x0 + cellSize))
                let dy = Swift.max(y0 - point.y, 0, point.y - (y0 + cellSize))
                nearestFirst.append(((dx * dx + dy * dy).squareRoot(), key))
            }
        }
        nearestFirst.sort { $0.distance < $1.distance }
        for (distance, key) in nearestFirst {
            // Slack for rounding: a tie at the limit is still visited (the top-most may be there).
            let limit = pruneBeyond()
            if distance > limit * (1 + 1e-9) + 1e-9 { return }
            for slot in cells[key]! { visit(slot) }
        }
    }

    /// Calls `body` once for each indexed stroke whose painted area (``Stroke/bounds``) may meet
    /// `rect`: every stroke that does is among them.
    public func forEachCandidate(intersecting rect: Rect, _ body: (StrokeID) -> Void) {
        // A stroke paints up to `maxPad` beyond its centre line, so look that much further.
        let center = Point(x: rect.midX, y: rect.midY)
        let reach = Swift.max(rect.width, rect.height) / 2 + maxPad
        guard reach.isFinite else { return forEachCandidate(near: center, within: .infinity, body) }
        forEachCandidate(near: center, within: reach, pruneBeyond: nil, meeting: rect, body)
    }

    /// The stroke nearest to `point` whose centre line passes within `radius` of it; of equally
    /// near ones the top-most. `lookup` gives an id's stroke and its place in the paint order
    /// (higher is on top), or nil for ids to skip. The same answer as
    /// ``nearest(in:to:within:)`` over the same strokes, without looking at all of them.
    public func nearest(to point: Point, within radius: Double,
                        lookup: (StrokeID) -> (stroke: Stroke, order: Int)?) -> Stroke? {
        var best: Nearest?
        forEachCandidate(near: point, within: radius, pruneBeyond: { best?.distance ?? .infinity }, meeting: nil) { id in
            guard let (stroke, order) = lookup(id) else { return }
            Self.consider(stroke, order: order, point: point, radius: radius, best: &best)
        }
        return best?.stroke
    }

    /// The definition the index must match, by looking at every stroke: the nearest stroke within
    /// `radius`, the top-most (latest in `strokes`) of equally near ones.
    public static func nearest(in strokes: [Stroke], to point: Point, within radius: Double) -> Stroke? {
        var best: Nearest?
        for (order, stroke) in strokes.enumerated() {
            consider(stroke, order: order, point: point, radius: radius, best: &best)
        }
        return best?.stroke
    }

    // MARK: Private

    private struct Nearest {
        var stroke: Stroke
        var distance: Double
        var order: Int
    }

    private static func consider(_ stroke: Stroke, order: Int, point: Point, radius: Double,
                                 best: inout Nearest?) {
        let bounds = stroke.bounds
        guard point.x >= bounds.minX - radius, point.x <= bounds.maxX + radius,
              point.y >= bounds.minY - radius, point.y <= bounds.maxY + radius else { return }
        let distance = stroke.distance(to: point)
        guard distance <= radius else { return }
        if let current = best,
           distance > current.distance || (distance == current.distance && order < current.order) { return }
        best = Nearest(stroke: stroke, distance: distance, order: order)
    }

    /// A two-point line's end points in single precision; nil for anything else (and for lines
    /// too far out for single precision to bound their distance well).
    private static func segment(_ stroke: Stroke) -> SIMD4<Float>? {
        func near(_ v: Double) -> Bool { Swift.abs(v) < 1e7 }  // false for NaN
        guard stroke.kind == .line, let (a, b) = stroke.pair, near(a.x), near(a.y), near(b.x), near(b.y)
        else { return nil }
        return SIMD4(Float(a.x), Float(a.y), Float(b.x), Float(b.y))
    }

    /// At most how far rounding to single precision moved the end points of `segment`.
    private static func roundingSlack(_ segment: SIMD4<Float>) -> Double {
        let magnitude = Swift.max(Swift.abs(segment[0]), Swift.abs(segment[1]), Swift.abs(segment[2]), Swift.abs(segment[3]))
        return Double(magnitude) * 2.4e-7 + 1e-6
    }

    /// `rect` in single precision, rounded outwards (never smaller than the Double rectangle).
    private static func box(_ rect: Rect) -> SIMD4<Float> {
        SIMD4(down(rect.minX), down(rect.minY), up(rect.maxX), up(rect.maxY))
    }

    /// The largest Float not above `v` (and the smallest not below): conservative comparisons.
    private static func down(_ v: Double) -> Float { let f = Float(v); return Double(f) <= v ? f : f.nextDown }
    private static func up(_ v: Double) -> Float { let f = Float(v); return Double(f) >= v ? f : f.nextUp }

    private static func key(_ column: Int, _ row: Int) -> Int64 {
        (Int64(column) << 32) | Int64(UInt32(truncatingIfNeeded: row))
    }

    /// Cells spanned by [low, high] along one axis, or nil when out of the grid's range.
    private func cellRange(_ low: Double, _ high: Double) -> ClosedRange<Int>? {
        let a = (low / cellSize).rounded(.down), b = (high / cellSize).rounded(.down)
        guard a.isFinite, b.isFinite, a <= b, a >= -2_000_000_000, b <= 2_000_000_000 else { return nil }
        return Int(a)...Int(b)
    }

    /// Calls `body` with every cell the stroke's centre line touches (each at least once). Returns
    /// false, calling nothing, when that would be more than `maxCellsPerStroke` cells.
    private func forEachCell(of stroke: Stroke, _ body: (Int64) -> Void) -> Bool {
        let points = stroke.points
        var boxes: [(ClosedRange<Int>, ClosedRange<Int>)] = []
        var total = 0
        func add(_ columns: ClosedRange<Int>?, _ rows: ClosedRange<Int>?) -> Bool {
            guard let columns, let rows else { return false }
            total += columns.count * rows.count
            guard total <= maxCellsPerStroke else { return false }
            boxes.append((columns, rows))
            return true
        }
        // Rounding slack so that a point on the line, as the distance maths computes it, is in a
        // listed cell even when it sits on a cell border.
        let slack = cellSize * 1e-9
        switch stroke.kind {
        case .circle:
            guard points.count >= 2 else { return true }  // no outline: never hit
            let box = Rect(enclosing: points[0], points[1])
            guard add(cellRange(box.minX - slack, box.maxX + slack), cellRange(box.minY - slack, box.maxY + slack))
            else { return false }
        case .line, .freehand:
            guard let first = points.first else { return true }
            if points.count == 1 {
                guard add(cellRange(first.x - slack, first.x + slack), cellRange(first.y - slack, first.y + slack))
                else { return false }
            }
            for i in points.indices.dropFirst() {
                let a = points[i - 1], b = points[i]
                guard let columns = cellRange(Swift.min(a.x, b.x) - slack, Swift.max(a.x, b.x) + slack)
                else { return false }
                // Column by column: the rows the segment crosses within that column's x interval.
                for column in columns {
                    let x0 = Swift.max(Swift.min(a.x, b.x), Double(column) * cellSize)
                    let x1 = Swift.min(Swift.max(a.x, b.x), Double(column + 1) * cellSize)
                    let y0: Double, y1: Double
                    if a.x == b.x || x0 > x1 {
                        (y0, y1) = (Swift.min(a.y, b.y), Swift.max(a.y, b.y))
                    } else {
                        let slope = (b.y - a.y) / (b.x - a.x)
                        let ya = a.y + (x0 - a.x) * slope, yb = a.y + (x1 - a.x) * slope
                        (y0, y1) = (Swift.max(Swift.min(ya, yb), Swift.min(a.y, b.y)),
                                    Swift.min(Swift.max(ya, yb), Swift.max(a.y, b.y)))
                    }
                    let pad = slack + Swift.abs(y1 - y0) * 1e-9
                    guard add(column...column, cellRange(y0 - pad, y1 + pad)) else { return false }
                }
            }
        }
        for (columns, rows) in boxes {
            for column in columns {
                for row in rows { body(Self.key(column, row)) }
            }
        }
        return true
    }
}
