import Testing
@testable import TouchKit

/// A view that draws two squares inside itself and shows them to tools as elements.
private final class TwoSquares: View {
    lazy var squares: [AccessibilityElement] = (0..<2).map { i in
        let e = AccessibilityElement(accessibilityContainer: self)
        e.accessibilityLabel = "square \(i + 1)"
        e.accessibilityFrameInContainerSpace = Rect(x: Double(i) * 20, y: 0, width: 10, height: 10)
        return e
    }

    override var accessibilityElements: [Accessible]? {
        get { squares }
        set {}
    }
}

/// An element whose main action is counted.
private final class CountingElement: AccessibilityElement {
    var activations = 0
    override func accessibilityActivate() -> Bool {
        activations += 1
        return true
    }
}

@Suite("Accessibility: what assistive tools see (E1-E7)")
struct AccessibilityTests {
    @Test("E1: a button is an element with the button trait, named by its title")
    func buttonDefaults() {
        let button = Button(title: "Undo")
        #expect(button.isAccessibilityElement)
        #expect(button.accessibilityTraits == .button)
        #expect(button.accessibilityLabel == "Undo")
        button.accessibilityLabel = "Undo the last line"
        #expect(button.accessibilityLabel == "Undo the last line")
        #expect(!View().isAccessibilityElement)
        #expect(View().accessibilityLabel == nil)
    }

    @Test("E1: a button showing an icon alone is still named, by its title or else its icon")
    func iconButtonsHaveNames() {
        let icon = Icon(names: ["edit-undo-symbolic", "edit-undo"], fallback: "")
        let titled = Button(title: "Undo")
        titled.icon = icon
        titled.showsIconAlone = true
        #expect(titled.accessibilityLabel == "Undo")
        let bare = Button(title: "")
        bare.icon = icon
        #expect(bare.accessibilityLabel == "edit undo")
    }

    @Test("E3: a selected control reports selected, a disabled one notEnabled, as its state changes")
    func stateTraits() {
        let button = Button(title: "Line")
        button.isSelected = true
        #expect(button.accessibilityTraits == [.button, .selected])
        button.isSelected = false
        button.isEnabled = false
        #expect(button.accessibilityTraits == [.button, .notEnabled])
        button.accessibilityTraits = [.button, .toggleButton]
        #expect(button.accessibilityTraits == [.button, .toggleButton, .notEnabled])
    }

    @Test("E2: the tree skips plain views, hides an element's subviews and hidden views, and shows elements drawn inside a view")
    func tree() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let bar = View(frame: Rect(x: 0, y: 250, width: 400, height: 50))
        let undo = Button(title: "Undo", frame: Rect(x: 10, y: 5, width: 44, height: 44))
        let inner = View(frame: Rect(x: 2, y: 2, width: 10, height: 10))
        inner.isAccessibilityElement = true
        undo.addSubview(inner)
        let hidden = Button(title: "Hidden")
        hidden.isHidden = true
        let quiet = Button(title: "Quiet")
        quiet.accessibilityElementsHidden = true
        bar.addSubview(undo)
        bar.addSubview(hidden)
        bar.addSubview(quiet)
        let canvas = TwoSquares(frame: Rect(x: 0, y: 0, width: 400, height: 250))
        canvas.accessibilityLabel = "Drawing"
        window.addSubview(canvas)
        window.addSubview(bar)

        let children = window.accessibilityChildren
        #expect(children.count == 2)
        #expect(children[0] === canvas)
        #expect(children[1] === undo, "the unlabelled bar is passed through")
        #expect(undo.accessibilityChildren.isEmpty, "an element hides its subviews")
        #expect(canvas.accessibilityChildren.map(\.accessibilityLabel) == ["square 1", "square 2"])
        #expect(undo.accessibilityParent === window)
        #expect(canvas.squares[1].accessibilityParent === canvas)
        #expect(window.indexOfAccessibilityChild(undo) == 1)
        bar.accessibilityLabel = "Toolbar"
        #expect(window.accessibilityChildren[1] === bar, "a labelled view is a container")
        #expect(undo.accessibilityParent === bar)
    }

    @Test("E4: frames are in window coordinates; an element's frame follows its container")
    func frames() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let bar = View(frame: Rect(x: 0, y: 250, width: 400, height: 50))
        let undo = Button(title: "Undo", frame: Rect(x: 10, y: 5, width: 44, height: 44))
        bar.addSubview(undo)
        window.addSubview(bar)
        #expect(undo.accessibilityFrame == Rect(x: 10, y: 255, width: 44, height: 44))
        let canvas = TwoSquares(frame: Rect(x: 30, y: 40, width: 100, height: 100))
        window.addSubview(canvas)
        #expect(canvas.squares[1].accessibilityFrame == Rect(x: 50, y: 40, width: 10, height: 10))
        canvas.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(canvas.squares[1].accessibilityFrame == Rect(x: 20, y: 0, width: 10, height: 10))
        undo.accessibilityFrame = Rect(x: 1, y: 2, width: 3, height: 4)
        #expect(undo.accessibilityFrame == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test("E5: activating a control sends its tap's actions; a disabled control and a plain view do nothing")
    func activation() {
        let button = Button(title: "Undo")
        var taps = 0
        button.addHandler(for: .touchUpInside) { _, _ in taps += 1 }
        var primary = 0
        button.addHandler(for: .primaryActionTriggered) { _, _ in primary += 1 }
        #expect(button.accessibilityActivate())
        #expect(taps == 1 && primary == 1)
        button.isEnabled = false
        #expect(!button.accessibilityActivate())
        #expect(taps == 1)
        #expect(!View().accessibilityActivate())
        let element = CountingElement(accessibilityContainer: View())
        #expect(element.accessibilityActivate() && element.activations == 1)
    }

    @Test("E6: custom actions carry a name and report whether they could be done")
    func customActions() {
        var deleted = 0
        let delete = AccessibilityCustomAction(name: "Delete") { _ in
            deleted += 1
            return deleted == 1
        }
        let element = AccessibilityElement(accessibilityContainer: View())
        element.accessibilityCustomActions = [delete]
        #expect(element.accessibilityCustomActions.map(\.name) == ["Delete"])
        #expect(delete.perform())
        #expect(!delete.perform())
        #expect(deleted == 2)
    }

    @Test("E7: notifications reach the window's handler; outside a window nothing is posted")
    func notifications() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let view = View()
        var heard: [String] = []
        window.accessibilityNotificationHandler = { notification in
            switch notification {
            case .layoutChanged(let focus): heard.append("layout \(focus === view)")
            case .screenChanged(let focus): heard.append("screen \(focus == nil)")
            case .announcement(let words): heard.append(words)
            }
        }
        view.postAccessibilityNotification(.announcement("not in a window"))
        window.addSubview(view)
        view.postAccessibilityNotification(.layoutChanged(focus: view))
        view.postAccessibilityNotification(.screenChanged(focus: nil))
        view.postAccessibilityNotification(.announcement("Saved"))
        #expect(heard == ["layout true", "screen true", "Saved"])
    }
}
