import Testing
@testable import TouchKit

@Suite("Responders (R)")
struct ResponderTests {
    @Test("R1: touch methods that are not overridden pass the call to next")
    func defaultForwards() {
        let h = Harness()
        let parent = h.addView("parent", Rect(x: 0, y: 0, width: 400, height: 300))
        let child = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))  // does not override
        parent.addSubview(child)
        h.tapDown(1, 10, 10, at: 1)
        h.lift(1, at: 1.1)
        #expect(h.log.summary == ["parent.began(1)", "parent.ended(1)"])
        #expect(h.log.entries[0].touches.first!.view === child, "the touch still belongs to the child")
    }

    @Test("R2: view → controller (root view) → superview → window → application → nil")
    func nextResponderChain() {
        let h = Harness()
        let controller = ViewController()
        h.window.rootViewController = controller
        let root = controller.view
        let inner = View()
        root.addSubview(inner)
        let leaf = View()
        inner.addSubview(leaf)
        #expect(leaf.next === inner)
        #expect(inner.next === root)
        #expect(root.next === controller)
        #expect(controller.next === h.window)
        #expect(h.window.next === h.app)
        #expect(h.app.next == nil)
        #expect(root.frame == h.window.bounds, "the root view fills the window")
    }

    @Test("R2: a view or a recognizer that outlives the view holding it has no superview and no view: next is nil, nothing reads a freed view")
    func outlivesItsSuperview() {
        let child = View()
        let recognizer = TapGestureRecognizer()
        weak var gone: View?
        do {
            let parent = View()
            parent.addSubview(child)
            parent.addGestureRecognizer(recognizer)
            #expect(child.next === parent && recognizer.view === parent)
            gone = parent
        }
        #expect(gone == nil)
        #expect(child.superview == nil && child.next == nil && child.window == nil)
        #expect(recognizer.view == nil)
    }

    @Test("R2: a window that outlives its application has none, and its responder chain ends with it")
    func windowOutlivesItsApplication() {
        let window = Window()
        weak var gone: Application?
        do {
            let app = Application(clock: ManualClock())
            app.addWindow(window)
            #expect(window.next === app && app.keyWindow === window)
            gone = app
        }
        #expect(gone == nil)
        #expect(window.application == nil && window.next == nil && !window.isKeyWindow)
    }

    @Test("R2: a controller whose view sits inside another view answers that superview")
    func nestedControllerNext() {
        let h = Harness()
        let container = h.addView("container", Rect(x: 0, y: 0, width: 400, height: 300))
        let child = ViewController()
        container.addSubview(child.view)
        #expect(child.view.next === child)
        #expect(child.next === container)
    }

    @Test("R3: an unhandled touch travels up the chain to the application and is dropped")
    func unhandledTravelsUp() {
        let h = Harness()
        let controller = RecordingViewController("controller", log: h.log)
        h.window.rootViewController = controller
        let leaf = RecordingView("leaf", frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log)
        leaf.forwards = true
        controller.view.addSubview(leaf)
        h.tapDown(1, 10, 10, at: 1)
        h.lift(1, at: 1.1)
        #expect(h.log.summary == [
            "leaf.began(1)", "controller.began(1)", "app.began(1)",
            "leaf.ended(1)", "controller.ended(1)", "app.ended(1)",
        ])
    }

    @Test("R3: a responder that handles a touch stops it")
    func handledStops() {
        let h = Harness()
        let controller = RecordingViewController("controller", log: h.log)
        h.window.rootViewController = controller
        let leaf = RecordingView("leaf", frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log)
        controller.view.addSubview(leaf)
        h.tap(1, 10, 10, at: 1)
        #expect(h.log.summary == ["leaf.began(1)", "leaf.ended(1)"])
    }
}
