// The predicted extension of lines in progress (A13): shown for the frame, replaced by the next,
// never part of the drawing.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Predicted ink")
struct PredictedInkTests {
    /// A canvas whose host says every frame is shown 20 ms after the newest sample.
    static func predictingCanvas(tool: DrawView.Tool = .line, on: Bool = true) -> Canvas {
        let canvas = Canvas()
        canvas.input.prediction.presentationLead = { _ in 0.020 }
        canvas.drawView.tool = tool
        canvas.drawView.drawsPredictedTouches = on
        _ = canvas.laidOutRender()
        return canvas
    }

    /// One finger from (40, 100) right at 10 pt a frame (625 pt/s), `frames` moves.
    static func swipe(_ canvas: Canvas, frames: Int = 10, id: Int32 = 1) {
        canvas.down(id, 40, 100)
        canvas.frame()
        for i in 1...frames {
            canvas.move(id, 40 + 10 * Double(i), 100 + Double(i))
            canvas.frame()
        }
    }

    /// The end of the one line in progress as the window shows it, after a frame's dirty region
    /// is taken (as the host does).
    static func shownEnd(_ canvas: Canvas) throws -> Point {
        _ = canvas.window.takeDirtyRegion()
        let placed = try #require(canvas.window.liveLines.first)
        let line = try #require(placed.lines.first)
        return try #require(line.points.last)
    }

    @Test("A13: a moving finger's line is shown reaching where the finger is expected; the line in progress holds the real sample")
    func extended() throws {
        let canvas = Self.predictingCanvas()
        Self.swipe(canvas)
        let end = try Self.shownEnd(canvas)
        // 20 ms at 625 pt/s: about 12.5 pt past the finger's last sample (140, 110).
        #expect(end.x > 148 && end.x < 158, "\(end)")
        #expect(abs(end.y - (110 + (end.x - 140) / 10)) < 1, "\(end)")
        let real = try #require(canvas.drawView.strokesInProgress.values.first)
        #expect(real.points == [Point(x: 40, y: 100), Point(x: 140, y: 110)])
    }

    @Test("A13: with the preference off, the line ends at the finger")
    func off() throws {
        let canvas = Self.predictingCanvas(on: false)
        Self.swipe(canvas)
        #expect(try Self.shownEnd(canvas) == Point(x: 140, y: 110))
    }

    @Test("A13: when the next sample is overdue (the finger stopped) the guess is taken back")
    func takenBack() throws {
        let canvas = Self.predictingCanvas()
        Self.swipe(canvas)
        #expect(try Self.shownEnd(canvas) != Point(x: 140, y: 110))
        canvas.clock.advance(by: 0.030)
        #expect(try Self.shownEnd(canvas) == Point(x: 140, y: 110))
    }

    @Test("A13: a freehand stroke shows its predicted extension, repainted incrementally as a full repaint would show it")
    func freehandIncremental() throws {
        let canvas = Self.predictingCanvas(tool: .freehand)
        let screen = canvas.renderAll()
        canvas.down(1, 40, 100)
        canvas.frame()
        canvas.render(into: screen)
        var shownGuess = false
        for i in 1...14 {
            // A curve, slowing down at the end.
            let t = Double(i)
            canvas.move(1, 40 + 14 * t - 0.4 * t * t, 100 + 3 * t + 0.2 * t * t)
            canvas.frame()
            canvas.render(into: screen)
            if screen.color(x: Int(40 + 14 * t - 0.4 * t * t + 8), y: Int(100 + 3 * t + 0.2 * t * t + 2)) == DrawView.inProgressColor { shownGuess = true }
        }
        #expect(shownGuess, "the guess ahead of the finger was never drawn")
        // The finger stops: the guess goes, and each repaint matches one from scratch.
        canvas.clock.advance(by: 0.05)
        canvas.render(into: screen)
        let full = canvas.renderAll()
        for y in 0..<240 {
            for x in 0..<400 where screen.color(x: x, y: y) != full.color(x: x, y: y) {
                Issue.record("pixel \(x),\(y) differs: incremental \(String(describing: screen.color(x: x, y: y))) full \(String(describing: full.color(x: x, y: y)))")
                return
            }
        }
    }

    /// Draws lines and freehand strokes, undoes and redoes one; returns the file's bytes, the
    /// exports' bytes and the clipboard's strokes.
    static func drawEverything(prediction on: Bool) throws -> (file: [UInt8], png: [UInt8], svg: [UInt8], strokes: [Stroke]) {
        let canvas = predictingCanvas(on: on)
        for (n, tool) in [DrawView.Tool.line, .freehand, .line].enumerated() {
            canvas.drawView.tool = tool
            let id = Int32(n + 1)
            canvas.down(id, 30 + 40 * Double(n), 40)
            canvas.frame()
            for i in 1...12 {
                let t = Double(i)
                canvas.move(id, 30 + 40 * Double(n) + 9 * t, 40 + 11 * t + (tool == .freehand ? 0.5 * t * t : 0))
                canvas.frame()
            }
            canvas.up(id)
            canvas.frame()
        }
        canvas.drawView.drawing.undoStack.undo()
        canvas.drawView.drawing.undoStack.redo()
        let strokes = canvas.drawView.drawing.strokes
        return (DrawingFormat.encode(strokes).bytes, try DrawingExporter.croppedPNG(strokes), try DrawingExporter.croppedSVG(strokes), strokes)
    }

    @Test("A13: only real samples become the drawing: file, exports, undo and the strokes copied are identical with prediction on and off")
    func identicalDrawing() throws {
        let on = try Self.drawEverything(prediction: true)
        let off = try Self.drawEverything(prediction: false)
        #expect(on.strokes.count == 3)
        #expect(on.strokes == off.strokes)
        #expect(on.file == off.file)
        #expect(on.png == off.png)
        // Cairo numbers its surfaces across the process: the one difference two exports may show.
        func drawingPart(_ svg: [UInt8]) -> String {
            String(decoding: svg, as: UTF8.self).replacing(/id="surface[0-9]+"/, with: "")
        }
        #expect(drawingPart(on.svg) == drawingPart(off.svg))
        // Each line ends where its finger last was.
        #expect(on.strokes[0].points.last == Point(x: 30 + 108, y: 40 + 132))
    }

    @Test("A13: the preference is kept in the preferences file, on by default")
    func preference() {
        #expect(Preferences().drawsPredictedTouches)
        var p = Preferences()
        p.drawsPredictedTouches = false
        #expect(p.text.contains("prediction = false"))
        #expect(Preferences.parse(p.text).preferences == p)
        #expect(Preferences.parse("prediction = maybe\n").warnings.count == 1)
        let controller = DrawViewController(drawing: Drawing())
        controller.preferences = p
        #expect(!controller.drawView.drawsPredictedTouches)
        #expect(!controller.preferences.drawsPredictedTouches)
    }
}
