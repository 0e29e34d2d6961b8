// The recognizer base class: its settings, and what a subclass overrides or calls (touch
// methods, arbitration hooks, location, timers). Its state machine is in
// GestureRecognizer+StateMachine.swift, its target-action in GestureRecognizer+Actions.swift.

/// Turns a stream of touches into one gesture (a tap, a pan...) and tells its targets about it:
/// the base class of every recognizer (G1-G17).
///
/// Attach a recognizer to a view with ``View/addGestureRecognizer(_:)``. The recognizers of the
/// view a touch begins in and of its ancestors see the touch before the view does (G4), and decide
/// between them who gets the touches (G8, G9) and what the view still receives
/// (``cancelsTouchesInView``, ``delaysTouchesBegan``, ``delaysTouchesEnded``).
///
/// The base class owns the state machine: a subclass looks at touches in the four touch methods
/// and sets ``state``; the base class checks the move against ``State/legalTransitions``, holds it
/// back while failure requirements are undecided, arbitrates with other recognizers, sends the
/// actions (G2), and calls ``reset()`` at the end of the event that finished the gesture (G3, G17).
///
/// Actions come in two forms; both run on began, changed, ended and cancelled, never on failed:
/// ```swift
/// let pan = PanGestureRecognizer { pan in print(pan.translation(in: nil)) }  // typed closure
/// tap.addTarget(controller, action: "tapped")  // an Action sent to an ActionTarget
/// ```
open class GestureRecognizer: CustomStringConvertible {
    /// The state itself: only the state machine (GestureRecognizer+StateMachine.swift) writes it,
    /// everyone else goes through ``state``.
    var _state: State = .possible
    /// The targets and closures actions go to (GestureRecognizer+Actions.swift).
    var receivers: [Receiver] = []
    var nextHandlerID = 0
    private var failureRequirements: [GestureRecognizer] = []

    /// Transitions held back while a recognizer this one requires to fail is undecided (G8); the
    /// public state stays `possible` meanwhile.
    var pendingStates: [State] = []
    /// True when TouchKit, not the subclass, ended recognition (arbitration, disabling, a system
    /// cancel): the subclass may not know yet, so its late state requests are dropped.
    var finishedBySystem = false
    /// Timers from ``scheduleTimer(after:_:)`` that have not fired (some may be cancelled).
    private var timers: [TimerToken] = []

    /// Whether a timer of the recognizer may still fire and let it decide.
    var hasPendingTimers: Bool { timers.contains { !$0.isCancelled } }
    /// The touches given to the recognizer since its last reset and not ignored, in the order they
    /// began; ended ones stay until the reset.
    var trackedTouches: [Touch] = []
    /// The arbitration of the window the recognizer got its touches in.
    weak var environment: GestureEnvironment?
    /// Called on every state change, resets included, before effects and actions: for tests.
    var stateObserver: ((_ old: State, _ new: State) -> Void)?

    /// The view the recognizer is attached to.
    public internal(set) var view: View? {
        get { attachedView }
        set { attachedView = newValue }
    }
    /// Unowned, not weak (docs/architecture.md, "Gestures"): the view clears it as it goes, without
    /// the observers a change of ``view`` runs.
    unowned var attachedView: View?

    /// Decides about sharing touches, beginning and failure requirements (G10).
    public weak var delegate: GestureRecognizerDelegate?

    /// A name for debugging.
    public var name: String?

    /// When true (the default), the view gets `touchesCancelled` for the recognizer's touches
    /// when it recognizes, and no more of them afterwards (G5). When false the view keeps getting
    /// every touch.
    public var cancelsTouchesInView = true

    /// When true, the view's `touchesBegan` (and later moves) for the recognizer's touches are
    /// held while it may still recognize; if it fails the view gets the began and one catch-up
    /// move, and if it recognizes they are dropped (G6). Default: false.
    public var delaysTouchesBegan = false

    /// The kinds of touch the recognizer takes (G18): others pass it by, as a pen passes a pan
    /// meant for fingers. Default: every kind.
    public var allowedTouchTypes: Set<Touch.Kind> = [.direct, .indirectPointer, .pencil]

    /// When true (the default), once the recognizer has a touch of one kind it takes no touch of
    /// another until its reset (G18): a finger's pan does not turn a pen on the glass into a
    /// second finger.
    public var requiresExclusiveTouchType = true

    /// Whether the recognizer takes `touch` by its kind (G18).
    func takesTouchType(of touch: Touch) -> Bool {
        guard allowedTouchTypes.contains(touch.type) else { return false }
        guard requiresExclusiveTouchType else { return true }
        return trackedTouches.allSatisfy { $0.type == touch.type }
    }

    /// When true (the default), the view's `touchesEnded` is held while the recognizer may still
    /// recognize, e.g. a double tap waiting for its second tap (G7); the view gets it when the
    /// recognizer fails, or `touchesCancelled` when it recognizes.
    public var delaysTouchesEnded = true

    /// A disabled recognizer gets no touches; disabling one that is recognizing cancels it, and
    /// one that is still deciding fails (G16).
    open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue, !isEnabled else { return }
            environment?.detach(self)
        }
    }

    /// Creates a recognizer without targets.
    public required init() {}

    /// Creates a recognizer that sends `action` to `target` (held weakly).
    public convenience init(target: ActionTarget, action: Action) {
        self.init()
        addTarget(target, action: action)
    }

    public var description: String {
        let type = String(describing: Swift.type(of: self))
        return name.map { "\(type)(\($0), \(state))" } ?? "\(type)(\(state))"
    }

    // MARK: Arbitration (G8, G9)

    /// Makes this recognizer wait until `other` fails; if `other` recognizes, this one fails
    /// (G8). `other` is held, not weakly (docs/architecture.md, "Gestures"); two that wait for
    /// each other would never decide anyway.
    public func require(toFail other: GestureRecognizer) {
        guard other !== self, !failureRequirements.contains(where: { $0 === other }) else { return }
        failureRequirements.append(other)
    }

    /// The recognizers passed to ``require(toFail:)``.
    var requiredToFail: [GestureRecognizer] { failureRequirements }

    /// Whether this recognizer, by recognizing, makes `other` fail (G9). Default: true.
    /// Overridden for one-way relations, e.g. a rotation that may stop a pinch but not the reverse.
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }

    /// Whether `other`, by recognizing, may make this recognizer fail (G9). Default: true.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }

    /// Override to wait for `other` to fail, decided per touch sequence. Default: false.
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }

    /// Override to make `other` wait for this recognizer to fail. Default: false.
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }

    // MARK: Touches (G17)

    /// New touches for the recognizer. Subclasses override to look at them and set ``state``.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) {}

    /// The recognizer's touches moved.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) {}

    /// The recognizer's touches lifted.
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) {}

    /// The system cancelled the recognizer's touches. If the subclass leaves the state alone,
    /// TouchKit cancels a gesture that began and fails one that did not (T9).
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {}

    /// Clears the subclass's per-gesture data. Called at the end of the event (or timer) in which
    /// the recognizer ended, was cancelled or failed, as the state returns to `possible`; touches
    /// still down then no longer reach it (G3). Overrides must
    /// call `super`.
    open func reset() {}

    /// Hands `touch` back: the recognizer gets no more events for it and no longer delays or
    /// cancels the view's delivery of it (G17).
    open func ignore(_ touch: Touch, for event: Event) {
        guard let index = trackedTouches.firstIndex(where: { $0 === touch }) else { return }
        trackedTouches.remove(at: index)
        touch.gestureRecognizers.removeAll { $0 === self }
        // The view may have been waiting for this recognizer's decision about the touch.
        environment?.perform {}
    }

    // MARK: Location

    /// The touches the recognizer is following: the ones still down, or once all lifted, the
    /// last ones it had.
    var touchesForLocation: [Touch] {
        let active = activeTouches
        return active.isEmpty ? trackedTouches : active
    }

    /// The recognizer's touches that are still down.
    var activeTouches: [Touch] { trackedTouches.filter { !$0.isFinished } }

    /// How many of them there are, and whether there are any, without making the array (asked of
    /// every recognizer a touch reaches, in every frame).
    var activeTouchCount: Int { trackedTouches.reduce(0) { $0 + ($1.isFinished ? 0 : 1) } }
    var hasActiveTouches: Bool { trackedTouches.contains { !$0.isFinished } }

    /// How many touches the recognizer follows: those down, or after the last lifted, those it
    /// had (so a tap's action sees its touches).
    public var numberOfTouches: Int { touchesForLocation.count }

    /// The centroid of the recognizer's touches in `view`'s coordinates (nil: the window's).
    /// Zero when it has none.
    open func location(in view: View?) -> Point {
        centroid(of: touchesForLocation, in: view)
    }

    /// The location of one of the recognizer's touches; `index` must be below
    /// ``numberOfTouches``.
    open func location(ofTouch index: Int, in view: View?) -> Point {
        let touches = touchesForLocation
        precondition(touches.indices.contains(index),
                     "touch index \(index) out of range (\(touches.count) touches)")
        return touches[index].location(in: view)
    }

    func centroid(of touches: [Touch], in view: View?) -> Point {
        guard !touches.isEmpty else { return .zero }
        var x = 0.0, y = 0.0
        for touch in touches {
            let p = touch.location(in: view)
            x += p.x
            y += p.y
        }
        return Point(x: x / Double(touches.count), y: y / Double(touches.count))
    }

    // MARK: Timers (G12)

    /// Runs `action` after `delay` seconds on the application's clock, that is on the app's own
    /// event loop, unless the recognizer finishes or resets first. Returns nil when the
    /// recognizer's view is not in an application's window.
    @discardableResult
    public func scheduleTimer(after delay: Double, _ action: @escaping () -> Void) -> TimerToken? {
        guard let clock = (environment?.window ?? view?.window)?.application?.clock else { return nil }
        var token: TimerToken?
        // Unowned: a recognizer cancels its timers as it goes (deinit).
        token = clock.schedule(at: clock.now + delay) { [unowned self] in
            self.timers.removeAll { $0 === token }
            if let environment = self.environment {
                environment.perform { action() }
            } else {
                action()
            }
        }
        timers.removeAll { $0.isCancelled }
        if let token { timers.append(token) }
        return token
    }

    deinit { cancelTimers() }

    func cancelTimers() {
        let pending = timers
        timers = []
        for token in pending { token.cancel() }
    }
}
