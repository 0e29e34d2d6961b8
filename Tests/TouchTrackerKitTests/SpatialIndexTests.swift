// The hit-test index against its definition: on random drawings, after random changes, the index
// gives the same stroke as looking at every stroke (SpatialIndex.nearest(in:to:within:)).
import Foundation
import PropertyBased
import Testing
import TouchKit
@testable import TouchTrackerKit

/// Coordinates that are often exactly on cell borders (multiples of 32) or on whole points.
private let coordinate = zip(Gen.int(in: 0...2), Gen.double(in: -100...1100), Gen.int(in: -4...36))
    .map { kind, d, cell -> Double in
        switch kind {
        case 0: Double(cell) * 32
        case 1: d.rounded()
        default: d
        }
    }
private let point = zip(coordinate, coordinate).map { Point(x: $0, y: $1) }

/// Lines (some of one point), freehand polylines and circles of any size, widths 1 to 30.
private let strokeGen = zip(Gen.int(in: 0...9), point.array(of: 1...6), Gen.int(in: 1...30))
    .map { kind, points, width -> Stroke in
        let id = StrokeID(0)
        switch kind {
        case 0..<5:
            return Stroke(id: id, kind: .line, points: Array(points.prefix(kind == 0 ? 1 : 2)), width: Double(width))
        case 5..<8:
            return Stroke(id: id, kind: .freehand, points: points, width: Double(width))
        default:
            return Stroke(id: id, kind: .circle, points: Array(points.prefix(2)), width: Double(width))
        }
    }

private let queryGen = zip(point, Gen.int(in: 0...45)).map { (point: $0, radius: Double($1)) }

/// Strips one or a few points wide and a tile high, squares, rectangles far out (as the strips of a
/// pan at 10 % are) and ones over everything.
private let rectGen = zip(Gen.int(in: 0...3), point, Gen.double(in: 0...4), Gen.double(in: 0...300)).map { kind, at, thin, long -> Rect in
    switch kind {
    case 0: Rect(x: at.x, y: at.y, width: thin, height: long)
    case 1: Rect(x: at.x, y: at.y, width: long, height: thin)
    case 2: Rect(x: at.x * 7, y: at.y * -5, width: long, height: long)
    default: Rect(x: -3000, y: -3000, width: 6000 + long, height: 6000)
    }
}

/// Changes a user (or undo) makes to a drawing.
private enum Op: Sendable, CustomStringConvertible {
    case add(Stroke)
    case remove(Int)
    case move(Int, Double, Double)
    case clear
    case undo
    case redo

    var description: String {
        switch self {
        case .add(let s): "add(\(s.kind) \(s.points))"
        case .remove(let i): "remove(\(i))"
        case .move(let i, let dx, let dy): "move(\(i), \(dx), \(dy))"
        case .clear: "clear"
        case .undo: "undo"
        case .redo: "redo"
        }
    }
}

extension Op {
    /// Makes the change in `drawing` (a stroke picked by index wraps around; none, nothing).
    func apply(to drawing: Drawing) {
        switch self {
        case .add(var stroke):
            stroke.id = drawing.makeID()
            drawing.add(stroke)
        case .remove(let n):
            if !drawing.strokes.isEmpty { drawing.remove(drawing.strokes[n % drawing.strokes.count].id) }
        case .move(let n, let dx, let dy):
            if !drawing.strokes.isEmpty {
                drawing.update(drawing.strokes[n % drawing.strokes.count].id) { $0 = $0.translated(dx: dx, dy: dy) }
            }
        case .clear:
            drawing.removeAll()
        case .undo:
            drawing.undoStack.undo()
        case .redo:
            drawing.undoStack.redo()
        }
    }
}

private let opGen = zip(Gen.int(in: 0...99), strokeGen, Gen.int(in: 0...1000), coordinate, coordinate)
    .map { kind, stroke, n, dx, dy -> Op in
        switch kind {
        case 0..<55: .add(stroke)
        case 55..<67: .remove(n)
        case 67..<80: .move(n, dx / 4, dy / 4)
        case 80..<82: .clear
        case 82..<92: .undo
        default: .redo
        }
    }

@Suite("Spatial index")
struct SpatialIndexTests {
    /// A drawing of `strokes`, each with a fresh id.
    func drawing(_ strokes: [Stroke]) -> Drawing {
        let drawing = Drawing()
        for var stroke in strokes {
            stroke.id = drawing.makeID()
            drawing.add(stroke)
        }
        return drawing
    }

    /// `drawing`'s strokes in `rect`, in paint order, are each one that may paint there; among
    /// them every straight line that does (their test is exact) and every stroke with a point of
    /// its centre line within its half width of the rectangle.
    func expectFinds(_ drawing: Drawing, _ rect: Rect, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = drawing.strokes(intersecting: rect).map(\.id)
        let may = drawing.strokes.filter { $0.mayPaint(into: rect) }
        #expect(found == may.filter { found.contains($0.id) }.map(\.id), "\(context): \(rect)", sourceLocation: sourceLocation)
        let painting = may.filter { stroke in
            stroke.kind == .line && stroke.points.count == 2
                || samples(of: stroke).contains { rect.insetBy(dx: -stroke.width / 2, dy: -stroke.width / 2).contains($0) }
        }
        #expect(Set(painting.map(\.id)).isSubset(of: found), "\(context): \(rect)", sourceLocation: sourceLocation)
    }

    @Test("The index finds what a scan of every stroke finds, on random drawings")
    func matchesBruteForce() async {
        await propertyCheck(count: 200, input: strokeGen.array(of: 0...80), queryGen.array(of: 1...40)) {
            strokes, queries in
            let drawing = drawing(strokes)
            for q in queries {
                let expected = SpatialIndex.nearest(in: drawing.strokes, to: q.point, within: q.radius)
                let found = drawing.stroke(near: q.point, within: q.radius)
                #expect(found?.id == expected?.id, "query \(q.point) r=\(q.radius)")
            }
        }
    }

    @Test("The index follows every change: add, delete, move, clear, undo, redo")
    func followsChanges() async {
        await propertyCheck(count: 150, input: opGen.array(of: 1...60), queryGen.array(of: 1...8)) { ops, queries in
            let drawing = Drawing()
            _ = drawing.stroke(near: .zero, within: 1)  // the index exists from here on
            for op in ops {
                op.apply(to: drawing)
                for q in queries {
                    let expected = SpatialIndex.nearest(in: drawing.strokes, to: q.point, within: q.radius)
                    #expect(drawing.stroke(near: q.point, within: q.radius)?.id == expected?.id,
                            "after \(op): query \(q.point) r=\(q.radius)")
                }
            }
        }
    }

    @Test("A15: a rectangle of any shape (a thin strip a scroll uncovers, one far from the drawing, one over all of it) finds every stroke that paints into it, in paint order, after any changes")
    func rectanglesOfEveryShapeAfterChanges() async {
        await propertyCheck(count: 150, input: opGen.array(of: 1...60), rectGen.array(of: 1...8)) { ops, rects in
            let drawing = Drawing()
            _ = drawing.stroke(near: .zero, within: 1)  // the index exists from here on
            for op in ops {
                op.apply(to: drawing)
                for rect in rects { expectFinds(drawing, rect, "after \(op)") }
            }
        }
    }

    @Test("A big drawing opened answers as a scan does after changes made while its index was built on another thread")
    func openedBigThenChanged() async {
        // Lines over the ops' area, enough for the index to be built ahead.
        let opened = (0..<Drawing.indexAheadStrokes).map { i -> Stroke in
            let x = Double(i % 100) * 11 - 50, y = Double(i / 100) * 23 - 80
            return .line(StrokeID(i + 1), from: Point(x: x, y: y), to: Point(x: x + 37, y: y + Double(i % 7) * 5))
        }
        await propertyCheck(count: 40, input: opGen.array(of: 1...30), queryGen.array(of: 1...12)) { ops, queries in
            let drawing = Drawing(strokes: opened)
            for op in ops { op.apply(to: drawing) }
            for q in queries {
                let expected = SpatialIndex.nearest(in: drawing.strokes, to: q.point, within: q.radius)
                #expect(drawing.stroke(near: q.point, within: q.radius)?.id == expected?.id, "after \(ops): query \(q.point) r=\(q.radius)")
                // A strip by the point, as a pan's tile asks.
                expectFinds(drawing, Rect(x: q.point.x, y: q.point.y, width: q.radius * 3, height: q.radius / 4), "after \(ops)")
            }
        }
    }

    @Test("A stroke added before the first query is indexed too (the index is built on demand)")
    func builtOnDemand() {
        let drawing = Drawing(strokes: [.line(StrokeID(7), from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))])
        #expect(drawing.stroke(near: Point(x: 50, y: 5), within: 20)?.id == StrokeID(7))
        drawing.replaceAll(with: [.line(StrokeID(9), from: Point(x: 0, y: 500), to: Point(x: 100, y: 500))], undoable: true)
        #expect(drawing.stroke(near: Point(x: 50, y: 5), within: 20) == nil)
        #expect(drawing.stroke(near: Point(x: 50, y: 505), within: 20)?.id == StrokeID(9))
        drawing.undoStack.undo()
        #expect(drawing.stroke(near: Point(x: 50, y: 5), within: 20)?.id == StrokeID(7))
    }

    @Test("A query looks only at strokes near the point, however many there are elsewhere")
    func queryCostIsLocal() {
        let index = SpatialIndex()
        for i in 0..<100_000 {
            let x = Double(i % 400) * 2.5, y = Double(i / 400) * 2.5
            index.insert(.line(StrokeID(i + 1), from: Point(x: x, y: y), to: Point(x: x + 20, y: y + 10)))
        }
        var visited = 0
        index.forEachCandidate(near: Point(x: 500, y: 300), within: 20) { _ in visited += 1 }
        // The strokes within reach of the 3 × 3 cells around the point, not 100,000.
        #expect(visited > 0 && visited < 2_000)
        visited = 0
        index.forEachCandidate(near: Point(x: 5_000, y: 5_000), within: 20) { _ in visited += 1 }
        #expect(visited == 0)
    }

    @Test("A4: in a dense drawing the nearest line is found after looking up a few strokes, not every one near the point")
    func denseDrawingsPrune() {
        let index = SpatialIndex()
        var strokes: [Stroke] = []
        for i in 0..<100_000 {
            let x = Double(i % 400) * 2.5, y = Double(i / 400) * 2.5
            let stroke = Stroke.line(StrokeID(i + 1), from: Point(x: x, y: y), to: Point(x: x + 20, y: y + 10))
            strokes.append(stroke)
            index.insert(stroke)
        }
        var candidates = 0
        let point = Point(x: 500.3, y: 300.7)
        index.forEachCandidate(near: point, within: 20) { _ in candidates += 1 }
        var lookups = 0
        let found = index.nearest(to: point, within: 20) { id in
            lookups += 1
            return (strokes[id.rawValue - 1], id.rawValue - 1)
        }
        #expect(found?.id == SpatialIndex.nearest(in: strokes, to: point, within: 20)?.id)
        #expect(lookups * 10 < candidates, "\(lookups) look-ups of \(candidates) candidates")
    }

    @Test("Huge strokes, huge radii and odd queries give the scan's answer")
    func edgeCases() {
        let strokes: [Stroke] = [
            .line(StrokeID(1), from: Point(x: -1e12, y: 0), to: Point(x: 1e12, y: 1)),
            .line(StrokeID(2), from: Point(x: 10, y: 10), to: Point(x: 10, y: 10)),
            Stroke(id: StrokeID(3), kind: .circle, points: [Point(x: 0, y: 0), Point(x: 64, y: 64)]),
            Stroke(id: StrokeID(4), kind: .freehand, points: []),
            Stroke(id: StrokeID(5), kind: .circle, points: [Point(x: 5, y: 5)]),
        ]
        let drawing = Drawing(strokes: strokes)
        let index = SpatialIndex(strokes)
        #expect(index.count == 5)
        for (p, r) in [(Point(x: 0, y: 0), 1.0), (Point(x: 5e11, y: 0.5), 1), (Point(x: 10, y: 12), 3),
                       (Point(x: 32, y: 0), 0), (Point(x: 100, y: 100), .infinity), (Point(x: 1, y: 1), -5),
                       (Point(x: .nan, y: 0), 10), (Point(x: 3e9, y: 3e9), 1e10)] {
            #expect(drawing.stroke(near: p, within: r)?.id == SpatialIndex.nearest(in: strokes, to: p, within: r)?.id,
                    "\(p) r=\(r)")
        }
        index.remove(strokes[0])
        index.remove(strokes[2])
        #expect(index.count == 3 && !index.contains(StrokeID(1)) && index.contains(StrokeID(2)))
    }

    @Test("A4: a rectangle's strokes include every stroke passing through it, in its corners too")
    func strokesIntersectingRect() async {
        // A line across the corner of the rectangle, far from its centre: repainting the
        // rectangle must draw it again, or the corner of the line is wiped.
        let corner = Stroke.line(StrokeID(1), from: Point(x: 70, y: 120), to: Point(x: 120, y: 70))
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(Drawing(strokes: [corner]).strokes(intersecting: rect).map(\.id) == [corner.id])

        await propertyCheck(count: 150, input: strokeGen.array(of: 0...60), zip(point, point).array(of: 1...10)) {
            strokes, corners in
            let drawing = drawing(strokes)
            for (a, b) in corners {
                let rect = Rect(enclosing: a, b)
                let found = drawing.strokes(intersecting: rect).map(\.id)
                let passing = drawing.strokes.filter { samples(of: $0).contains { rect.contains($0) } }.map(\.id)
                #expect(Set(passing).isSubset(of: found), "\(rect)")
                #expect(found == drawing.strokes.filter { $0.bounds.intersects(rect) && found.contains($0.id) }.map(\.id),
                        "in paint order, each meeting the rectangle")
            }
        }
    }

    @Test("A5: a long diagonal's box meets many rectangles the line never crosses; only those it passes near are asked to repaint it")
    func diagonalMeetsOnlyRectanglesAlongIt() {
        let diagonal = Stroke.line(StrokeID(1), from: Point(x: 0, y: 0), to: Point(x: 1000, y: 1000))
        let offLine = Rect(x: 800, y: 100, width: 40, height: 40)
        #expect(diagonal.bounds.intersects(offLine))
        #expect(!diagonal.mayPaint(into: offLine))
        #expect(Drawing(strokes: [diagonal]).strokes(intersecting: offLine).isEmpty)
        #expect(diagonal.mayPaint(into: Rect(x: 480, y: 480, width: 40, height: 40)), "on the line")
        // Beside the line, within its half width and the antialiasing margin: still repainted.
        let beside = Rect(x: 507, y: 490, width: 10, height: 10)  // the corner (507, 500) is 4.9 pt off it
        #expect(diagonal.mayPaint(into: beside))
    }

    /// Points on the stroke's centre line: 17 along each segment, 64 around a circle.
    private func samples(of stroke: Stroke) -> [Point] {
        let points = Array(stroke.points)
        switch stroke.kind {
        case .circle:
            guard points.count >= 2 else { return [] }
            let box = Rect(enclosing: points[0], points[1])
            return (0..<64).map { i in
                let angle = Double(i) / 64 * 2 * Double.pi
                return Point(x: box.midX + box.width / 2 * cos(angle), y: box.midY + box.height / 2 * sin(angle))
            }
        case .line, .freehand:
            guard points.count > 1 else { return points }
            return zip(points, points.dropFirst()).flatMap { a, b in
                (0...16).map { i in
                    let t = Double(i) / 16
                    return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                }
            }
        }
    }
}

@Suite("The strokes' boxes")
struct StrokeBoxTests {
    @Test("A box holds its stroke's, and where it says a stroke misses a rectangle or meets it, the stroke does")
    func answersForItsStroke() async {
        await propertyCheck(count: 300, input: strokeGen, rectGen.array(of: 1...12)) { stroke, rects in
            let box = StrokeBox(stroke), exact = stroke.bounds
            #expect(Double(box.minX) <= exact.minX && Double(box.minY) <= exact.minY
                    && Double(box.maxX) >= exact.maxX && Double(box.maxY) >= exact.maxY, "\(box) against \(exact)")
            for rect in rects {
                let answer = box.mayPaint(into: (rect.minX, rect.minY, rect.maxX, rect.maxY))
                // A rectangle a line crosses is never left out; one the box cannot answer for is
                // asked of the stroke.
                if let answer { #expect(answer == stroke.mayPaint(into: rect), "\(stroke.kind) \(stroke.points) in \(rect)") }
            }
        }
    }

    @Test("The drawing's boxes and its widest stroke follow every change: add, delete, move, clear, undo, redo")
    func followChanges() async {
        await propertyCheck(count: 150, input: strokeGen.array(of: 0...20), opGen.array(of: 1...60)) { opened, ops in
            let drawing = Drawing(strokes: opened.enumerated().map { i, stroke in
                var stroke = stroke
                stroke.id = StrokeID(i + 1)
                return stroke
            })
            for op in ops {
                op.apply(to: drawing)
                #expect(drawing.boxes == drawing.strokes.map(StrokeBox.init), "after \(op)")
                #expect(drawing.strokes.allSatisfy { $0.width <= drawing.widestStroke }, "after \(op)")
            }
        }
    }
}
