// Stroke id -> small number (a place in the paint order, a slot of the hit-test index). Ids are
// handed out counting up, so a drawing's ids are dense: an array indexed by id costs 4 bytes a
// stroke where a hashed dictionary costs 20 to 40 and hashes on every look-up. Ids far apart (a
// hand-edited file, or far more strokes made and deleted than kept) fall back to a dictionary.

/// A map from stroke ids to non-negative `Int32`-sized numbers.
struct StrokeIDMap {
    /// id -> value, or -1 for none; used while `sparse` is nil.
    private var dense: [Int32] = []
    /// The map once ids stopped being dense; kept until ``removeAll()``.
    private var sparse: [StrokeID: Int32]?
    private(set) var count = 0

    subscript(id: StrokeID) -> Int? {
        get {
            if let sparse { return sparse[id].map(Int.init) }
            let i = id.rawValue
            guard i >= 0, i < dense.count else { return nil }
            let value = dense[i]
            return value < 0 ? nil : Int(value)
        }
        set {
            precondition(newValue.map { $0 >= 0 && $0 <= Int(Int32.max) } ?? true, "value out of range")
            let value = newValue.map { Int32($0) }
            if sparse == nil, !fitsDense(id, adding: value != nil) { makeSparse() }
            if sparse != nil {
                let old = sparse![id]
                sparse![id] = value
                count += (value == nil ? 0 : 1) - (old == nil ? 0 : 1)
                return
            }
            let i = id.rawValue
            guard i >= 0 else { return }  // none to remove (adding one went sparse above)
            if i >= dense.count {
                guard value != nil else { return }
                // Grows as an array does (doubling), so appending ids in order is amortised O(1).
                dense.append(contentsOf: repeatElement(-1, count: i + 1 - dense.count))
            }
            let old = dense[i]
            dense[i] = value ?? -1
            count += (value == nil ? 0 : 1) - (old < 0 ? 0 : 1)
        }
    }

    /// Empties the map (and returns to the dense form).
    mutating func removeAll(keepingCapacity: Bool = false) {
        dense.removeAll(keepingCapacity: keepingCapacity)
        sparse = nil
        count = 0
    }

    /// Makes room for ids up to `maxID` in the dense form (when it would stay dense).
    mutating func reserve(upTo maxID: Int, count expected: Int) {
        guard sparse == nil, maxID >= 0, maxID < Self.denseLimit(count: expected) else { return }
        dense.reserveCapacity(maxID + 1)
    }

    /// Whether the dense array may hold `id`: at most a few times as many entries as ids held.
    private func fitsDense(_ id: StrokeID, adding: Bool) -> Bool {
        let i = id.rawValue
        guard i >= 0 else { return !adding }
        return i < dense.count || !adding || i < Self.denseLimit(count: count + 1)
    }

    private static func denseLimit(count: Int) -> Int { 4 * count + 4096 }

    private mutating func makeSparse() {
        var map: [StrokeID: Int32] = [:]
        map.reserveCapacity(count)
        for (i, value) in dense.enumerated() where value >= 0 { map[StrokeID(i)] = value }
        sparse = map
        dense = []
    }
}
