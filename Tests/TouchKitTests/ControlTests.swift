import Testing
@testable import TouchKit

/// Records the actions it receives, with the sender.
final class ActionRecorder: Responder {
    var received: [Action] = []
    var senders: [AnyObject?] = []
    let accepted: Set<Action>

    init(_ accepted: Set<Action>) {
        self.accepted = accepted
    }

    override func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        accepted.contains(action)
    }

    override func perform(_ action: Action, sender: Any?, event: Event?) {
        received.append(action)
        senders.append(sender as AnyObject?)
    }
}

/// A control that logs its tracking calls and sends valueChanged when a touch ends inside.
final class TrackingControl: Control {
    var calls: [String] = []
    var stopAfterMoves = Int.max
    private var moves = 0
    var value = 0

    override func beginTracking(_ touch: Touch, with event: Event?) -> Bool {
        calls.append("begin")
        return true
    }

    override func continueTracking(_ touch: Touch, with event: Event?) -> Bool {
        calls.append("continue")
        moves += 1
        return moves < stopAfterMoves
    }

    override func endTracking(_ touch: Touch?, with event: Event?) {
        calls.append("end")
        if isTouchInside {
            value += 1
            sendActions(for: .valueChanged)
        }
    }

    override func cancelTracking(with event: Event?) {
        calls.append("cancel")
    }
}

extension Action {
    static let pressed: Action = "pressed"
    static let down: Action = "down"
    static let outside: Action = "outside"
    static let changed: Action = "changed"
}

@Suite("Controls (C)")
struct ControlTests {
    func makeButton(_ h: Harness) -> (Button, ActionRecorder) {
        let button = Button(title: "OK", frame: Rect(x: 100, y: 100, width: 80, height: 40))
        h.window.addSubview(button)
        let recorder = ActionRecorder([.pressed, .down, .outside, .changed])
        button.addTarget(recorder, action: .down, for: .touchDown)
        button.addTarget(recorder, action: .pressed, for: .touchUpInside)
        button.addTarget(recorder, action: .outside, for: .touchUpOutside)
        return (button, recorder)
    }

    @Test("C1: touchDown then touchUpInside for a tap inside, sender is the control")
    func tapInside() {
        let h = Harness()
        let (button, recorder) = makeButton(h)
        h.tapDown(1, 120, 110, at: 1)
        #expect(recorder.received == [.down])
        #expect(button.isHighlighted && button.isTouchInside)
        h.lift(1, at: 1.1)
        #expect(recorder.received == [.down, .pressed])
        #expect(recorder.senders.allSatisfy { $0 === button })
        #expect(!button.isHighlighted)
    }

    @Test("C1: lifting outside sends touchUpOutside; dragging back inside still counts inside")
    func upOutside() {
        let h = Harness()
        let (button, recorder) = makeButton(h)
        h.tapDown(1, 120, 110, at: 1)
        h.move(1, 300, 250, at: 1.1)
        #expect(!button.isHighlighted && !button.isTouchInside)
        h.lift(1, at: 1.2)
        #expect(recorder.received == [.down, .outside])
        recorder.received.removeAll()
        h.tapDown(1, 120, 110, at: 2)
        h.move(1, 300, 250, at: 2.1)
        h.move(1, 130, 120, at: 2.2)
        h.lift(1, at: 2.3)
        #expect(recorder.received == [.down, .pressed])
    }

    @Test("C1: drag enter/exit and touchDownRepeat")
    func dragEvents() {
        let h = Harness()
        let button = Button(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        h.window.addSubview(button)
        var seen: [String] = []
        button.addHandler(for: .touchDragExit) { _, _ in seen.append("exit") }
        button.addHandler(for: .touchDragEnter) { _, _ in seen.append("enter") }
        button.addHandler(for: .touchDownRepeat) { _, _ in seen.append("repeat") }
        h.tapDown(1, 10, 10, at: 1)
        h.move(1, 100, 10, at: 1.1)
        h.move(1, 10, 10, at: 1.2)
        h.lift(1, at: 1.25)
        h.tap(1, 10, 10, at: 1.3)
        #expect(seen == ["exit", "enter", "repeat"])
    }

    @Test("C1: valueChanged from a subclass; sendActions(for:) directly")
    func valueChanged() {
        let h = Harness()
        let control = TrackingControl(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        h.window.addSubview(control)
        let recorder = ActionRecorder([.changed])
        control.addTarget(recorder, action: .changed, for: .valueChanged)
        h.tap(1, 10, 10, at: 1)
        #expect(recorder.received == [.changed])
        #expect(control.value == 1)
        control.sendActions(for: .valueChanged)
        #expect(recorder.received == [.changed, .changed])
        control.sendActions(for: .touchUpInside)
        #expect(recorder.received.count == 2, "no target for that event")
    }

    @Test("C1: a nil target goes through the first responder chain")
    func nilTarget() {
        let h = Harness()
        let controller = ViewController()
        h.window.rootViewController = controller
        let editor = EditorView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        controller.view.addSubview(editor)
        let button = Button(title: "Delete", frame: Rect(x: 100, y: 100, width: 80, height: 40))
        controller.view.addSubview(button)
        button.addTarget(nil, action: .delete, for: .touchUpInside)
        var controllerDeleted = 0
        controller.addActionHandler(.delete) { _, _ in controllerDeleted += 1 }
        h.tap(1, 120, 110, at: 1)
        #expect(controllerDeleted == 1, "no first responder: from the sender up to the controller")
        editor.supported = [.delete]
        editor.becomeFirstResponder()
        h.tap(1, 120, 110, at: 5)
        #expect(editor.performed == [.delete])
        #expect(controllerDeleted == 1)
    }

    @Test("C1: targets are weak; removeTarget stops actions")
    func targetLifetime() {
        let h = Harness()
        let button = Button(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        h.window.addSubview(button)
        var recorder: ActionRecorder? = ActionRecorder([.pressed])
        weak let weakRecorder = recorder
        button.addTarget(recorder, action: .pressed, for: .touchUpInside)
        #expect(button.actions(forTarget: recorder, forEvents: .touchUpInside) == [.pressed])
        recorder = nil
        #expect(weakRecorder == nil)
        h.tap(1, 10, 10, at: 1)  // must not crash or resurrect
        let kept = ActionRecorder([.pressed])
        button.addTarget(kept, action: .pressed, for: [.touchUpInside, .touchDown])
        button.removeTarget(kept, action: .pressed, for: .touchUpInside)
        h.tap(1, 10, 10, at: 2)
        #expect(kept.received == [.pressed], "only touchDown is left")
    }

    @Test("C2: beginTracking, continueTracking, endTracking in order")
    func trackingOrder() {
        let h = Harness()
        let control = TrackingControl(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        h.window.addSubview(control)
        h.tapDown(1, 10, 10, at: 1)
        #expect(control.isTracking)
        h.move(1, 20, 10, at: 1.1)
        h.move(1, 30, 10, at: 1.2)
        h.lift(1, at: 1.3)
        #expect(control.calls == ["begin", "continue", "continue", "end"])
        #expect(!control.isTracking)
    }

    @Test("C2: continueTracking returning false stops tracking calls")
    func stopTracking() {
        let h = Harness()
        let control = TrackingControl(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        control.stopAfterMoves = 1
        h.window.addSubview(control)
        h.tapDown(1, 10, 10, at: 1)
        h.move(1, 20, 10, at: 1.1)
        #expect(!control.isTracking)
        h.move(1, 30, 10, at: 1.2)
        h.lift(1, at: 1.3)
        #expect(control.calls == ["begin", "continue"])
    }

    @Test("C2: a cancelled touch calls cancelTracking and sends touchCancel")
    func cancelTracking() {
        let h = Harness()
        let control = TrackingControl(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        h.window.addSubview(control)
        var cancels = 0
        control.addHandler(for: .touchCancel) { _, _ in cancels += 1 }
        h.tapDown(1, 10, 10, at: 1)
        h.input.cancel()
        #expect(control.calls == ["begin", "cancel"])
        #expect(cancels == 1)
        #expect(!control.isHighlighted && !control.isTracking)
    }

    @Test("A disabled control gets no touches; they go to the view behind")
    func disabledControl() {
        let h = Harness()
        h.addView("behind", Rect(x: 0, y: 0, width: 400, height: 300))
        let (button, recorder) = makeButton(h)
        button.isEnabled = false
        #expect(button.state == .disabled)
        h.tap(1, 120, 110, at: 1)
        #expect(recorder.received.isEmpty)
        #expect(h.log.summary == ["behind.began(1)", "behind.ended(1)"])
    }

    @Test("A control tracks only its first touch")
    func firstTouchOnly() {
        let h = Harness()
        let control = TrackingControl(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        control.isMultipleTouchEnabled = true
        h.window.addSubview(control)
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 50, 50, at: 1.1)
        h.lift(2, at: 1.2)
        h.lift(1, at: 1.3)
        #expect(control.calls == ["begin", "end"])
    }

    @Test("Button draws a rounded body in its tint, darker while highlighted, and its title when it can")
    func buttonDrawing() {
        let h = Harness()
        let button = Button(title: "Undo", tintColor: .red, frame: Rect(x: 10, y: 10, width: 60, height: 30))
        h.window.addSubview(button)
        let plain = RecordingContext()
        h.window.render(h.window.bounds, in: plain)
        #expect(plain.calls.contains(.fillColor(.red)))
        #expect(plain.calls.contains(.fillPath))
        let points = plain.calls.compactMap { call -> Point? in
            switch call {
            case .move(let p), .line(let p): p
            default: nil
            }
        }
        #expect(points.allSatisfy { Rect(x: -0.001, y: -0.001, width: 60.002, height: 30.002).contains($0) })
        let text = RecordingContext()
        h.window.render(h.window.bounds, in: text)
        #expect(text.texts == ["Undo"])
        #expect(text.fontSizes == [15], "a title that fits keeps its size")
        h.tapDown(1, 20, 20, at: 1)
        #expect(button.currentFillColor != .red)
        _ = h.window.takeDirtyRegion().bounds
        button.title = "Redo"
        #expect(h.window.takeDirtyRegion().bounds == Rect(x: 10, y: 10, width: 60, height: 30))
    }

    @Test("C3: a title too wide for its button shrinks to fit, but not below its minimum scale")
    func buttonTitleShrinksToFit() {
        // 60 points wide, 52 of them for the title.
        let button = Button(title: "Undo", tintColor: .red, frame: Rect(x: 0, y: 0, width: 60, height: 30))
        button.fontSize = 15
        #expect(button.titleFontSize(in: RecordingContext()) == 15)
        button.title = "Rückgäng"  // 60 points at 15
        #expect(abs(button.titleFontSize(in: RecordingContext()) - 13) < 0.001)
        button.title = "Wiederholen und mehr"
        #expect(button.titleFontSize(in: RecordingContext()) == 15 * button.minimumScaleFactor)
    }
}
