/// A changed area kept as a few rectangles rather than one: ten fingers far apart repaint ten
/// small rectangles, not the box around all of them.
///
/// Overlapping rectangles are merged into their union when that union is hardly larger than the
/// area they cover (a rectangle inside another disappears); rectangles along a diagonal line stay
/// apart. Past ``limit`` rectangles, the two whose union adds the least area are merged, so the
/// region stays short (a host damages each rectangle).
public struct DirtyRegion: Equatable, Sendable {
    /// The rectangles, none of them empty (they may overlap a little), in no particular order.
    public private(set) var rects: [Rect] = []
    /// The most rectangles kept.
    public let limit: Int

    /// The limit a region gets unless told otherwise.
    public static let defaultLimit = 128

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
        var merged = rect.standardized
        // Absorb every rectangle the growing one overlaps cheaply (a union may reach further ones).
        var changed = true
        while changed {
            changed = false
            var i = 0
            while i < rects.count {
                if Self.mergesCheaply(rects[i], merged) {
                    // Order does not matter: the last one fills the gap (no shifting).
                    rects.swapAt(i, rects.count - 1)
                    merged = merged.union(rects.removeLast())
                    changed = true
                } else {
                    i += 1
                }
            }
        }
        rects.append(merged)
        while rects.count > limit { mergeCheapestPair() }
    }

    /// Adds every rectangle of `other`.
    public mutating func add(_ other: DirtyRegion) {
        for rect in other.rects { add(rect) }
    }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    /// Whether `a` and `b` overlap and their union is at most a quarter larger than what they cover.
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
        add(a.union(b))
    }
}
