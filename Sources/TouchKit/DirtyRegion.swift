/// A changed area kept as a few rectangles rather than one: ten fingers far apart repaint ten
/// small rectangles, not the box around all of them.
///
/// Rectangles that overlap are merged into their union. Past ``limit`` rectangles, the two whose
/// union adds the least area are merged, so the region stays short (a host damages each rectangle
/// and repaints each one separately).
public struct DirtyRegion: Equatable, Sendable {
    /// The rectangles, none of them empty; they may share edges but never overlap.
    public private(set) var rects: [Rect] = []
    /// The most rectangles kept.
    public let limit: Int

    public init(limit: Int = 16) {
        precondition(limit >= 1)
        self.limit = limit
    }

    /// A region of the given rectangles.
    public init<S: Sequence>(_ rects: S, limit: Int = 16) where S.Element == Rect {
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
        // Absorb every rectangle the growing one overlaps (a union may reach further ones).
        var changed = true
        while changed {
            changed = false
            var i = 0
            while i < rects.count {
                if rects[i].intersects(merged) {
                    merged = merged.union(rects.remove(at: i))
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
