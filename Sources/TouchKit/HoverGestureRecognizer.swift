/// Recognizes a pointer or a pen in proximity hovering over its view (G20): began when it
/// enters the view, changed as it moves over it, ended when it leaves the view, lifts out of
/// range, or presses (a press is a touch, not a hover).
///
/// It takes no touches: the host reports hovering through ``TouchInput/hover(_:at:time:)`` and
/// ``TouchInput/hoverEnded(_:time:)``, and the recognizers of the view under the pointer and of
/// its ancestors follow it, so a hover never disturbs touch delivery. A recognizer follows one
/// hovering device at a time, the first to enter.
open class HoverGestureRecognizer: GestureRecognizer {
    /// The device followed and where it is, in window points.
    private var hovering: (id: TouchInput.ID, location: Point)?

    /// Creates a hover recognizer: it takes no touches at all.
    public required init() {
        super.init()
        allowedTouchTypes = []
    }

    /// Disabling it while hovering cancels the hover (G16).
    open override var isEnabled: Bool {
        didSet {
            if !isEnabled, hovering != nil { finishHover(.cancelled) }
        }
    }

    /// Removing it from its view while hovering cancels the hover, as for a touch gesture (G16).
    public internal(set) override weak var view: View? {
        didSet {
            if view == nil, hovering != nil { finishHover(.cancelled) }
        }
    }

    /// Where the hovering device is, in `view`'s coordinates (nil: the window's); zero when
    /// nothing hovers.
    open override func location(in view: View?) -> Point {
        guard let hovering else { return .zero }
        return view?.convert(hovering.location, from: nil) ?? hovering.location
    }

    /// One hovering device at most.
    public override var numberOfTouches: Int { hovering == nil ? 0 : 1 }

    /// The hovering device's location; `index` must be 0 while it hovers.
    open override func location(ofTouch index: Int, in view: View?) -> Point {
        precondition(index == 0 && hovering != nil, "hover index \(index) out of range")
        return location(in: view)
    }

    /// `id` is over the recognizer's view at `location` (window points).
    func hoverMoved(_ id: TouchInput.ID, to location: Point) {
        guard isEnabled else { return }
        if let hovering, hovering.id != id { return }
        let entering = hovering == nil
        hovering = (id, location)
        if entering {
            state = .began
            // A delegate or view that vetoed it: nothing to follow.
            if state == .possible || state == .failed { hovering = nil }
        } else {
            state = .changed
        }
    }

    /// `id` left the view or went out of range.
    func hoverLeft(_ id: TouchInput.ID) {
        guard let hovering, hovering.id == id else { return }
        finishHover(.ended)
    }

    private func finishHover(_ final: State) {
        if state == .began || state == .changed { state = final }
        hovering = nil
    }

    /// Whether it follows `id` now.
    func isFollowing(_ id: TouchInput.ID) -> Bool { hovering?.id == id }
}
