/// A reference to a view that reads nil once the view has gone, as `weak var` does, for what is
/// read on every touch: a touch's view and window, the scroll view a wheel or pinch goes to.
///
/// Swift keeps the counts of an object that anything ever held weakly in a side table, and every
/// retain and release of it then takes the runtime's slow path: about a tenth of the app's work
/// on a short line went there for the window, the scroll view and the canvas. A link holds the
/// view's anchor instead, which the view empties as it goes (`View.deinit`), so the view's counts
/// stay in the object. Elsewhere `weak` stays: it costs nothing where objects are not retained often.
struct ViewLink<Linked: View> {
    private let anchor: View.Anchor?

    init(_ view: Linked?) {
        anchor = view?.anchor
    }

    /// The view, or nil once it has gone (or if there was none).
    var view: Linked? {
        // The anchor was made by a `Linked`, and holds it or nothing.
        guard let view = anchor?.view else { return nil }
        return unsafeDowncast(view, to: Linked.self)
    }
}

extension View {
    /// This view's anchor, which every link to it shares.
    final var anchor: Anchor {
        if let linkAnchor { return linkAnchor }
        let made = Anchor(self)
        linkAnchor = made
        return made
    }

    /// What a view's links read: the view, until its `deinit` empties it. Made on first use.
    final class Anchor {
        unowned(unsafe) var view: View?

        init(_ view: View) {
            self.view = view
        }
    }
}
