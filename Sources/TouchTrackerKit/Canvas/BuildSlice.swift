// One turn's work of the line cache's whole build in one band of the raster (LineCache+Build.swift).
// A band at 4K is 15 MB, far more than a core's cache, and the strokes of a drawing land anywhere in
// it: drawn in paint order over the whole band, nearly every edge pixel blended was a read from
// memory. So a band is drawn a strip of rows at a time, each strip about a megabyte: its paper is
// laid, then every stroke that shows there is drawn, clipped to its rows, while they stay in the
// cache. The strokes are first sorted into the strips they reach, in paint order, so the picture is
// still the one a single pass makes. Zoomed out, a strip's lines pile many times over: they are
// first looked at from the topmost down, finding where each still shows (Graphics' PileCover), and
// each line is then drawn only there.
import Graphics
#if canImport(Glibc)
import Glibc
#endif
import TouchKit

/// Where one band of a whole build stands: the strokes sorted into its strips so far, then the
/// strip being drawn and the next of its strokes. Only the band's own thread touches it during a
/// slice.
final class BandProgress: @unchecked Sendable {
    /// The band's rows laid with paper so far (from the top), up to `paperEnd`, in `paperColumns`.
    var paperRows: Int
    let paperEnd: Int
    let paperColumns: Range<Int>
    /// Strokes of the build looked at and sorted into `bins`.
    var binned = 0
    /// Per strip, the indices of the strokes that may show there, in paint order.
    var bins: [[Int32]]
    var strip = 0
    var next = 0
    /// Rows per strip.
    let stripRows: Int
    /// What the current strip's last `covered` strokes cover whole and where they show; `piled`:
    /// its strokes are drawn over it.
    let cover = PileCover()
    /// The lines of a chunk of the pile, and of a batch drawn over it, made again in place for
    /// each chunk and batch.
    var coverLines: [Polyline] = []
    var drawLines: [Polyline] = []
    var covered = 0
    var piled = false

    /// `paper`: the raster's pixels to lay with paper before lines are drawn there (nil: none).
    init(_ band: LineCache.BuildBand, paper: PixelBox?, stripBytes: Int) {
        let rows = (paper?.rows ?? 0..<0).clamped(to: band.top..<band.top + band.rows.height)
        paperRows = rows.isEmpty ? band.rows.height : rows.lowerBound - band.top
        paperEnd = rows.isEmpty ? band.rows.height : rows.upperBound - band.top
        paperColumns = paper?.columns ?? 0..<0
        stripRows = max(16, stripBytes / max(band.raster.width * 4, 1))
        bins = Array(repeating: [], count: (band.rows.height + stripRows - 1) / stripRows)
    }

    var isDone: Bool { strip >= bins.count }
}

/// One turn's work of a build, the same for every band: read only while the bands draw.
struct BuildSlice: @unchecked Sendable {
    let strokes: [Stroke]
    /// The strokes' boxes, in the same order.
    let boxes: [StrokeBox]
    /// No stroke is wider (in points).
    let widest: Double
    /// The stroke left out (the selected one, drawn on top by the canvas).
    let left: StrokeID?
    let ink: ScreenInk
    let viewport: CanvasViewport
    /// The paper laid first.
    let paper: Color
    /// At most this many strokes drawn per band.
    let most: Int
    /// The turn's clock, read by every band.
    let clock: TurnClock?
    /// The time each band may take: the turn's budget is the CPU of all of them, so a turn of
    /// the build costs what it did on one core and ends sooner.
    let budget: Double

    /// Strokes sorted between looks at the clock.
    static let binChunk = 4096
    /// Strokes of a pile looked at between looks at the clock.
    static let coverChunk = 64
    /// Stands for a stroke that takes no part in a pile: a circle (drawn through Cairo's path) or
    /// the one left out.
    private static let noLine = Polyline(points: [], width: 0, color: .clear)

    /// Rows laid with paper between looks at the clock: a fresh raster's rows fault their pages
    /// in as they are first written, and no turn pays for a whole 4K raster (10 to 20 ms).
    static let paperRowsAtOnce = 32

    /// Sorts the strokes into the band's strips, then lays each strip's paper and draws its
    /// strokes, until `most` are drawn or the turn's budget is spent.
    func draw(_ band: LineCache.BuildBand, _ progress: BandProgress) {
        let start = clock?.now ?? 0
        func spent() -> Bool { clock.map { $0.now - start >= budget } ?? false }
        while progress.binned < strokes.count {
            let end = min(progress.binned + Self.binChunk, strokes.count)
            sort(progress.binned..<end, of: band, into: progress)
            progress.binned = end
            if spent(), end < strokes.count { return }
        }
        var drawn = 0
        // The batch as positions in the bin: its strokes are read where they lie, not copied.
        var batch: [Int] = []
        batch.reserveCapacity(LineCache.buildBatch)
        while progress.strip < progress.bins.count {
            let rows = progress.strip * progress.stripRows..<min((progress.strip + 1) * progress.stripRows, band.rows.height)
            while progress.paperRows < min(rows.upperBound, progress.paperEnd) {
                let paperRows = progress.paperRows..<min(progress.paperRows + Self.paperRowsAtOnce, progress.paperEnd)
                band.rows.fill(rows: paperRows, columns: progress.paperColumns, with: paper)
                progress.paperRows = paperRows.upperBound
                if spent() { return }
            }
            let context = LineCache.strokeContext(band.raster.rows(band.top + rows.lowerBound..<band.top + rows.upperBound),
                                                  viewport: viewport)
            let bin = progress.bins[progress.strip]
            // Pixels of a stroke's width per point: narrower strokes take no part in a pile, and
            // when every stroke is that narrow (100,000 lines at 10 %) none is looked at.
            let pixelsPerPoint = viewport.zoom * band.raster.scale
            if progress.covered == 0, progress.next == 0 {
                progress.piled = widest * pixelsPerPoint >= PileCover.narrowest && progress.cover.reset(for: context)
            }
            // The pile is looked at from its top down, a chunk at a time.
            while progress.piled, progress.covered < bin.count {
                let end = bin.count - progress.covered, start = max(end - Self.coverChunk, 0)
                if progress.coverLines.count < end - start {
                    progress.coverLines = Array(repeating: Self.noLine, count: Self.coverChunk)
                }
                for (k, i) in bin[start..<end].enumerated() {
                    let stroke = strokes[Int(i)]
                    if stroke.kind == .circle || stroke.id == left || stroke.width * pixelsPerPoint < PileCover.narrowest {
                        // No part in the pile (a circle, the one left out, too narrow): a line of
                        // no width, which the pile passes over.
                        progress.coverLines[k].width = 0
                    } else {
                        StrokeRenderer.polyline(stroke, ink: ink, into: &progress.coverLines[k])
                    }
                }
                context.cover(progress.coverLines[..<(end - start)], from: UInt32(start + 1), in: progress.cover)
                progress.covered = bin.count - start
                // Nothing hidden (lines too few or apart): drawn as ever.
                if start == 0, progress.cover.hidden == 0 { progress.piled = false }
                if spent() { return }
            }
            // Consecutive strokes of the bin, numbered as they were looked at (the one left out
            // ends a batch).
            var first = progress.next
            func flush() {
                draw(batch, of: bin, from: UInt32(first + 1), into: progress, in: context)
                drawn += batch.count
                batch.removeAll(keepingCapacity: true)
                first = progress.next
            }
            while progress.next < bin.count, drawn < most {
                let position = progress.next
                progress.next += 1
                guard strokes[Int(bin[position])].id != left else {
                    flush()
                    continue
                }
                batch.append(position)
                guard batch.count == LineCache.buildBatch || progress.next == bin.count || drawn + batch.count >= most else { continue }
                flush()
                // After every batch: a line across a big canvas takes a tenth of a millisecond or
                // more, so batches stay small (sixteen lines a look overran the budget by more
                // than the budget).
                if spent() { break }
            }
            flush()
            guard progress.next >= bin.count else { return }
            progress.bins[progress.strip] = []
            progress.strip += 1
            progress.next = 0
            progress.covered = 0
            if drawn >= most || spent() { return }
        }
    }

    /// Draws the strokes at `positions` of `bin` (consecutive), in order, their lines made in the
    /// band's own memory for them (a line made anew was two heap blocks, its points and their
    /// pixels); circles through Cairo's path, in their place. Over a pile (`progress.piled`) the
    /// strokes are numbered from `first` as they were looked at, each drawn only where it shows:
    /// a line the pile hides everywhere is not made into points, and a run of nothing but those
    /// draws nothing.
    private func draw(_ positions: [Int], of bin: [Int32], from first: UInt32, into progress: BandProgress,
                      in context: CairoContext) {
        let pile = progress.piled ? progress.cover : nil
        if progress.drawLines.count < positions.count {
            progress.drawLines = Array(repeating: Self.noLine, count: max(positions.count, LineCache.buildBatch))
        }
        // Lines since the last circle, and how many of them show anywhere: none, and the clip is
        // not even looked at.
        var count = 0, shown = 0
        var start = first
        func flush() {
            if shown > 0 {
                if let pile {
                    context.stroke(progress.drawLines[..<count], from: start, over: pile)
                } else {
                    context.stroke(progress.drawLines[..<count])
                }
            }
            (count, shown) = (0, 0)
        }
        for (k, position) in positions.enumerated() {
            let index = Int(bin[position])
            if strokes[index].kind == .circle {
                flush()
                StrokeRenderer.draw(strokes[index], in: context, ink: ink)
                start = first + UInt32(k + 1)
                continue
            }
            // A line hidden everywhere keeps whatever its slot held: the pile does not read it
            // (emptying the slot was a hundredth of a 4K build).
            if !(pile?.isHidden(first + UInt32(k)) ?? false) {
                StrokeRenderer.polyline(strokes[index], ink: ink, into: &progress.drawLines[count])
                shown += 1
            }
            count += 1
        }
        flush()
    }

    /// Puts each of `range`'s strokes that may show in the band into the strips its box reaches.
    private func sort(_ range: Range<Int>, of band: LineCache.BuildBand, into progress: BandProgress) {
        let perPoint = viewport.zoom * band.raster.scale
        let strips = Double(progress.bins.count), perRow = 1 / Double(progress.stripRows)
        // A strip's index from a row of the band, clamped before it becomes an integer (a box
        // far off the canvas). Multiplied, not divided: two divisions a stroke were a third of
        // the sorting.
        func strip(_ row: Double) -> Int { Int(min(max(row * perRow, 0), strips - 1)) }
        let area = (minX: band.area.minX, minY: band.area.minY, maxX: band.area.maxX, maxY: band.area.maxY)
        boxes.withUnsafeBufferPointer { boxes in
            for i in range {
                // Strokes outside the band cost a glance at their box; only one across a corner
                // of the band's area is asked whether its segment comes near enough.
                let (top, bottom): (Double, Double)
                switch boxes[i].mayPaint(into: area) {
                case false?: continue
                case true?: (top, bottom) = (Double(boxes[i].minY), Double(boxes[i].maxY))
                case nil:
                    guard let box = strokes[i].bounds(ifPaintingInto: band.area) else { continue }
                    (top, bottom) = (box.minY, box.maxY)
                }
                // A pixel more each way: the box's pad at a low zoom is less than the blended edge.
                let first = strip((top - viewport.origin.y) * perPoint - Double(band.top) - 1)
                let last = strip((bottom - viewport.origin.y) * perPoint - Double(band.top) + 1)
                guard first <= last else { continue }
                for s in first...last { progress.bins[s].append(Int32(i)) }
            }
        }
    }
}

/// A clock the bands' threads read one at a time: a test's clock moves as it is read. A pthread
/// mutex rather than Synchronization's, which ThreadSanitizer does not see.
final class TurnClock: @unchecked Sendable {
    private let clock: Clock
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ clock: Clock) {
        self.clock = clock
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    var now: Double {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return clock.now
    }
}
