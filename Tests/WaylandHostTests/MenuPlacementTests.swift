// Where the edit menu and the overflow menu go: inside the window whatever the compositor does
// (Weston 10 slides no popup back onto the screen).
import Testing
import TouchKit
@testable import WaylandHost

@Suite("Menu placement")
struct MenuPlacementTests {
    let window = Rect(x: 0, y: 0, width: 360, height: 720)
    let menu = Size(width: 164, height: 44)

    @Test("Centred above what it points at when there is room")
    func centred() {
        let place = PopupMenu.placement(size: menu, pointingAt: Rect(x: 180, y: 300, width: 2, height: 2), in: window)
        #expect(place.above && place.dx == 0)
    }

    @Test("Moved inside at the right and left edges, 6 pt from them; flush in a window too narrow for that; below when there is no room above")
    func edges() {
        let right = PopupMenu.placement(size: menu, pointingAt: Rect(x: 350, y: 300, width: 2, height: 2), in: window)
        #expect(right.dx == 360 - 6 - 164 - (351 - 82))
        let left = PopupMenu.placement(size: menu, pointingAt: Rect(x: 4, y: 300, width: 2, height: 2), in: window)
        #expect(left.dx == 6 - (5 - 82))
        let narrow = PopupMenu.placement(size: menu, pointingAt: Rect(x: 4, y: 300, width: 2, height: 2),
                                         in: Rect(x: 0, y: 0, width: 168, height: 720))
        #expect(narrow.dx == 2 - (5 - 82))
        let top = PopupMenu.placement(size: menu, pointingAt: Rect(x: 180, y: 20, width: 2, height: 2), in: window)
        #expect(!top.above)
    }
}

@Suite("Title bar names")
struct TitleBarNameTests {
    @Test("The title bar's buttons carry the names the app gives them, for screen readers, not their icons' English names")
    func named() throws {
        let window = WaylandHost.offscreenWindow(title: "T", size: Size(width: 400, height: 300), showsTitleBar: true)
        let bar = try #require((window as? DecoratedWindow)?.titleBar)
        #expect(bar.closeButton.accessibilityLabel == "window close")
        WaylandHost.setTitleBarButtonNames(close: "Schließen", maximize: "Maximieren", minimize: "Minimieren", of: window)
        #expect([bar.closeButton, bar.maximizeButton, bar.minimizeButton].map(\.accessibilityLabel) == ["Schließen", "Maximieren", "Minimieren"])
    }
}
