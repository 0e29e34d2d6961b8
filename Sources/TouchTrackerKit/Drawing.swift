// The document: the finished strokes, in paint order, with undo and redo of every change.
// Views, the raster cache, the hit-test index and autosave all learn of changes through `observers`.
import TouchKit

public final class Drawing {
    /// What changed, so observers can update incrementally (repaint one stroke, reindex one entry).
    public enum Change: Equatable, Sendable {
        case added(Stroke)
        case removed(Stroke)
        case updated(old: Stroke, new: Stroke)
        /// Many strokes changed at once (clear, load, undo of a clear).
        case reset
    }

    public private(set) var strokes: [Stroke] = []
    /// Each stroke's box, in the same order (StrokeBox.swift).
    private(set) var boxes: [StrokeBox] = []
    /// No stroke is wider than this (it may be wider than the widest left: it only grows until
    /// the drawing is replaced). Zoomed out so far that every line is thinner than a few pixels,
    /// the line cache looks for no lines hidden by others.
    private(set) var widestStroke = 0.0
    /// Each stroke's place in `strokes`.
    private var indexByID = StrokeIDMap()
    private var nextID = 1

    public let undoStack = UndoStack()
    private var observers: [(Change) -> Void] = []

    public init(strokes: [Stroke] = []) {
        replaceAll(with: strokes, undoable: false)
    }

    /// Registers a closure called after every change.
    public func observe(_ observer: @escaping (Change) -> Void) { observers.append(observer) }

    public func stroke(_ id: StrokeID) -> Stroke? { indexByID[id].map { strokes[$0] } }

    /// Where a stroke is in the paint order (an observer of `.added` learns where it went).
    public func index(of id: StrokeID) -> Int? { indexByID[id] }

    /// A fresh identity for a stroke about to be added.
    public func makeID() -> StrokeID {
        defer { nextID += 1 }
        return StrokeID(nextID)
    }

    // MARK: Changes (each one undoable)

    /// Adds a finished stroke on top.
    /// Adds a finished stroke on top and returns it (with a fresh id if its id was taken).
    @discardableResult
    public func add(_ stroke: Stroke, actionName: String = "Draw") -> Stroke {
        let added = insert(stroke, at: strokes.count)
        undoStack.register(actionName, undo: { [unowned self] in self.remove(added.id, actionName: actionName) })
        return added
    }

    /// Adds strokes on top as one undoable step (a paste), each with a fresh id if its id was
    /// taken; returns them as added. Undo removes them all, redo puts them all back.
    @discardableResult
    public func add(contentsOf newStrokes: [Stroke], actionName: String = "Paste") -> [Stroke] {
        guard !newStrokes.isEmpty else { return [] }
        let added = newStrokes.map { insert($0, at: strokes.count) }
        undoStack.register(actionName, undo: { [unowned self] in self.remove(added.map(\.id), actionName: actionName) })
        return added
    }

    /// Removes several strokes as one undoable step; undo puts each back at its place.
    public func remove(_ ids: [StrokeID], actionName: String) {
        let found = ids.compactMap { id in indexByID[id].map { (index: $0, id: id) } }.sorted { $0.index > $1.index }
        guard !found.isEmpty else { return }
        var removed: [(index: Int, stroke: Stroke)] = []
        for (index, id) in found {
            let stroke = strokes.remove(at: index)
            boxes.remove(at: index)
            indexByID[id] = nil
            removed.append((index, stroke))
        }
        reindex(from: found.last!.index)
        for (_, stroke) in removed { notify(.removed(stroke)) }
        undoStack.register(actionName, undo: { [unowned self] in
            // Lowest place first, so that each goes back where it was.
            let back = removed.reversed().map { self.insert($0.stroke, at: min($0.index, self.strokes.count)) }
            self.undoStack.register(actionName, undo: { [unowned self] in self.remove(back.map(\.id), actionName: actionName) })
        })
    }

    /// Removes a stroke; undo puts it back at its place in the paint order.
    public func remove(_ id: StrokeID, actionName: String = "Delete") {
        guard let index = indexByID[id] else { return }
        let stroke = strokes[index]
        strokes.remove(at: index)
        boxes.remove(at: index)
        indexByID[id] = nil
        reindex(from: index)
        notify(.removed(stroke))
        undoStack.register(actionName, undo: { [unowned self] in
            self.insert(stroke, at: min(index, self.strokes.count))
            self.undoStack.register(actionName, undo: { [unowned self] in self.remove(id, actionName: actionName) })
        })
    }

    /// Replaces a stroke with a changed copy of the same id (move, recolour).
    public func update(_ id: StrokeID, actionName: String = "Change", _ change: (inout Stroke) -> Void) {
        guard let index = indexByID[id] else { return }
        let old = strokes[index]
        var new = old
        change(&new)
        new.id = id
        guard new != old else { return }
        strokes[index] = new
        boxes[index] = StrokeBox(new)
        widestStroke = max(widestStroke, new.width)
        notify(.updated(old: old, new: new))
        undoStack.register(actionName, undo: { [unowned self] in
            self.update(id, actionName: actionName) { $0 = old }
        })
    }

    /// Removes every stroke (the book's double tap); undo brings them all back.
    public func removeAll(actionName: String = "Clear") {
        guard !strokes.isEmpty else { return }
        let old = strokes
        // The hit-test index of the strokes cleared goes with them into the undo step: undoing
        // gives both back, instead of indexing every stroke again in that turn (in a dense
        // drawing the longest piece of work a clear's undo would do).
        let oldIndex = indexBeingBuilt == nil ? builtIndex : hitIndex
        replaceAll(with: [], undoable: false)
        undoStack.register(actionName, undo: { [unowned self] in
            self.replace(with: old, index: oldIndex)
            self.undoStack.register(actionName, undo: { [unowned self] in self.removeAll(actionName: actionName) })
        })
    }

    /// Replaces the whole drawing (loading a file). Not undoable when `undoable` is false.
    public func replaceAll(with newStrokes: [Stroke], undoable: Bool) {
        let old = strokes
        replace(with: newStrokes, index: nil)
        if undoable {
            undoStack.register("Replace", undo: { [unowned self] in self.replaceAll(with: old, undoable: true) })
        }
    }

    /// Every stroke replaced; `index`, when given, already indexes exactly `newStrokes` (else the
    /// next query indexes them).
    private func replace(with newStrokes: [Stroke], index: SpatialIndex?) {
        builtIndex = index
        indexBeingBuilt = index == nil && newStrokes.count >= Self.indexAheadStrokes ? IndexAhead(newStrokes) : nil
        strokes = newStrokes
        boxes = newStrokes.map(StrokeBox.init)
        widestStroke = newStrokes.lazy.map(\.width).max() ?? 0
        let maxID = newStrokes.lazy.map(\.id.rawValue).max() ?? 0
        indexByID.removeAll()
        indexByID.reserve(upTo: maxID + maxID / 16, count: newStrokes.count)  // room to draw on
        reindex(from: 0)
        nextID = max(nextID, maxID + 1)
        notify(.reset)
    }

    // MARK: Queries

    /// The stroke whose centre line passes nearest to `point`, within `radius`; of equally near
    /// ones the top-most (the book's `lineAtPoint:`, with a true distance instead of 20 samples
    /// along the line). Answered through a spatial index, so the cost does not grow with the drawing.
    public func stroke(near point: Point, within radius: Double) -> Stroke? {
        hitIndex.nearest(to: point, within: radius) { id in indexByID[id].map { (strokes[$0], $0) } }
    }

    /// The strokes whose painted area may meet `rect`, in paint order (bottom first), found
    /// through the spatial index: what a raster cache repaints when a stroke goes or moves.
    public func strokes(intersecting rect: Rect) -> [Stroke] {
        var found: [Int] = []
        hitIndex.forEachCandidate(intersecting: rect) { id in
            if let i = indexByID[id], strokes[i].mayPaint(into: rect) { found.append(i) }
        }
        return found.sorted().map { strokes[$0] }
    }

    /// Kept up to date with every change (`notify`) once built: on another thread when a big
    /// drawing is opened, else on the first query.
    private var builtIndex: SpatialIndex?
    private var hitIndex: SpatialIndex {
        if let builtIndex { return builtIndex }
        let ahead = indexBeingBuilt
        indexBeingBuilt = nil
        let index = ahead?.take ?? SpatialIndex(strokes)
        builtIndex = index
        return index
    }

    /// From this many strokes a drawing put in whole (a file opened) is indexed on another thread
    /// at once: built by the first query, 100,000 lines' index took that turn 35 to 76 ms, the
    /// first touch after opening a big drawing. Below it the build is a fraction of a frame.
    static let indexAheadStrokes = 5_000

    /// An index being built on another thread for the strokes a `replace` put in, with the changes
    /// made since (each carries its stroke, so it applies without the strokes of its time).
    private var indexBeingBuilt: IndexAhead?

    private final class IndexAhead {
        let job: BackgroundJob<Built>
        var changes: [Change] = []
        /// The index, handed over by the thread that built it and touched by no other after.
        final class Built: @unchecked Sendable {
            let index: SpatialIndex
            init(_ index: SpatialIndex) { self.index = index }
        }

        init(_ strokes: [Stroke]) {
            job = BackgroundJob(label: "org.touchtracker.index") { Built(SpatialIndex(strokes)) }
        }

        /// The index, waiting for what its thread has left to do, with the changes since applied.
        var take: SpatialIndex {
            let index = job.wait().index
            for change in changes { index.apply(change, current: { [] }) }
            return index
        }
    }

    // MARK: Private

    @discardableResult
    private func insert(_ stroke: Stroke, at index: Int) -> Stroke {
        var stroke = stroke
        if indexByID[stroke.id] != nil { stroke.id = makeID() }
        nextID = max(nextID, stroke.id.rawValue + 1)
        strokes.insert(stroke, at: index)
        boxes.insert(StrokeBox(stroke), at: index)
        widestStroke = max(widestStroke, stroke.width)
        reindex(from: index)
        notify(.added(stroke))
        return stroke
    }

    /// Renumbers the strokes from `start` on (a removed stroke's entry is dropped by `remove`), so
    /// adding on top costs the same at any drawing size.
    private func reindex(from start: Int) {
        if start == 0 { indexByID.removeAll(keepingCapacity: true) }
        for i in start..<strokes.count { indexByID[strokes[i].id] = i }
    }

    private func notify(_ change: Change) {
        // A reset comes with its own index (or none yet: built on the next query).
        if change != .reset {
            if let indexBeingBuilt { indexBeingBuilt.changes.append(change) } else { builtIndex?.apply(change, current: { self.strokes }) }
        }
        for observer in observers { observer(change) }
    }
}

/// Undo and redo as closures. Registering while undoing records the redo step; registering
/// anything else clears the redo history, as users expect.
public final class UndoStack {
    private struct Step {
        let name: String
        let action: () -> Void
    }

    private var undoSteps: [Step] = []
    private var redoSteps: [Step] = []
    private var isUndoing = false
    private var isRedoing = false
    /// The most steps kept; older ones are forgotten.
    public var limit = 1000

    /// Called after every change of what can be undone or redone (to enable buttons).
    private var observers: [() -> Void] = []
    public func observe(_ observer: @escaping () -> Void) { observers.append(observer) }
    private func changed() { for observer in observers { observer() } }

    public var canUndo: Bool { !undoSteps.isEmpty }
    public var canRedo: Bool { !redoSteps.isEmpty }
    public var undoActionName: String? { undoSteps.last?.name }
    public var redoActionName: String? { redoSteps.last?.name }

    func register(_ name: String, undo action: @escaping () -> Void) {
        let step = Step(name: name, action: action)
        if isUndoing {
            redoSteps.append(step)
        } else {
            undoSteps.append(step)
            if undoSteps.count > limit { undoSteps.removeFirst(undoSteps.count - limit) }
            if !isRedoing { redoSteps.removeAll() }
        }
        if !isUndoing && !isRedoing { changed() }
    }

    public func undo() {
        guard let step = undoSteps.popLast() else { return }
        isUndoing = true
        step.action()
        isUndoing = false
        changed()
    }

    public func redo() {
        guard let step = redoSteps.popLast() else { return }
        isRedoing = true
        step.action()
        isRedoing = false
        changed()
    }

    public func removeAll() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        changed()
    }
}
