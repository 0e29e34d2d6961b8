/// A changed area kept as the rectangles that changed rather than one box: ten fingers far apart
/// repaint ten small rectangles, not the box around all of them, and lines crossing the window
/// repaint the bands along them, not the window.
///
/// Rectangles may overlap: whoever paints takes their exact union (Graphics does, with pixman's
/// regions). Adding is constant time, so a frame may mark hundreds of pieces: a rectangle inside
/// the one added last is dropped, and one that overlaps it cheaply (their union is hardly larger
/// than what they cover, as consecutive pieces along a line do) is merged with it. Merging with
/// any other rectangle is left out on purpose: unions of unions grew, crossing line by crossing
/// line, into boxes as large as the window. Past ``limit`` rectangles, neighbours are merged
/// until the list fits again.
public struct DirtyRegion: Equatable, Sendable {
    /// The rectangles, none of them empty (they may overlap), in no particular order.
    public private(set) var rects: [Rect] = []
    /// The most rectangles kept.
    public let limit: Int

    /// The limit a region gets unless told otherwise: far more than ten fingers' long lines mark
    /// in a frame (a few hundred pieces).
    public static let defaultLimit = 2048

    public init(limit: Int = defaultLimit) {
        precondition(limit >= 1)
        self.limit = limit
    }

    /// A region of the given rectangles.
    public init<S: Sequence>(_ rects: S, limit: Int = defaultLimit) where S.Element == Rect {
        self.init(limit: limit)
        for rect in rects { add(rect) }
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rectangle around the region, nil when empty.
    public var bounds: Rect? {
        rects.isEmpty ? nil : rects.dropFirst().reduce(rects[0]) { $0.union($1) }
    }

    /// Adds a rectangle (empty ones are ignored).
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        let rect = rect.standardized
        if let last = rects.last {
            if last.contains(rect) { return }
            if Self.mergesCheaply(last, rect) {
                rects[rects.count - 1] = last.union(rect)
                return
            }
        }
        rects.append(rect)
        if rects.count > limit { compact() }
    }

    /// Adds every rectangle of `other`.
    public mutating func add(_ other: DirtyRegion) {
        for rect in other.rects { add(rect) }
    }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    /// Brings the list within ``limit``: neighbours in reading order are merged pairwise while the
    /// list is long (a search for the best pair would cost the square of its length), then the
    /// pairs whose union adds the least area.
    private mutating func compact() {
        while rects.count > max(limit, 64) {
            rects.sort { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
            var halved: [Rect] = []
            halved.reserveCapacity(rects.count / 2 + 1)
            var i = 0
            while i < rects.count {
                halved.append(i + 1 < rects.count ? rects[i].union(rects[i + 1]) : rects[i])
                i += 2
            }
            rects = halved
        }
        while rects.count > limit { mergeCheapestPair() }
    }

    private static func mergesCheaply(_ a: Rect, _ b: Rect) -> Bool {
        let overlap = a.intersection(b)
        guard !overlap.isEmpty else { return false }
        let u = a.union(b)
        let covered = a.width * a.height + b.width * b.height - overlap.width * overlap.height
        return u.width * u.height <= covered * 1.25
    }

    private mutating func mergeCheapestPair() {
        var best = (i: 0, j: 1, waste: Double.infinity)
        for i in rects.indices {
            for j in rects.indices where j > i {
                let u = rects[i].union(rects[j])
                let waste = u.width * u.height - rects[i].width * rects[i].height - rects[j].width * rects[j].height
                if waste < best.waste { best = (i, j, waste) }
            }
        }
        let b = rects.remove(at: best.j)
        let a = rects.remove(at: best.i)
        rects.append(a.union(b))
    }
}
