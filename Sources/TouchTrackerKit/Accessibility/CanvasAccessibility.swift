// The canvas as assistive tools see it: a container whose elements are its lines in drawing
// order, each named and described ("Line 3 of 12", "black, from the upper left towards the
// centre, 240 points long"), the selected one marked, a banner showing above them. Nothing is
// made until a tool asks: the canvas creates this on the first question, and a change to the
// drawing afterwards only marks the list stale (and tells the window's listener).
import TouchKit

final class CanvasAccessibility {
    private unowned let canvas: DrawView
    private var lines: [LineElement] = []
    private var byID: [StrokeID: LineElement] = [:]
    private var isStale = true

    init(canvas: DrawView) {
        self.canvas = canvas
        canvas.drawing.observe { [weak self] _ in self?.drawingChanged() }
    }

    /// The canvas's value: how many lines it holds.
    var value: String { Strings.lineCount(canvas.drawing.strokes.count) }

    /// What lies over the lines (a banner showing), then the lines in drawing order. A line keeps
    /// its element while it stays in the drawing, so a tool's handle on it stays good.
    var elements: [Accessible] {
        if isStale { rebuild() }
        var shown: [Accessible] = []
        for sub in canvas.subviews where !sub.isHidden && sub.alpha >= 0.01 && !sub.accessibilityElementsHidden {
            if sub.isAccessibilityElement { shown.append(sub) } else { shown.append(contentsOf: sub.accessibilityChildren) }
        }
        // Tools ask child by child: the list is made again only when something in it changed.
        if let cached, cached.overlays.count == shown.count, zip(cached.overlays, shown).allSatisfy({ $0 === $1 }) {
            return cached.all
        }
        let all = shown + lines
        cached = (shown, all)
        return all
    }
    private var cached: (overlays: [Accessible], all: [Accessible])?

    /// The element of the line with `id`, if it is in the drawing.
    func element(for id: StrokeID) -> LineElement? {
        if isStale { rebuild() }
        return byID[id]
    }

    private func drawingChanged() {
        guard !isStale else { return }
        isStale = true
        canvas.postAccessibilityNotification(.layoutChanged(focus: nil))
    }

    private func rebuild() {
        isStale = false
        cached = nil
        let strokes = canvas.drawing.strokes
        var kept: [StrokeID: LineElement] = [:]
        kept.reserveCapacity(strokes.count)
        lines = strokes.indices.map { index in
            let id = strokes[index].id
            let element = byID[id] ?? LineElement(canvas: canvas, id: id)
            element.number = index + 1
            element.count = strokes.count
            kept[id] = element
            return element
        }
        byID = kept
    }
}

/// One line of the drawing, as a tool sees it. Its words are made when asked, from the line as it
/// is then (a moved line is described where it now lies).
final class LineElement: AccessibilityElement {
    private unowned let canvas: DrawView
    let id: StrokeID
    var number = 0, count = 0

    init(canvas: DrawView, id: StrokeID) {
        self.canvas = canvas
        self.id = id
        super.init(accessibilityContainer: canvas)
        accessibilityIdentifier = "line-\(id.rawValue)"
        accessibilityCustomActions = [AccessibilityCustomAction(name: Strings.delete) { [unowned self] _ in
            guard self.stroke != nil else { return false }
            self.canvas.select(self.id)
            self.canvas.deleteSelectedLine()
            return true
        }]
    }

    private var stroke: Stroke? { canvas.drawing.stroke(id) }

    override var accessibilityLabel: String? {
        get { stroke.map { Strings.lineName($0.kind, number: number, count: count) } }
        set {}
    }

    override var accessibilityValue: String? {
        get { stroke.map { Self.describe($0, in: canvas.visibleDrawingRect) } }
        set {}
    }

    override var accessibilityTraits: AccessibilityTraits {
        get { canvas.selectedStrokeID == id ? [.image, .selected] : .image }
        set {}
    }

    override var accessibilityFrameInContainerSpace: Rect {
        get { stroke.map { canvas.canvasRect($0.bounds) } ?? .zero }
        set {}
    }

    /// Selects the line, as a tap on it does (A4).
    override func accessibilityActivate() -> Bool {
        guard stroke != nil else { return false }
        canvas.select(id)
        return true
    }

    /// The colour, where it starts and ends (or its centre, for a circle) and its length.
    static func describe(_ stroke: Stroke, in area: Rect) -> String {
        let colour = ColourName.spoken(stroke.color)
        let points = stroke.points
        guard let first = points.first, let last = points.last else { return colour }
        if stroke.kind == .circle {
            let centre = Point(x: (first.x + last.x) / 2, y: (first.y + last.y) / 2)
            let across = max(abs(last.x - first.x), abs(last.y - first.y))
            return Strings.circleCourse(colour: colour, centre: Strings.place(CanvasRegion(centre, in: area)),
                                        size: Int(across.rounded()))
        }
        return Strings.lineCourse(colour: colour, start: Strings.place(CanvasRegion(first, in: area)),
                                  end: Strings.place(CanvasRegion(last, in: area)), length: Int(stroke.pathLength.rounded()))
    }
}
