import PropertyBased
import Testing
@testable import TouchKit

/// One step of a random gesture stream: fingers near each other, moving in small steps, with
/// time passing (timers fire), system cancels and recognizers switched off and on.
enum GestureStreamOp: Sendable, CustomStringConvertible {
    case down(Int32, Point, framed: Bool)
    case move(Int32, dx: Double, dy: Double, framed: Bool)
    case up(Int32, framed: Bool)
    case frame
    case cancel
    case wait(Double)
    case toggle(Int)

    var description: String {
        switch self {
        case .down(let id, let p, let f): "down(\(id), \(p)\(f ? ", frame" : ""))"
        case .move(let id, let dx, let dy, let f): "move(\(id), \(dx), \(dy)\(f ? ", frame" : ""))"
        case .up(let id, let f): "up(\(id)\(f ? ", frame" : ""))"
        case .frame: "frame"
        case .cancel: "cancel"
        case .wait(let s): "wait(\(s))"
        case .toggle(let i): "toggle(\(i))"
        }
    }
}

/// Streams of up to 150 steps over 5 fingers.
let gestureStreamGen = zip(Gen.int(in: 0...99), Gen.int(in: 0...4), Gen.int(in: -40...40),
                           Gen.int(in: -40...40), Gen.int(in: 0...399), Gen.int(in: 0...299))
    .map { kind, n, dx, dy, x, y -> GestureStreamOp in
        let id = Int32(n)
        let framed = (x + y) % 4 != 0
        switch kind {
        case 0..<16: return .down(id, Point(x: Double(x), y: Double(y)), framed: framed)
        case 16..<56: return .move(id, dx: Double(dx), dy: Double(dy), framed: framed)
        case 56..<72: return .up(id, framed: framed)
        case 72..<82: return .frame
        case 82..<84: return .cancel
        case 84..<96: return .wait(Double(x) / 400)
        default: return .toggle(x)
        }
    }
    .array(of: 0...150)

/// Follows each recognizer's transitions and actions: every transition is in the table (or is the
/// reset back to possible), each transition to began, changed, ended or cancelled is followed by
/// exactly one action, and no action comes without one (so none after failed).
final class RecognizerAuditor {
    private final class Entry {
        let name: String
        let recognizer: GestureRecognizer
        var last: GestureRecognizer.State = .possible
        var owed = false

        init(_ name: String, _ recognizer: GestureRecognizer) {
            self.name = name
            self.recognizer = recognizer
        }
    }

    /// G1's transitions, written out independently of TouchKit's table.
    static let legal: [(GestureRecognizer.State, GestureRecognizer.State)] = [
        (.possible, .began), (.possible, .ended), (.possible, .failed),
        (.began, .changed), (.began, .ended), (.began, .cancelled),
        (.changed, .changed), (.changed, .ended), (.changed, .cancelled),
    ]

    private var entries: [Entry] = []
    var problems: [String] = []
    var actionCount = 0

    func watch(_ recognizer: GestureRecognizer, _ name: String) {
        let entry = Entry(name, recognizer)
        entries.append(entry)
        recognizer.stateObserver = { [unowned self, unowned entry] old, new in
            if old != entry.last { problems.append("\(name): state changed behind the observer") }
            if entry.owed { problems.append("\(name): no action for \(old)") }
            if new == .possible {
                if ![.ended, .cancelled, .failed].contains(old) {
                    problems.append("\(name): reset from \(old)")
                }
            } else if !Self.legal.contains(where: { $0 == (old, new) }) {
                problems.append("\(name): illegal \(old) -> \(new)")
            }
            entry.last = new
            entry.owed = [.began, .changed, .ended, .cancelled].contains(new)
        }
        recognizer.addAnyHandler { [unowned self, unowned entry] r in
            actionCount += 1
            if !entry.owed {
                problems.append("\(name): action in \(r.state) after \(entry.last) without a transition")
            }
            if r.state != entry.last { problems.append("\(name): action shows \(r.state)") }
            entry.owed = false
        }
    }

    var recognizers: [GestureRecognizer] { entries.map(\.recognizer) }

    /// Problems with the final state: everything back to possible, nothing owed.
    func finalProblems(_ moment: String) -> [String] {
        entries.compactMap { e in
            if e.recognizer.state != .possible { return "\(e.name) \(moment): \(e.recognizer.state)" }
            if e.owed { return "\(e.name) \(moment): an action never came" }
            return nil
        }
    }
}

/// Lets pinch and rotation recognize together, and the pan with the long press (as the book's canvas does).
final class SimultaneousDelegate: GestureRecognizerDelegate {
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        true
    }
}

@Suite("Random gesture streams (property-based)")
struct GesturePropertyTests {
    /// Runs a stream on a scene full of recognizers and returns the problems found.
    func run(_ ops: [GestureStreamOp]) -> (problems: [String], actions: Int) {
        let lifecycle = LifecycleAuditor()
        lifecycle.allowsReplays = true
        let app = AuditedApplication(auditor: lifecycle)
        let clock = app.clock as! ManualClock
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let input = TouchInput(application: app, window: window)
        let audit = RecognizerAuditor()
        let delegate = SimultaneousDelegate()

        // A: the recognizers of the book's TouchTracker canvas.
        let a = AuditedView("A", frame: Rect(x: 0, y: 0, width: 200, height: 300), auditor: lifecycle)
        a.isMultipleTouchEnabled = true
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        double.delaysTouchesBegan = true
        let tap = TapGestureRecognizer()
        tap.delaysTouchesBegan = true
        tap.require(toFail: double)
        let press = LongPressGestureRecognizer()
        press.minimumPressDuration = 0.6
        let move = PanGestureRecognizer()
        move.cancelsTouchesInView = false
        move.delegate = delegate
        for (r, name) in [(double, "A.double"), (tap, "A.tap"), (press, "A.press"), (move, "A.move")] as
            [(GestureRecognizer, String)] {
            a.addGestureRecognizer(r)
            audit.watch(r, name)
        }

        // B: pinch and rotation together; a pan waiting for a swipe; a custom recognizer.
        let b = AuditedView("B", frame: Rect(x: 200, y: 0, width: 200, height: 150), auditor: lifecycle)
        b.isMultipleTouchEnabled = true
        let pinch = PinchGestureRecognizer()
        pinch.delegate = delegate
        let rotation = RotationGestureRecognizer()
        let swipe = SwipeGestureRecognizer()
        swipe.direction = [.left, .right]
        let pan = PanGestureRecognizer()
        pan.require(toFail: swipe)
        let stroke = DownStrokeRecognizer()
        stroke.delaysTouchesBegan = true
        stroke.delaysTouchesEnded = false
        for (r, name) in [(pinch, "B.pinch"), (rotation, "B.rotation"), (swipe, "B.swipe"), (pan, "B.pan"),
                          (stroke, "B.stroke")] as [(GestureRecognizer, String)] {
            b.addGestureRecognizer(r)
            audit.watch(r, name)
        }

        // C: a two-finger long press and a recognizer that never decides; its single-touch inner
        // view has a two-finger double tap that leaves the view its touches.
        let c = AuditedView("C", frame: Rect(x: 200, y: 150, width: 200, height: 150), auditor: lifecycle)
        c.isMultipleTouchEnabled = true
        let inner = AuditedView("C.inner", frame: Rect(x: 20, y: 20, width: 100, height: 100),
                                auditor: lifecycle)
        c.addSubview(inner)
        let twoFingerPress = LongPressGestureRecognizer()
        twoFingerPress.numberOfTouchesRequired = 2
        let silent = LoggingRecognizer()
        let innerTap = TapGestureRecognizer()
        innerTap.numberOfTapsRequired = 2
        innerTap.numberOfTouchesRequired = 2
        innerTap.cancelsTouchesInView = false
        innerTap.delaysTouchesEnded = false
        for (r, name, view) in [(twoFingerPress, "C.press", c as View), (silent, "C.silent", c),
                                (innerTap, "C.inner.tap", inner)] as [(GestureRecognizer, String, View)] {
            view.addGestureRecognizer(r)
            audit.watch(r, name)
        }

        // The window: a three-finger pan over everything.
        let windowPan = PanGestureRecognizer()
        windowPan.minimumNumberOfTouches = 3
        window.addGestureRecognizer(windowPan)
        audit.watch(windowPan, "window.pan")
        for v in [a, b, c] { window.addSubview(v) }

        var positions: [Int32: Point] = [:]
        let recognizers = audit.recognizers
        for op in ops {
            clock.advance(by: 0.01)
            let t = clock.now
            switch op {
            case .down(let id, let p, let framed):
                positions[id] = p
                input.down(.touch(id), at: p, time: t)
                if framed { input.frame() }
            case .move(let id, let dx, let dy, let framed):
                guard let p = positions[id] else { continue }
                let q = Point(x: min(410, max(-10, p.x + dx)), y: min(310, max(-10, p.y + dy)))
                positions[id] = q
                input.motion(.touch(id), at: q, time: t)
                if framed { input.frame() }
            case .up(let id, let framed):
                input.up(.touch(id), time: t)
                if framed { input.frame() }
            case .frame:
                input.frame()
            case .cancel:
                input.cancel()
            case .wait(let seconds):
                clock.advance(by: seconds)
            case .toggle(let i):
                let r = recognizers[i % recognizers.count]
                r.isEnabled.toggle()
            }
        }
        // The stream stops: what is pending is framed, then the compositor cancels the rest.
        input.frame()
        input.cancel()
        var problems = audit.finalProblems("once the touches are gone")
        clock.advance(by: 10)
        problems += audit.finalProblems("after the timers")
        if clock.nextDeadline != nil { problems.append("a timer is still pending") }
        if !window.gestureEnvironment.isIdle { problems.append("deliveries still held") }
        for touch in lifecycle.beganTouches {
            let count = lifecycle.terminalCount[ObjectIdentifier(touch), default: 0]
            if count != 1 { problems.append("a view got \(count) ends or cancels for one touch") }
        }
        return (audit.problems + problems + lifecycle.problems, audit.actionCount)
    }

    @Test("G1-G3, G5-G7: every recognizer ends in possible, no action after failed, each view touch ends once")
    func recognizersSettle() async {
        await propertyCheck(count: 300, input: gestureStreamGen) { ops in
            let (problems, _) = run(ops)
            #expect(problems.isEmpty, "\(problems.prefix(5)) for \(ops)")
        }
    }

    @Test("The random streams do exercise recognition")
    func streamsRecognize() async {
        var total = 0
        await propertyCheck(count: 50, input: gestureStreamGen) { ops in
            total += run(ops).actions
        }
        #expect(total > 50)
    }
}
