// What a finger draws on the canvas: a straight line from where it landed (the book), a freehand
// stroke through every sample (the draw board's freehand mode), or a circle in the box two fingers
// span (a challenge of the book). Each tool turns its fingers' touches into strokes in progress and
// adds the finished stroke to the drawing.
#if canImport(Glibc)
import Glibc
#endif
import TouchKit

extension DrawView {
    /// What a finger draws.
    public enum Tool: String, Sendable, CaseIterable {
        /// A straight line from where the finger landed to where it is (as in the book).
        case line
        /// A stroke through every sample of the finger (the draw board's freehand mode).
        case freehand
        /// A circle in the box two fingers span (a challenge of the book); one finger draws nothing.
        case circle
    }
}

/// The line and freehand tools: every finger draws its own line, red while the finger is down, in
/// the pen colour once lifted; a cancelled touch loses its line (A1, A2).
final class LineTool {
    private unowned let canvas: DrawView
    /// Per finger: when it landed, to know its speed.
    private var startTimes: [ObjectIdentifier: Double] = [:]
    /// Per finger: its newest sample's time, to know when the next is due.
    private var sampleTimes: [ObjectIdentifier: Double] = [:]

    init(canvas: DrawView) {
        self.canvas = canvas
    }

    private var lines: LinesInProgress { canvas.linesInProgress }

    func began(_ touches: [Touch], freehand: Bool) {
        for touch in touches {
            let key = ObjectIdentifier(touch)
            let location = touch.location(inDrawingOf: canvas)
            startTimes[key] = touch.timestamp
            sampleTimes[key] = touch.timestamp
            let width = touch.type == .pencil ? DrawView.penWidth(force: touch.force) : DrawView.lineWidth
            var line = Stroke.line(StrokeID(0), from: location, to: location, color: DrawView.inProgressColor, width: width)
            if freehand {
                line.kind = .freehand
                line.points = [location]
            }
            lines.begin(line, for: key)
        }
    }

    func moved(_ touches: [Touch], in event: Event) {
        if let now = canvas.window?.application?.clock.now { lines.lineMoved(at: now) }
        for touch in touches {
            let key = ObjectIdentifier(touch)
            guard var line = lines[key] else { continue }
            // A pen's line is as wide as it was pressed hardest.
            let pressed = touch.type == .pencil ? max(line.width, DrawView.penWidth(force: touch.force)) : line.width
            let coalesced = event.coalescedTouches(for: touch)
            let predicted = prediction(for: touch, in: event, samples: max(coalesced.count, 1))
            if line.kind == .freehand {
                // Every sample between frames (T11), so fast curves stay smooth.
                let samples = coalesced.map { $0.location(inDrawingOf: canvas) }
                let added = samples.isEmpty ? [touch.location(inDrawingOf: canvas)] : samples
                line.points.append(contentsOf: added)
                line.width = pressed
                lines.extend(key, to: line, added: added.count, predicted: predicted)
            } else {
                line.points[1] = touch.location(inDrawingOf: canvas)
                line.width = pressed
                lines.move(key, to: line, predicted: predicted)
            }
        }
    }

    /// Where `touch`'s line is expected to reach when this frame is shown (A13), shown until a
    /// sample due after its `samples` newest ones fails to come; nil with prediction off.
    private func prediction(for touch: Touch, in event: Event, samples: Int) -> LinesInProgress.Prediction? {
        let key = ObjectIdentifier(touch)
        let previous = sampleTimes.updateValue(touch.timestamp, forKey: key) ?? touch.timestamp
        guard canvas.drawsPredictedTouches, let now = canvas.window?.application?.clock.now else { return nil }
        let points = event.predictedTouches(for: touch).map { $0.location(inDrawingOf: canvas) }
        guard !points.isEmpty else { return nil }
        // Half a sample interval of grace on top of the one due (a panel's timing wavers).
        let interval = min(max((touch.timestamp - previous) / Double(samples), 0.004), 0.034)
        return LinesInProgress.Prediction(points: points, expires: now + 1.5 * interval)
    }

    func ended(_ touches: [Touch]) {
        for touch in touches {
            let key = ObjectIdentifier(touch)
            sampleTimes[key] = nil
            guard var line = lines.end(key) else { continue }
            let end = touch.location(inDrawingOf: canvas)
            if line.kind == .line { line.points[1] = end } else if line.points.last != end { line.points.append(end) }
            line.id = canvas.drawing.makeID()
            line.color = canvas.penColor
            if canvas.colorsByAngle, line.kind == .line {
                line.color = DrawView.color(forAngle: atan2(line.points[1].y - line.points[0].y,
                                                            line.points[1].x - line.points[0].x))
            }
            if canvas.widthFollowsSpeed, touch.type != .pencil, let start = startTimes[key] {
                let duration = max(touch.timestamp - start, 0.016)
                line.width = DrawView.width(forSpeed: line.pathLength / duration)
            }
            startTimes[key] = nil
            lines.willAdd(line)
            canvas.drawing.add(line)
        }
    }

    func cancelled(_ touches: [Touch]) {
        for touch in touches {
            let key = ObjectIdentifier(touch)
            startTimes[key] = nil
            sampleTimes[key] = nil
            lines.cancel(key)
        }
    }
}

/// The circle tool: the circle spans the box of the first two fingers on the glass, and lifting
/// either of them finishes it.
final class CircleTool {
    private unowned let canvas: DrawView
    /// The fingers, in the order they landed.
    private var touches: [ObjectIdentifier] = []
    /// The circle under the fingers, red.
    private(set) var circle: Stroke?
    /// Whether a finger is on the canvas for a circle (one alone draws nothing yet).
    var isSpanning: Bool { !touches.isEmpty }

    init(canvas: DrawView) {
        self.canvas = canvas
    }

    func began(_ began: [Touch], in event: Event) {
        for touch in began {
            touches.append(ObjectIdentifier(touch))
            update(event)
        }
    }

    /// The circle follows the first two fingers.
    func update(_ event: Event) {
        let old = circle?.bounds
        let current = event.touches(for: canvas)
        let corners = touches.prefix(2).compactMap { key in
            current.first { ObjectIdentifier($0) == key }?.location(inDrawingOf: canvas)
        }
        circle = corners.count == 2
            ? Stroke(id: StrokeID(0), kind: .circle, points: corners, color: DrawView.inProgressColor, width: DrawView.lineWidth)
            : nil
        if let old { canvas.setNeedsDisplay(drawingRect: old) }
        if let circle { canvas.setNeedsDisplay(drawingRect: circle.bounds) }
    }

    func ended(_ ended: [Touch], in event: Event) {
        update(event)
        let ending = Set(ended.map(ObjectIdentifier.init))
        let wasSpanning = touches.prefix(2).contains { ending.contains($0) }
        if wasSpanning, var finished = circle {
            canvas.setNeedsDisplay(drawingRect: finished.bounds)
            finished.id = canvas.drawing.makeID()
            finished.color = canvas.penColor
            canvas.drawing.add(finished, actionName: "Circle")
            circle = nil
        }
        touches.removeAll { ending.contains($0) }
        if wasSpanning { touches.removeAll() }
    }

    func cancelled(_ cancelled: [Touch]) {
        for touch in cancelled {
            guard let index = touches.firstIndex(of: ObjectIdentifier(touch)) else { continue }
            touches.remove(at: index)
            if let circle { canvas.setNeedsDisplay(drawingRect: circle.bounds) }
            circle = nil
        }
    }

    /// The circle goes (a tool change).
    func cancelAll() {
        if let circle { canvas.setNeedsDisplay(drawingRect: circle.bounds) }
        touches.removeAll()
        circle = nil
    }

    func draw(_ rect: Rect, in context: GraphicsContext) {
        if let circle, circle.bounds.intersects(rect) { StrokeRenderer.draw(circle, in: context, ink: canvas.screenInk) }
    }
}
