/// Owns a root view and sits after it in the responder chain (R2), so that touches and actions
/// the view does not handle reach the controller.
open class ViewController: Responder {
    private var _view: View?

    public override init() {
        super.init()
    }

    /// The root view, created by ``loadView()`` on first access.
    public var view: View {
        get {
            if let v = _view { return v }
            loadView()
            let v = _view ?? View()
            if _view == nil { setRootView(v) }
            viewDidLoad()
            return v
        }
        set { setRootView(newValue) }
    }

    /// The root view if it has been created, without creating it.
    public var viewIfLoaded: View? { _view }

    /// Whether the root view exists.
    public var isViewLoaded: Bool { _view != nil }

    private func setRootView(_ newView: View) {
        if let old = _view, old.owningViewController === self { old.owningViewController = nil }
        _view = newView
        newView.owningViewController = self
    }

    /// Creates the root view. Override to build a custom one and assign it to ``view``; the
    /// default creates a plain ``View``.
    open func loadView() {
        view = View()
    }

    /// Called once the root view exists.
    open func viewDidLoad() {}

    /// Called after the root view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    override var responderWindow: Window? { _view?.window }

    /// The root view's superview (the window, when this is the window's root view controller), R2.
    override open var next: Responder? { _view?.superview }
}
