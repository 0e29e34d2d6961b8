// Strokes and fingers as far out as anything outside the app can put them: a drawing file's or a
// paste's strokes anywhere within the coordinate limit, and fingers past it (a compositor's
// input is clamped on its way in, but the canvas must not depend on that). Whatever a stroke
// spans, the work of showing, selecting, moving and deleting it follows its points and the
// canvas's area, never the distance it covers.
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import Limits
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Strokes and fingers far out")
struct FarOutTests {
    /// A freehand stroke of `count` points zigzagging from one side of the plane to the other,
    /// each segment through the middle of the canvas (0...400 x 0...300), give or take a point.
    static func zigzag(_ id: Int, count: Int) -> Stroke {
        let reach = Limit.coordinate * 0.9
        let points = (0..<count).map { i in
            let angle = 0.6 + Double(i) * 1e-6, side = i % 2 == 0 ? 1.0 : -1.0
            return Point(x: 200 + side * reach * cos(angle), y: 150 + side * reach * sin(angle))
        }
        return Stroke(id: StrokeID(id), kind: .freehand, points: points, color: .black, width: 10)
    }

    static let canvasArea = Rect(x: 0, y: 0, width: 400, height: 300)

    @Test("A stroke's bands are cut to the area asked for: a zigzag across the plane gives as many as its points and that area need, not one per 48 points of its length")
    func bandsFollowTheClip() {
        let stroke = Self.zigzag(1, count: 40)
        let bands = stroke.bands(within: Self.canvasArea)
        // Each segment crosses the canvas: at most its diagonal's pieces, and one more.
        let perSegment = Int((Self.canvasArea.width + Self.canvasArea.height + 4 * (stroke.width / 2 + 2)) / 48) + 2
        #expect(bands.count <= 39 * perSegment, "\(bands.count) bands")
        #expect(bands.allSatisfy { $0.intersects(Self.canvasArea.insetBy(dx: -1, dy: -1)) })
        // Every point of the centre line inside the canvas is covered.
        for i in 0..<200 {
            let t = Double(i) / 199
            let a = stroke.points[0], b = stroke.points[1]
            let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            guard Self.canvasArea.contains(p) else { continue }
            #expect(bands.contains { $0.contains(p) }, "\(p) is in no band")
        }
        // Lines wholly outside give nothing; a line inside gives what it gave before.
        let outside = Stroke.line(StrokeID(2), from: Point(x: -5000, y: -5000), to: Point(x: -1000, y: 9000))
        #expect(outside.bands(within: Self.canvasArea).isEmpty)
        let inside = Stroke.line(StrokeID(3), from: Point(x: 10, y: 10), to: Point(x: 390, y: 290))
        #expect(inside.bands(within: Self.canvasArea).count == Int((inside.points[0].distance(to: inside.points[1]) / 48).rounded(.up)))
    }

    @Test("A stroke that would need more bands than its area holds gives its box within that area: the work stays bounded by the points and the area")
    func manyCrossingsGiveTheBox() {
        let stroke = Self.zigzag(1, count: 5000)
        let bands = stroke.bands(within: Self.canvasArea)
        #expect(bands.count <= 5000 + 4 * 10 * 8, "\(bands.count) bands")
        #expect(bands.contains { $0.contains(Self.canvasArea.insetBy(dx: 1, dy: 1)) })
    }

    @Test("A zigzag freehand stroke across the plane, from a file, is shown, selected, moved, deleted and undone on the canvas")
    func zigzagOnTheCanvas() {
        let zigzag = Self.zigzag(1, count: 2000)
        let canvas = Canvas(drawing: Drawing(strokes: [zigzag]))
        let image = ImageSurface(width: 400, height: 300)
        _ = canvas.laidOutRender()
        canvas.drawView.select(zigzag.id)
        canvas.render(into: image)
        // A long press on it lifts it, a drag moves it.
        let onLine = Point(x: 200, y: 150)
        #expect(zigzag.distance(to: onLine) < 1)
        canvas.down(1, onLine.x, onLine.y)
        canvas.frame()
        canvas.clock.advance(by: 0.7)
        canvas.move(1, onLine.x + 30, onLine.y + 20)
        canvas.frame()
        canvas.up(1)
        canvas.frame()
        canvas.render(into: image)
        #expect(canvas.drawView.drawing.strokes.first?.points.first == zigzag.points[0].offsetBy(dx: 30, dy: 20))
        canvas.drawView.select(canvas.drawView.drawing.strokes.first?.id)
        canvas.drawView.deleteSelectedLine()
        canvas.render(into: image)
        #expect(canvas.drawView.drawing.strokes.isEmpty)
        canvas.drawView.drawing.undoStack.undo()
        canvas.render(into: image)
        #expect(canvas.drawView.drawing.strokes.count == 1)
        while canvas.drawView.isRepairingCache { canvas.clock.advance(by: 0.01) }
    }

    @Test("A line dragged past the edge of the plane stops at it, so the drawing still reads back from its file")
    func dragStopsAtTheEdge() throws {
        let edge = Limit.coordinate
        let line = Stroke.line(StrokeID(1), from: Point(x: 150, y: 100), to: Point(x: edge - 10, y: 100))
        let canvas = Canvas(drawing: Drawing(strokes: [line]))
        _ = canvas.laidOutRender()
        canvas.down(1, 200, 100)
        canvas.frame()
        canvas.clock.advance(by: 0.7)
        for step in 1...10 {
            canvas.move(1, 200 + Double(step) * 10, 100 + Double(step) * 5)
            canvas.frame()
        }
        canvas.up(1)
        canvas.frame()
        let moved = try #require(canvas.drawView.drawing.strokes.first)
        #expect(Array(moved.points) == [Point(x: 250, y: 150), Point(x: edge, y: 150)])
        let saved = DrawingFormat.encode(canvas.drawView.drawing.strokes).bytes
        #expect(try DrawingFormat.decode(saved) == [moved])
    }

    @Test("Fingers past any limit (1e300) draw live lines that the window draws and paints without trapping")
    func fingersPastTheLimit() {
        let canvas = Canvas()
        canvas.window.layoutIfNeeded()
        let buffers = LiveLineTests.Buffers(canvas, scale: 2)
        // The compositor's input is clamped on its way in; past that, what the window shows is
        // not compared with Cairo's (which draws nothing that far out), only that it is shown.
        _ = buffers.frame("the first frame")
        LiveLineTests.landTen(canvas)
        _ = buffers.frame("ten fingers")
        canvas.move(0, 200, 1e300)
        canvas.move(1, -1e300, 150)
        canvas.move(2, 1e300, -1e300)
        canvas.frame()
        _ = buffers.frame("fingers far out")
        canvas.clock.advance(by: 0.1)
        _ = buffers.frame("the fingers rested: smooth lines")
        for i in 0..<10 { canvas.up(Int32(i)) }
        canvas.frame()
        _ = buffers.frame("lifted")
        canvas.clock.advance(by: 0.01)
        _ = buffers.frame("in the cache")
        #expect(canvas.drawView.drawing.strokes.count == 10)
    }
}
