// Stroke's compact storage against plain values: whatever goes in (any number of points, any
// colour, any width, -0.0 and NaN included) comes out bit for bit, copies stay independent, and
// what the app draws takes no memory beyond the stroke itself.
import PropertyBased
import Testing
import TouchKit
@testable import TouchTrackerKit

/// Mostly values a stroke stores compactly (n / 255, n / 64), some that it cannot.
private let component = zip(Gen.int(in: 0...5), Gen.int(in: 0...255), Gen.double(in: 0...1))
    .map { kind, n, d -> Double in
        switch kind {
        case 0, 1: Double(n) / 255
        case 2: d
        case 3: -0.0
        case 4: [0, 1, 0.5, 2.0 / 3.0, 1e-300][n % 5]
        default: Double(n) / 256
        }
    }
private let colorGen = zip(component, component, component, component).map { Color(red: $0, green: $1, blue: $2, alpha: $3) }
private let widthGen = zip(Gen.int(in: 0...4), Gen.int(in: 0...65535), Gen.double(in: 0...1000))
    .map { kind, n, d -> Double in
        switch kind {
        case 0, 1: Double(n) / 64
        case 2: d
        case 3: [0, -0.0, 1024, 1023.984375, 0.0001][n % 5]
        default: Double(n) / 64 + 1e-9
        }
    }
private let coordinate = zip(Gen.int(in: 0...5), Gen.double(in: -1e6...1e6)).map { kind, d -> Double in
    switch kind {
    case 0: -0.0
    case 1: .nan
    case 2: Double(Float(d))  // exact in single precision, as every touch coordinate is
    default: d
    }
}
private let pointGen = zip(coordinate, coordinate).map { Point(x: $0, y: $1) }
private let kindGen = Gen.int(in: 0...2).map { Stroke.Kind.allCases[$0] }

/// The same bits, NaN and the sign of zero included.
private func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }
private func same(_ a: [Point], _ b: StrokePoints) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { same($0.x, $1.x) && same($0.y, $1.y) }
}
private func same(_ a: Color, _ b: Color) -> Bool {
    same(a.red, b.red) && same(a.green, b.green) && same(a.blue, b.blue) && same(a.alpha, b.alpha)
}

/// Changes to a stroke's points, applied to the stroke and to an array alike.
private enum PointsOp: Sendable {
    case append(Point)
    case appendMany([Point])
    case set(Int, Point)
    case removeLast
    case replace([Point])
}

private let pointsOpGen = zip(Gen.int(in: 0...4), pointGen, pointGen.array(of: 0...4), Gen.int(in: 0...10))
    .map { kind, point, points, n -> PointsOp in
        switch kind {
        case 0: .append(point)
        case 1: .appendMany(points)
        case 2: .set(n, point)
        case 3: .removeLast
        default: .replace(points)
        }
    }

@Suite("Stroke storage")
struct StrokeStorageTests {
    @Test("Every kind, point list, colour and width reads back bit for bit")
    func roundTrips() async {
        await propertyCheck(count: 500, input: kindGen, pointGen.array(of: 0...5), colorGen, widthGen) {
            kind, points, color, width in
            let stroke = Stroke(id: StrokeID(3), kind: kind, points: points, color: color, width: width)
            #expect(stroke.kind == kind)
            #expect(same(points, stroke.points), "\(points) vs \(stroke.points)")
            #expect(same(color, stroke.color), "\(color) vs \(stroke.color)")
            #expect(same(width, stroke.width), "\(width) vs \(stroke.width)")
            // Setting the values one by one ends the same way.
            var other = Stroke.line(StrokeID(3), from: Point(x: 1, y: 2), to: Point(x: 3, y: 4))
            other.kind = kind
            other.width = width
            other.points = StrokePoints(points)
            other.color = color
            #expect(same(points, other.points) && same(color, other.color) && same(width, other.width))
            if !points.contains(where: { $0.x.isNaN || $0.y.isNaN }) {
                #expect(other == stroke && other.hashValue == stroke.hashValue)
            }
        }
    }

    @Test("Changing a stroke's points changes them as an array's, and never a copy's")
    func pointsChangeLikeAnArray() async {
        await propertyCheck(count: 300, input: pointGen.array(of: 0...4), pointsOpGen.array(of: 1...12)) { start, ops in
            var stroke = Stroke(id: StrokeID(1), kind: .freehand, points: start)
            var model = start
            for op in ops {
                let before = stroke, modelBefore = model
                switch op {
                case .append(let p):
                    stroke.points.append(p); model.append(p)
                case .appendMany(let ps):
                    stroke.points.append(contentsOf: ps); model.append(contentsOf: ps)
                case .set(let n, let p):
                    guard !model.isEmpty else { continue }
                    stroke.points[n % model.count] = p; model[n % model.count] = p
                case .removeLast:
                    guard !model.isEmpty else { continue }
                    stroke.points.removeLast(); model.removeLast()
                case .replace(let ps):
                    stroke.points = StrokePoints(ps); model = ps
                }
                #expect(same(model, stroke.points))
                #expect(same(modelBefore, before.points), "the copy taken before the change is unchanged")
                let exact = model.allSatisfy { Stroke.narrow($0.x) != nil && Stroke.narrow($0.y) != nil }
                #expect(stroke.isCompact == (model.count == 2 && exact))
            }
        }
    }

    @Test("A stroke is 40 bytes; what the app draws needs nothing more")
    func compactForWhatTheAppDraws() {
        #expect(MemoryLayout<Stroke>.stride <= 40)
        // Touch coordinates are wl_fixed: multiples of 1/256 point.
        let line = Stroke.line(StrokeID(1), from: Point(x: 25.5 / 256, y: 1843.0 / 256), to: Point(x: 1919.99609375, y: 4),
                               width: DrawView.lineWidth)
        #expect(line.isCompact)
        let circle = Stroke(id: StrokeID(2), kind: .circle, points: [.zero, Point(x: 9, y: 9)], width: 10)
        #expect(circle.isCompact)
        for color in PaletteView.colors + [DrawView.selectedColor, DrawView.inProgressColor, DrawView.paperColor] {
            var stroke = line
            stroke.color = color
            #expect(stroke.isCompact, "\(color)")
        }
        for angle in stride(from: -7.0, through: 7.0, by: 0.01) {
            var stroke = line
            stroke.color = DrawView.color(forAngle: angle)
            #expect(stroke.isCompact, "angle \(angle)")
        }
        for force in stride(from: 0.0, through: 1.0, by: 0.001) {
            var stroke = line
            stroke.width = DrawView.penWidth(force: force)
            #expect(stroke.isCompact, "force \(force)")
        }
        for speed in stride(from: 0.0, through: 2000, by: 0.7) {
            var stroke = line
            stroke.width = DrawView.width(forSpeed: speed)
            #expect(stroke.isCompact, "speed \(speed)")
        }
        // A drag moves a line by the difference of two touch positions.
        var moved = line.translated(dx: 0.25, dy: -7)
        #expect(moved.isCompact && moved.points == [Point(x: 25.5 / 256 + 0.25, y: 1843.0 / 256 - 7), Point(x: 1920.24609375, y: -3)])
        moved.color = Color(red: 0.1, green: 0.2, blue: 0.3)
        #expect(!moved.isCompact)
        moved.color = .black
        #expect(moved.isCompact, "back to a compact colour, the extra storage goes")
        // A coordinate a Float cannot hold (from a file, or moved by a fraction a touch cannot
        // make) keeps the points in the extra storage, exactly.
        let precise = moved.translated(dx: 0.1, dy: 0)
        #expect(!precise.isCompact && precise.points[0].x == moved.points[0].x + 0.1)
        #expect(precise.translated(dx: -0.1, dy: 0).points[1] == Point(x: 1920.24609375 + 0.1 - 0.1, y: -3))
    }

    @Test("A1: a line a finger draws is stored compactly: touch positions come in 1/256 pt steps")
    func fingerLinesAreCompact() throws {
        let canvas = Canvas()
        canvas.drawLine(1, from: (12 + 77.0 / 256, 30 + 255.0 / 256), to: (391 + 1.0 / 256, 250.5))
        let line = try #require(canvas.drawView.drawing.strokes.last)
        #expect(line.points == [Point(x: 12 + 77.0 / 256, y: 30 + 255.0 / 256), Point(x: 391 + 1.0 / 256, y: 250.5)])
        #expect(line.isCompact)
    }

    @Test("Geometry is the same through the compact and the general storage")
    func geometryAgrees() async {
        await propertyCheck(count: 300, input: kindGen, pointGen, pointGen, pointGen) { kind, a, b, query in
            // Single-precision points, which the compact storage takes.
            let a = Point(x: Double(Float(a.x)), y: Double(Float(a.y))), b = Point(x: Double(Float(b.x)), y: Double(Float(b.y)))
            let compact = Stroke(id: StrokeID(1), kind: kind, points: [a, b], width: 10)
            // Three points with the last repeated: the same figure, kept in an array.
            let general = Stroke(id: StrokeID(1), kind: kind, points: [a, b, b], width: 10)
            #expect(compact.isCompact && !general.isCompact)
            let box1 = compact.bounds, box2 = general.bounds
            #expect(same(box1.minX, box2.minX) && same(box1.maxY, box2.maxY))
            let d1 = compact.distance(to: query), d2 = general.distance(to: query)
            #expect(same(d1, d2) || (kind != .circle && Swift.abs(d1 - d2) <= 1e-9 * Swift.max(1, Swift.abs(d1))))
        }
    }

    @Test("Equality is the values' equality, however the strokes are stored")
    func equalityFollowsValues() async {
        await propertyCheck(count: 300, input: kindGen, pointGen.array(of: 0...3), colorGen, widthGen, colorGen, widthGen) {
            kind, points, color1, width1, color2, width2 in
            let a = Stroke(id: StrokeID(1), kind: kind, points: points, color: color1, width: width1)
            let b = Stroke(id: StrokeID(1), kind: kind, points: points, color: color2, width: width2)
            let pointsEqual = points.allSatisfy { $0 == $0 }  // no NaN
            #expect((a == b) == (pointsEqual && color1 == color2 && width1 == width2))
        }
        let zero = Stroke.line(StrokeID(1), from: .zero, to: Point(x: 1, y: 1))
        var negativeZero = zero
        negativeZero.color = Color(red: -0.0, green: 0, blue: 0)
        negativeZero.width = 10
        negativeZero.points[0] = Point(x: -0.0, y: 0)
        #expect(zero == negativeZero && !negativeZero.isCompact, "-0.0 equals 0.0, as for Double")
    }
}
