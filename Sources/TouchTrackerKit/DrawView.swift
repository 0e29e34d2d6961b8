// The canvas of seed 000 (HQLDrawView): every finger draws its own line, red while the finger is
// down, in the pen colour (black) once lifted; a cancelled touch loses its line (A1, A2).
import Graphics
import Logging
import TouchKit

public final class DrawView: View {
    /// The finished strokes: the document.
    public let drawing: Drawing
    /// One line per finger on the glass, keyed by its touch (T1: the touch object is the identity).
    public private(set) var linesInProgress: [ObjectIdentifier: Stroke] = [:]

    public static let lineWidth = 10.0
    public static let inProgressColor = Color.red
    /// The colour finished lines get.
    public var penColor = Color.black
    /// Whether fingers draw. Off, only a pen or the mouse draws (for pen users whose hand rests on
    /// the screen); taps on controls still work.
    public var drawsWithFingers = true

    /// A pen's line width from its pressure (0...1): light strokes thin, firm ones thick. A pen
    /// that reports no pressure draws the default width.
    public static func penWidth(force: Double) -> Double {
        force > 0 ? 3 + 17 * min(force, 1) : lineWidth
    }

    /// Logs every touch method call when set (`touchtracker --trace`).
    public var traceLogger: Logger?
    /// Short numbers for the touches in the trace, in the order they began.
    private var traceNumbers: [ObjectIdentifier: Int] = [:]
    private var nextTraceNumber = 1

    /// Finished strokes rasterised once, so a moving finger repaints only its own line.
    private var cache: ImageSurface?
    private var cacheIsValid = false

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.drawing = drawing
        super.init(frame: frame)
        backgroundColor = .white
        isMultipleTouchEnabled = true
        drawing.observe { [unowned self] change in self.drawingChanged(change) }
    }

    public override convenience init(frame: Rect) {
        self.init(frame: frame, drawing: Drawing())
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        trace("touchesBegan", touches)
        for touch in touches where drawsWithFingers || touch.type != .direct {
            let location = touch.location(in: self)
            let width = touch.type == .pencil ? Self.penWidth(force: touch.force) : Self.lineWidth
            let line = Stroke.line(StrokeID(0), from: location, to: location, color: Self.inProgressColor,
                                   width: width)
            linesInProgress[ObjectIdentifier(touch)] = line
            setNeedsDisplay(line.bounds)
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        trace("touchesMoved", touches)
        for touch in touches {
            guard var line = linesInProgress[ObjectIdentifier(touch)] else { continue }
            let old = line
            line.points[1] = touch.location(in: self)
            // A pen's line is as wide as it was pressed hardest.
            if touch.type == .pencil { line.width = max(line.width, Self.penWidth(force: touch.force)) }
            linesInProgress[ObjectIdentifier(touch)] = line
            setNeedsDisplay(along: old)
            setNeedsDisplay(along: line)
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        trace("touchesEnded", touches)
        for touch in touches {
            guard var line = linesInProgress.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            setNeedsDisplay(line.bounds)
            line.points[1] = touch.location(in: self)
            line.id = drawing.makeID()
            line.color = penColor
            drawing.add(line)
        }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        trace("touchesCancelled", touches)
        for touch in touches {
            guard let line = linesInProgress.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            setNeedsDisplay(line.bounds)
        }
    }

    private func trace(_ method: String, _ touches: Set<Touch>) {
        guard let traceLogger else { return }
        for touch in touches {
            let key = ObjectIdentifier(touch)
            let number = traceNumbers[key] ?? nextTraceNumber
            if traceNumbers[key] == nil {
                traceNumbers[key] = number
                nextTraceNumber += 1
            }
            if touch.phase == .ended || touch.phase == .cancelled { traceNumbers[key] = nil }
            let p = touch.location(in: self)
            traceLogger.info("\(method) touches=\(touches.count) phase=\(touch.phase) touch=\(number) x=\(p.x) y=\(p.y) taps=\(touch.tapCount)")
        }
    }

    // MARK: Drawing

    private func drawingChanged(_ change: Drawing.Change) {
        switch change {
        case .added(let stroke):
            if let cache, cacheIsValid { StrokeRenderer.draw(stroke, in: CairoContext(surface: cache)) }
            setNeedsDisplay(stroke.bounds)
        case .removed(let stroke):
            repaintCache(in: stroke.bounds)
            setNeedsDisplay(stroke.bounds)
        case .updated(let old, let new):
            repaintCache(in: old.bounds)
            repaintCache(in: new.bounds)
            setNeedsDisplay(old.bounds)
            setNeedsDisplay(new.bounds)
        case .reset:
            cacheIsValid = false
            setNeedsDisplay()
        }
    }

    /// Marks what `stroke` paints as a few rectangles along it (pieces of at most 48 points) rather
    /// than its whole box: a long diagonal line then repaints a band, not a square.
    private func setNeedsDisplay(along stroke: Stroke) {
        guard stroke.kind != .circle, stroke.points.count >= 2 else { return setNeedsDisplay(stroke.bounds) }
        let pad = stroke.width / 2 + 2
        for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
            let pieces = max(1, Int((a.distance(to: b) / 48).rounded(.up)))
            for i in 0..<pieces {
                let t0 = Double(i) / Double(pieces), t1 = Double(i + 1) / Double(pieces)
                let p = Point(x: a.x + (b.x - a.x) * t0, y: a.y + (b.y - a.y) * t0)
                let q = Point(x: a.x + (b.x - a.x) * t1, y: a.y + (b.y - a.y) * t1)
                setNeedsDisplay(Rect(x: min(p.x, q.x) - pad, y: min(p.y, q.y) - pad,
                                     width: abs(p.x - q.x) + 2 * pad, height: abs(p.y - q.y) + 2 * pad))
            }
        }
    }

    /// Re-makes the cache inside `rect` only: clears it and redraws the strokes that meet it (found
    /// through the drawing's spatial index), so a removal or a move costs what lies under it, not
    /// a redraw of every stroke.
    private func repaintCache(in rect: Rect) {
        guard let cache, cacheIsValid else { return }
        let area = rect.integral
        let context = CairoContext(surface: cache)
        context.clip(to: area)
        context.replace(area, with: .clear)
        for stroke in drawing.strokes(intersecting: area) { StrokeRenderer.draw(stroke, in: context) }
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        if let cairo = context as? CairoContext {
            cairo.draw(finishedStrokesImage(scale: cairo.deviceScale), clippedTo: rect)
        } else {
            for stroke in drawing.strokes where stroke.bounds.intersects(rect) { StrokeRenderer.draw(stroke, in: context) }
        }
        for line in linesInProgress.values where line.bounds.intersects(rect) {
            StrokeRenderer.draw(line, in: context)
        }
    }

    /// The finished strokes at `scale` pixels per point, re-made only when the strokes, the size
    /// or the scale changed.
    private func finishedStrokesImage(scale: Double) -> ImageSurface {
        if let cache, cacheIsValid, cache.scale == scale,
           cache.width == max(Int((bounds.width * scale).rounded(.up)), 1),
           cache.height == max(Int((bounds.height * scale).rounded(.up)), 1) {
            return cache
        }
        let image = ImageSurface(size: bounds.size, scale: scale)
        let context = CairoContext(surface: image)
        for stroke in drawing.strokes { StrokeRenderer.draw(stroke, in: context) }
        cache = image
        cacheIsValid = true
        return image
    }
}

/// How each kind of stroke is painted: round caps and joins, its colour and width.
public enum StrokeRenderer {
    public static func draw(_ stroke: Stroke, in context: GraphicsContext) {
        context.setStrokeColor(stroke.color)
        context.setLineWidth(stroke.width)
        context.setLineCap(.round)
        context.setLineJoin(.round)
        switch stroke.kind {
        case .line, .freehand:
            guard let first = stroke.points.first else { return }
            context.move(to: first)
            // A single point still shows as a dot: a zero-length segment with round caps.
            for point in stroke.points.count > 1 ? Array(stroke.points.dropFirst()) : [first] {
                context.addLine(to: point)
            }
        case .circle:
            guard stroke.points.count >= 2 else { return }
            context.addEllipse(in: Rect(enclosing: stroke.points[0], stroke.points[1]))
        }
        context.strokePath()
    }
}

/// The app's one screen: a canvas that fills the window.
public final class DrawViewController: ViewController {
    public let drawView: DrawView

    public init(drawing: Drawing = Drawing()) {
        drawView = DrawView(frame: Rect(x: 0, y: 0, width: 1024, height: 768), drawing: drawing)
        super.init()
        view = drawView
    }
}
