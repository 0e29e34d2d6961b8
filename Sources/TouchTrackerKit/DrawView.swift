// The canvas of seed 000 (HQLDrawView): every finger draws its own line, red while the finger is
// down, black once lifted; a cancelled touch loses its line (A1, A2).
import Graphics
import Logging
import TouchKit

public final class DrawView: View {
    /// Finished lines, oldest first.
    public private(set) var finishedLines: [Line] = []
    /// One line per finger on the glass, keyed by its touch (T1: the touch object is the identity).
    public private(set) var linesInProgress: [ObjectIdentifier: Line] = [:]

    public static let lineWidth = 10.0
    public static let finishedColor = Color.black
    public static let inProgressColor = Color.red

    /// Logs every touch method call when set (`touchtracker --trace`).
    public var traceLogger: Logger?
    /// Short numbers for the touches in the trace, in the order they began.
    private var traceNumbers: [ObjectIdentifier: Int] = [:]
    private var nextTraceNumber = 1

    /// Finished lines rasterised once, so a moving finger repaints only its own line.
    private var cache: ImageSurface?
    private var cacheIsValid = false

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .white
        isMultipleTouchEnabled = true
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        trace("touchesBegan", touches)
        for touch in touches {
            let location = touch.location(in: self)
            let line = Line(begin: location, end: location)
            linesInProgress[ObjectIdentifier(touch)] = line
            setNeedsDisplay(line.bounds(strokeWidth: Self.lineWidth))
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        trace("touchesMoved", touches)
        for touch in touches {
            guard var line = linesInProgress[ObjectIdentifier(touch)] else { continue }
            let old = line.bounds(strokeWidth: Self.lineWidth)
            line.end = touch.location(in: self)
            linesInProgress[ObjectIdentifier(touch)] = line
            setNeedsDisplay(old.union(line.bounds(strokeWidth: Self.lineWidth)))
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        trace("touchesEnded", touches)
        for touch in touches {
            guard var line = linesInProgress.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            line.end = touch.location(in: self)
            finishedLines.append(line)
            drawIntoCache(line)
            setNeedsDisplay(line.bounds(strokeWidth: Self.lineWidth))
        }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        trace("touchesCancelled", touches)
        for touch in touches {
            guard let line = linesInProgress.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            setNeedsDisplay(line.bounds(strokeWidth: Self.lineWidth))
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

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        if let cairo = context as? CairoContext {
            cairo.draw(finishedLinesImage(), clippedTo: rect)
        } else {
            for line in finishedLines { stroke(line, color: Self.finishedColor, in: context) }
        }
        for line in linesInProgress.values where line.bounds(strokeWidth: Self.lineWidth).intersects(rect) {
            stroke(line, color: Self.inProgressColor, in: context)
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        if let cache, cache.width != Int(bounds.width.rounded(.up)) || cache.height != Int(bounds.height.rounded(.up)) {
            cacheIsValid = false
        }
    }

    private func stroke(_ line: Line, color: Color, in context: GraphicsContext) {
        context.setStrokeColor(color)
        context.setLineWidth(Self.lineWidth)
        context.setLineCap(.round)
        context.move(to: line.begin)
        context.addLine(to: line.end)
        context.strokePath()
    }

    private func finishedLinesImage() -> ImageSurface {
        let width = Int(bounds.width.rounded(.up)), height = Int(bounds.height.rounded(.up))
        if let cache, cacheIsValid, cache.width == max(width, 1), cache.height == max(height, 1) { return cache }
        let image = ImageSurface(width: width, height: height)
        let context = CairoContext(surface: image)
        for line in finishedLines { stroke(line, color: Self.finishedColor, in: context) }
        cache = image
        cacheIsValid = true
        return image
    }

    private func drawIntoCache(_ line: Line) {
        guard let cache, cacheIsValid else { return }
        stroke(line, color: Self.finishedColor, in: CairoContext(surface: cache))
    }
}

/// The app's one screen: a canvas that fills the window.
public final class DrawViewController: ViewController {
    public let drawView = DrawView(frame: Rect(x: 0, y: 0, width: 1024, height: 768))

    public override init() {
        super.init()
        view = drawView
    }
}
