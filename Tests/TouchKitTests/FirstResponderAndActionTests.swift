import Testing
@testable import TouchKit

/// A view that may become first responder and records actions it performs.
final class EditorView: View {
    var accepts = true
    var refusesToResign = false
    var performed: [Action] = []
    var supported: Set<Action> = []

    override var canBecomeFirstResponder: Bool { accepts }
    override var canResignFirstResponder: Bool { !refusesToResign }

    override func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        supported.contains(action) || super.canPerformAction(action, withSender: sender)
    }

    override func perform(_ action: Action, sender: Any?, event: Event?) {
        if supported.contains(action) { performed.append(action) } else { super.perform(action, sender: sender, event: event) }
    }
}

extension Action {
    static let clearAll: Action = "clearAll"
    static let chooseColor: Action = "chooseColor"
}

@Suite("First responder and actions (R4, R5)")
struct FirstResponderAndActionTests {
    @Test("R4: becomeFirstResponder needs canBecomeFirstResponder and a window")
    func becoming() {
        let h = Harness()
        let editor = EditorView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(!editor.becomeFirstResponder(), "not in a window")
        h.window.addSubview(editor)
        editor.accepts = false
        #expect(!editor.becomeFirstResponder())
        #expect(h.window.firstResponder == nil)
        editor.accepts = true
        #expect(editor.becomeFirstResponder())
        #expect(editor.isFirstResponder)
        #expect(h.window.firstResponder === editor)
        #expect(!View().canBecomeFirstResponder, "plain views decline")
    }

    @Test("R4: one first responder per window; the old one resigns")
    func onePerWindow() {
        let h = Harness()
        let a = EditorView(), b = EditorView()
        h.window.addSubview(a)
        h.window.addSubview(b)
        #expect(a.becomeFirstResponder())
        #expect(b.becomeFirstResponder())
        #expect(!a.isFirstResponder && b.isFirstResponder)
        let other = Harness()
        let c = EditorView()
        other.window.addSubview(c)
        #expect(c.becomeFirstResponder())
        #expect(b.isFirstResponder, "each window has its own")
    }

    @Test("R4: a responder that refuses to resign keeps the role")
    func refusingToResign() {
        let h = Harness()
        let a = EditorView(), b = EditorView()
        h.window.addSubview(a)
        h.window.addSubview(b)
        a.becomeFirstResponder()
        a.refusesToResign = true
        #expect(!b.becomeFirstResponder())
        #expect(!a.resignFirstResponder())
        #expect(a.isFirstResponder)
        a.refusesToResign = false
        #expect(a.resignFirstResponder())
        #expect(h.window.firstResponder == nil)
    }

    @Test("R4: removing the first responder from the window clears it")
    func removalClears() {
        let h = Harness()
        let container = View()
        let a = EditorView()
        container.addSubview(a)
        h.window.addSubview(container)
        a.becomeFirstResponder()
        container.removeFromSuperview()
        #expect(h.window.firstResponder == nil)
        #expect(!a.isFirstResponder)
    }

    @Test("R4: a view controller can be first responder through its view's window")
    func controllerFirstResponder() {
        final class EditingController: ViewController {
            override var canBecomeFirstResponder: Bool { true }
        }
        let h = Harness()
        let controller = EditingController()
        #expect(!controller.becomeFirstResponder())
        h.window.rootViewController = controller
        #expect(controller.becomeFirstResponder())
        #expect(h.window.firstResponder === controller)
    }

    @Test("R5: a nil target goes to the first responder, then up the chain")
    func nilTargetUsesChain() {
        let h = Harness()
        let controller = ViewController()
        h.window.rootViewController = controller
        let editor = EditorView()
        controller.view.addSubview(editor)
        editor.becomeFirstResponder()
        var controllerGot: [Action] = []
        controller.addActionHandler(.clearAll) { _, _ in controllerGot.append(.clearAll) }
        editor.supported = [.delete]
        #expect(h.app.sendAction(.delete, to: nil, from: nil, for: nil))
        #expect(h.app.sendAction(.clearAll, to: nil, from: nil, for: nil))
        #expect(!h.app.sendAction(.paste, to: nil, from: nil, for: nil), "nobody can: dropped")
        #expect(editor.performed == [.delete])
        #expect(controllerGot == [.clearAll])
    }

    @Test("R5: canPerformAction decides who takes the action")
    func canPerformDecides() {
        let h = Harness()
        let outer = EditorView(), inner = EditorView()
        h.window.addSubview(outer)
        outer.addSubview(inner)
        inner.becomeFirstResponder()
        outer.supported = [.copy]
        #expect(inner.target(forAction: .copy, withSender: nil) === outer)
        h.app.sendAction(.copy, to: nil, from: nil, for: nil)
        inner.supported = [.copy]
        #expect(inner.target(forAction: .copy, withSender: nil) === inner)
        h.app.sendAction(.copy, to: nil, from: nil, for: nil)
        #expect(outer.performed == [.copy])
        #expect(inner.performed == [.copy])
    }

    @Test("R5: an explicit target gets the action directly, with sender and event")
    func explicitTarget() {
        final class Model: ActionTarget {
            var got: [(Action, Any?)] = []
            func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool { true }
            func perform(_ action: Action, sender: Any?, event: Event?) { got.append((action, sender)) }
        }
        let h = Harness()
        let model = Model()
        let sender = View()
        #expect(h.app.sendAction(.undo, to: model, from: sender, for: nil))
        #expect(model.got.count == 1)
        #expect(model.got[0].0 == .undo)
        #expect((model.got[0].1 as? View) === sender)
    }

    @Test("R5: with no first responder, a nil-targeted action starts at the sender")
    func noFirstResponderStartsAtSender() {
        let h = Harness()
        let controller = ViewController()
        h.window.rootViewController = controller
        let button = Button(title: "Undo", frame: Rect(x: 0, y: 0, width: 50, height: 30))
        controller.view.addSubview(button)
        var got = 0
        controller.addActionHandler(.undo) { _, _ in got += 1 }
        h.app.sendAction(.undo, to: nil, from: button, for: nil)
        #expect(got == 1)
    }
}
