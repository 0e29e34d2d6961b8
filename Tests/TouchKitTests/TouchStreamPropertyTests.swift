import PropertyBased
import Testing
@testable import TouchKit

/// One step of a random input stream.
enum StreamOp: Sendable, CustomStringConvertible {
    case down(TouchInput.ID, Point)
    case motion(TouchInput.ID, Point)
    case up(TouchInput.ID)
    case frame
    case cancel(TouchInput.Source)
    case beginIgnoring
    case endIgnoring
    /// Takes view B out of the window, or puts it back.
    case toggleViewB

    var description: String {
        switch self {
        case .down(let id, let p): "down(\(id), \(p))"
        case .motion(let id, let p): "motion(\(id), \(p))"
        case .up(let id): "up(\(id))"
        case .frame: "frame"
        case .cancel(let s): "cancel(\(s))"
        case .beginIgnoring: "beginIgnoring"
        case .endIgnoring: "endIgnoring"
        case .toggleViewB: "toggleViewB"
        }
    }
}

/// Streams of up to 200 steps over 20 touchscreen fingers plus a pointer and a pen, with reused
/// ids, ups without downs, motion for unknown ids, cancels and empty frames at any time.
let streamGen = zip(Gen.int(in: 0...99), Gen.int(in: 0...21), Gen.int(in: -20...420),
                    Gen.int(in: -20...320))
    .map { kind, n, x, y -> StreamOp in
        let id: TouchInput.ID = switch n {
        case 20: TouchInput.ID(source: .pointer, number: 0)
        case 21: TouchInput.ID(source: .tablet, number: 3)
        default: .touch(Int32(n))
        }
        let p = Point(x: Double(x), y: Double(y))
        switch kind {
        case 0..<24: return .down(id, p)
        case 24..<54: return .motion(id, p)
        case 54..<74: return .up(id)
        case 74..<91: return .frame
        case 91..<95: return .cancel(id.source)
        case 95..<97: return .beginIgnoring
        case 97..<99: return .endIgnoring
        default: return .toggleViewB
        }
    }
    .array(of: 0...200)

/// One delivery of an event: the object and its delivery count (T12).
struct EventMark: Equatable {
    let event: ObjectIdentifier
    let number: Int

    init(_ event: Event) {
        self.event = ObjectIdentifier(event)
        number = event.deliveryNumber
    }
}

/// Checks every delivery against the touch lifecycle as it happens.
final class LifecycleAuditor {
    enum Stage { case began, ended }
    var stages: [ObjectIdentifier: Stage] = [:]
    var terminalCount: [ObjectIdentifier: Int] = [:]
    var beganTouches: [Touch] = []
    var problems: [String] = []
    /// Touch -> the delivery it last came in: the event object and which of its deliveries, since
    /// one event carries a whole sequence (T12).
    var deliveredInEvent: [ObjectIdentifier: EventMark] = [:]
    var lastMethod: [ObjectIdentifier: Delivery.Method] = [:]
    /// With recognizers holding touches (G6, G7), a delivery may replay a touch's held began,
    /// then its catch-up move or end: one touch in several methods, each once.
    var allowsReplays = false
    /// Keeps events and touches alive so that their identifiers are never reused (an event
    /// object is refilled for each delivery of a sequence, T12, so it does not keep its touches).
    var retained: [Event] = []
    var retainedTouches: [Touch] = []

    func record(_ receiver: String, _ method: Delivery.Method, _ touches: Set<Touch>, _ event: Event,
                expectedView: View?) {
        if touches.isEmpty { problems.append("\(receiver): empty set for \(method)") }
        if retained.last !== event { retained.append(event) }
        for touch in touches {
            let id = ObjectIdentifier(touch)
            if deliveredInEvent[id] == EventMark(event), !allowsReplays || lastMethod[id] == method {
                problems.append("\(receiver): touch delivered twice in one event")
            }
            deliveredInEvent[id] = EventMark(event)
            lastMethod[id] = method
            if let expectedView, touch.view !== expectedView {
                problems.append("\(receiver): got a touch of another view")
            }
            let phaseMatches: Bool = switch method {
            case .began: touch.phase == .began
            case .moved: touch.phase == .moved
            case .ended: touch.phase == .ended
            case .cancelled: touch.phase == .cancelled
            }
            if !phaseMatches { problems.append("\(receiver): \(method) with phase \(touch.phase)") }
            switch (stages[id], method) {
            case (nil, .began):
                stages[id] = .began
                beganTouches.append(touch)
            case (.began?, .moved):
                break
            case (.began?, .ended), (.began?, .cancelled):
                stages[id] = .ended
                terminalCount[id, default: 0] += 1
            default:
                problems.append("\(receiver): \(method) after \(String(describing: stages[id]))")
            }
        }
    }
}

final class AuditedView: View {
    let name: String
    let auditor: LifecycleAuditor

    init(_ name: String, frame: Rect, auditor: LifecycleAuditor) {
        self.name = name
        self.auditor = auditor
        super.init(frame: frame)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        auditor.record(name, .began, touches, event, expectedView: self)
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        auditor.record(name, .moved, touches, event, expectedView: self)
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        auditor.record(name, .ended, touches, event, expectedView: self)
    }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        auditor.record(name, .cancelled, touches, event, expectedView: self)
    }
}

/// The end of the chain: receives the touches that landed on the window itself.
final class AuditedApplication: Application {
    let auditor: LifecycleAuditor
    /// Runs after each event was delivered, while the touches still have that event's phases.
    var afterEvent: ((Event) -> Void)?

    init(auditor: LifecycleAuditor) {
        self.auditor = auditor
        super.init(clock: ManualClock())
    }

    override func sendEvent(_ event: Event) {
        auditor.retained.append(event)
        auditor.retainedTouches.append(contentsOf: event.allTouchesInOrder)
        super.sendEvent(event)
        afterEvent?(event)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        auditor.record("window", .began, touches, event, expectedView: nil)
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        auditor.record("window", .moved, touches, event, expectedView: nil)
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        auditor.record("window", .ended, touches, event, expectedView: nil)
    }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        auditor.record("window", .cancelled, touches, event, expectedView: nil)
    }
}

@Suite("Random touch streams (property-based)")
struct TouchStreamPropertyTests {
    /// Runs a stream and returns the problems found; an empty list means every property held.
    func run(_ ops: [StreamOp]) -> [String] {
        let auditor = LifecycleAuditor()
        let app = AuditedApplication(auditor: auditor)
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let input = TouchInput(application: app, window: window)
        // A: multi-touch; B: single-touch (H4), sometimes removed (T7); C: exclusive (H5).
        let a = AuditedView("A", frame: Rect(x: 0, y: 0, width: 200, height: 300), auditor: auditor)
        a.isMultipleTouchEnabled = true
        let b = AuditedView("B", frame: Rect(x: 200, y: 0, width: 200, height: 150), auditor: auditor)
        let c = AuditedView("C", frame: Rect(x: 200, y: 150, width: 150, height: 150), auditor: auditor)
        c.isExclusiveTouch = true
        c.isMultipleTouchEnabled = true
        let inner = AuditedView("A.inner", frame: Rect(x: 20, y: 20, width: 100, height: 100),
                                auditor: auditor)
        a.addSubview(inner)
        for v in [a, b, c] { window.addSubview(v) }

        var problems: [String] = []
        var time = 0.0
        var down: Set<TouchInput.ID> = []  // the model: ids that are down after the last frame
        var pendingUps: Set<TouchInput.ID> = []
        var seenEnded: Set<ObjectIdentifier> = []

        app.afterEvent = { event in
            for touch in event.allTouches {
                let id = ObjectIdentifier(touch)
                if seenEnded.contains(id) { problems.append("an ended touch came back") }
                if touch.phase == .ended || touch.phase == .cancelled { seenEnded.insert(id) }
            }
            if !app.isIgnoringInteractionEvents {
                // Every changed touch with a view that may take it (H4, H5) reached exactly one
                // touch method.
                for touch in event.allTouches where touch.phase != .stationary && touch.view != nil && touch.deliversToView {
                    if auditor.deliveredInEvent[ObjectIdentifier(touch)] != EventMark(event) {
                        problems.append("a changed touch (\(touch.phase)) was not delivered")
                    }
                }
            }
            if event.allTouches.isEmpty { problems.append("an empty event") }
            if !event.allTouches.contains(where: { $0.phase != .stationary }) {
                problems.append("an event without changes")
            }
            if event.allTouches.count > 22 { problems.append("more touches than fingers") }
        }

        func checkModel() {
            let active = input.activeTouches
            if active.count != down.count {
                problems.append("\(active.count) active touches, model has \(down.count)")
            }
            for id in down where input.touch(for: id) == nil { problems.append("\(id) lost") }
            if active.contains(where: { $0.phase == .ended || $0.phase == .cancelled }) {
                problems.append("an ended touch is still active")
            }
        }

        for op in ops {
            time += 0.01
            switch op {
            case .down(let id, let p):
                if down.contains(id) || pendingUps.contains(id) {
                    // The adapter ends the old touch and flushes the whole pending frame first.
                    down.subtract(pendingUps)
                    pendingUps.removeAll()
                }
                input.down(id, at: p, time: time)
                down.insert(id)
                pendingUps.remove(id)
            case .motion(let id, let p):
                input.motion(id, at: p, time: time)
            case .up(let id):
                input.up(id, time: time)
                if down.contains(id) { pendingUps.insert(id) }
            case .frame:
                input.frame()
                down.subtract(pendingUps)
                pendingUps.removeAll()
                checkModel()
            case .cancel(let source):
                input.cancel(source: source)
                down = down.filter { $0.source != source }
                pendingUps = pendingUps.filter { $0.source != source }
                for n in 0..<22 {
                    let id = n == 20 ? TouchInput.ID(source: .pointer, number: 0)
                        : n == 21 ? TouchInput.ID(source: .tablet, number: 3) : .touch(Int32(n))
                    if id.source == source, input.touch(for: id) != nil {
                        problems.append("a cancelled touch is still active")
                    }
                }
            case .beginIgnoring:
                app.beginIgnoringInteractionEvents()
            case .endIgnoring:
                app.endIgnoringInteractionEvents()
            case .toggleViewB:
                if b.superview == nil { window.addSubview(b) } else { b.removeFromSuperview() }
            }
        }
        // The stream stops: frame what is left, then the compositor cancels everything.
        input.frame()
        down.subtract(pendingUps)
        checkModel()
        for source in [TouchInput.Source.touchscreen, .pointer, .tablet] { input.cancel(source: source) }
        if !input.activeTouches.isEmpty { problems.append("touches active after cancelling all") }
        if input.hasPendingChanges { problems.append("changes pending after cancelling all") }
        for touch in auditor.beganTouches {
            let count = auditor.terminalCount[ObjectIdentifier(touch), default: 0]
            if count != 1 { problems.append("a began touch ended \(count) times") }
        }
        return problems + auditor.problems
    }

    @Test("T1/T3/T9: every began touch ends or cancels exactly once; nothing stays active")
    func lifecycleHolds() async {
        await propertyCheck(count: 300, input: streamGen) { ops in
            let problems = run(ops)
            #expect(problems.isEmpty, "\(problems.prefix(5)) for \(ops)")
        }
    }

    @Test("Streams without frames are flushed by the final frame and cancel")
    func framelessStreams() async {
        await propertyCheck(count: 100, input: streamGen) { ops in
            let unframed = ops.filter { if case .frame = $0 { false } else { true } }
            #expect(run(unframed).isEmpty)
        }
    }
}
