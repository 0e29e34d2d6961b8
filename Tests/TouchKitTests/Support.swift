@testable import TouchKit

/// One call of a touch method, as a test sees it.
struct Delivery: Equatable, CustomStringConvertible {
    enum Method: String { case began, moved, ended, cancelled }
    let receiver: String
    let method: Method
    let touches: Set<Touch>
    let event: Event
    /// Which of the event's deliveries the call belonged to (one event carries a whole sequence,
    /// T12), and the event's touches then.
    var deliveryNumber = 0
    var eventTouches: Set<Touch> = []
    /// Each touch as the receiver saw it during the call (replayed deliveries show an earlier
    /// state than the touch has afterwards).
    var seen: [ObjectIdentifier: Seen] = [:]

    struct Seen: Equatable {
        let phase: Touch.Phase
        let location: Point
        let previousLocation: Point
    }

    /// How the receiver saw `touch` (the only one, if nil).
    func seen(_ touch: Touch? = nil) -> Seen? {
        guard let touch = touch ?? touches.first else { return nil }
        return seen[ObjectIdentifier(touch)]
    }

    static func == (a: Delivery, b: Delivery) -> Bool {
        a.receiver == b.receiver && a.method == b.method && a.touches == b.touches && a.isSameEvent(as: b)
    }

    /// Whether both calls came from one delivery of one event.
    func isSameEvent(as other: Delivery) -> Bool {
        event === other.event && deliveryNumber == other.deliveryNumber
    }

    var description: String { "\(receiver).\(method)(\(touches.count))" }
}

/// Collects deliveries from every recording responder of a test, in order.
final class DeliveryLog {
    var entries: [Delivery] = []

    func add(_ receiver: String, _ method: Delivery.Method, _ touches: Set<Touch>, _ event: Event) {
        var delivery = Delivery(receiver: receiver, method: method, touches: touches, event: event)
        delivery.deliveryNumber = event.deliveryNumber
        delivery.eventTouches = event.allTouches
        for touch in touches {
            delivery.seen[ObjectIdentifier(touch)] = Delivery.Seen(
                phase: touch.phase, location: touch.location(in: nil),
                previousLocation: touch.previousLocation(in: nil))
        }
        entries.append(delivery)
    }

    /// `"name.method(count)"` for each entry, for compact expectations.
    var summary: [String] { entries.map(\.description) }

    func clear() { entries.removeAll() }
}

/// A view that records its touch calls and optionally passes them on (calls `super`).
final class RecordingView: View {
    let name: String
    let log: DeliveryLog
    var forwards = false

    init(_ name: String, frame: Rect, log: DeliveryLog) {
        self.name = name
        self.log = log
        super.init(frame: frame)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .began, touches, event)
        if forwards { super.touchesBegan(touches, with: event) }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .moved, touches, event)
        if forwards { super.touchesMoved(touches, with: event) }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .ended, touches, event)
        if forwards { super.touchesEnded(touches, with: event) }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .cancelled, touches, event)
        if forwards { super.touchesCancelled(touches, with: event) }
    }
}

/// A view controller that records the touch calls that reach it.
final class RecordingViewController: ViewController {
    let name: String
    let log: DeliveryLog

    init(_ name: String, log: DeliveryLog) {
        self.name = name
        self.log = log
        super.init()
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .began, touches, event)
        super.touchesBegan(touches, with: event)
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        log.add(name, .ended, touches, event)
        super.touchesEnded(touches, with: event)
    }
}

/// An application that records the touch calls reaching the end of the chain, and every event.
final class RecordingApplication: Application {
    let log: DeliveryLog
    var events: [Event] = []

    init(log: DeliveryLog, clock: Clock) {
        self.log = log
        super.init(clock: clock)
    }

    override func sendEvent(_ event: Event) {
        events.append(event)
        super.sendEvent(event)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        log.add("app", .began, touches, event)
        super.touchesBegan(touches, with: event)
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        log.add("app", .ended, touches, event)
        super.touchesEnded(touches, with: event)
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        log.add("app", .cancelled, touches, event)
        super.touchesCancelled(touches, with: event)
    }
}

/// An application, a 400x300 window and an input adapter, with a manual clock.
final class Harness {
    let log = DeliveryLog()
    let clock = ManualClock()
    let app: RecordingApplication
    let window: Window
    let input: TouchInput

    init(size: Size = Size(width: 400, height: 300)) {
        app = RecordingApplication(log: log, clock: clock)
        window = Window(frame: Rect(origin: .zero, size: size))
        input = TouchInput(application: app, window: window)
    }

    /// Adds a recording view to `parent` (the window by default).
    @discardableResult
    func addView(_ name: String, _ frame: Rect, to parent: View? = nil) -> RecordingView {
        let view = RecordingView(name, frame: frame, log: log)
        (parent ?? window).addSubview(view)
        return view
    }

    /// Down + frame for one touchscreen finger.
    func tapDown(_ id: Int32, _ x: Double, _ y: Double, at time: Double) {
        input.down(.touch(id), at: Point(x: x, y: y), time: time)
        input.frame()
    }

    func move(_ id: Int32, _ x: Double, _ y: Double, at time: Double) {
        input.motion(.touch(id), at: Point(x: x, y: y), time: time)
        input.frame()
    }

    func lift(_ id: Int32, at time: Double) {
        input.up(.touch(id), time: time)
        input.frame()
    }

    /// A complete tap (down, frame, up, frame).
    func tap(_ id: Int32, _ x: Double, _ y: Double, at time: Double, duration: Double = 0.05) {
        tapDown(id, x, y, at: time)
        lift(id, at: time + duration)
    }
}

/// A graphics context that records the calls made on it, for rendering checks.
final class RecordingContext: GraphicsContext {
    enum Call: Equatable {
        case save, restore
        case translate(Double, Double), scale(Double, Double), concat(AffineTransform)
        case clip(Rect)
        case fillColor(Color), fill(Rect)
        case strokeColor(Color), lineWidth(Double), lineCap(LineCap), lineJoin(LineJoin), antialiasing(Antialiasing)
        case move(Point), line(Point), stroke, fillPath, ellipse(Rect)
        case copy(Rect)
    }

    var calls: [Call] = []
    /// Current translation, kept so checks can see where a fill landed in window coordinates.
    private var offset = Point.zero
    private var stack: [Point] = []
    /// Every `fill(_:)` in window (device) coordinates, with the colour in effect.
    var deviceFills: [(Rect, Color)] = []
    private var fillColor = Color.black
    /// Text drawn, and at what sizes (apart from `calls`).
    var texts: [String] = []
    var fontSizes: [Double] = []
    private(set) var antialiasing = Antialiasing.smooth
    var deviceScale: Double { 1 }

    func saveGState() { calls.append(.save); stack.append(offset) }
    func restoreGState() { calls.append(.restore); offset = stack.popLast() ?? .zero }
    func translateBy(x: Double, y: Double) {
        calls.append(.translate(x, y))
        offset = Point(x: offset.x + x, y: offset.y + y)
    }
    func clip(to rect: Rect) { calls.append(.clip(rect)) }
    func setFillColor(_ color: Color) { calls.append(.fillColor(color)); fillColor = color }
    func fill(_ rect: Rect) {
        calls.append(.fill(rect))
        deviceFills.append((rect.offsetBy(dx: offset.x, dy: offset.y), fillColor))
    }
    func setStrokeColor(_ color: Color) { calls.append(.strokeColor(color)) }
    func setLineWidth(_ width: Double) { calls.append(.lineWidth(width)) }
    func setLineCap(_ cap: LineCap) { calls.append(.lineCap(cap)) }
    func setLineJoin(_ join: LineJoin) { calls.append(.lineJoin(join)) }
    func setAntialiasing(_ antialiasing: Antialiasing) {
        calls.append(.antialiasing(antialiasing))
        self.antialiasing = antialiasing
    }
    func scaleBy(x: Double, y: Double) { calls.append(.scale(x, y)) }
    func concatenate(_ transform: AffineTransform) { calls.append(.concat(transform)) }
    func move(to point: Point) { calls.append(.move(point)) }
    func addLine(to point: Point) { calls.append(.line(point)) }
    func strokePath() { calls.append(.stroke) }
    func fillPath() { calls.append(.fillPath) }
    func addEllipse(in rect: Rect) { calls.append(.ellipse(rect)) }
    func copy(_ bitmap: Bitmap, clippedTo rect: Rect) { calls.append(.copy(rect)) }
    func drawText(_ text: String, centeredIn rect: Rect, color: Color, fontSize: Double) {
        texts.append(text)
        fontSizes.append(fontSize)
    }
    /// Half an em per character.
    func measureText(_ text: String, fontSize: Double) -> Size {
        Size(width: Double(text.count) * fontSize / 2, height: fontSize)
    }
}
