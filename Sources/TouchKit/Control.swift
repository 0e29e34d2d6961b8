/// A view that turns touches into semantic events (touch down, touch up inside, value changed...)
/// and sends action messages for them: target-action (C1, C2).
///
/// A control tracks one touch at a time: the first that begins on it. Subclasses customise
/// tracking by overriding ``beginTracking(_:with:)``, ``continueTracking(_:with:)``,
/// ``endTracking(_:with:)`` and ``cancelTracking(with:)`` (C2), and report their own changes
/// with ``sendActions(for:)`` (`.valueChanged`). Touches a control takes do not travel up the
/// responder chain.
///
/// Targets are held weakly, as in UIKit. A nil target sends the action along the responder
/// chain from the first responder (R5), via ``Application/sendAction(_:to:from:for:)``.
open class Control: View {
    /// The control events a target can register for.
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A touch went down on the control.
        public static let touchDown = Events(rawValue: 1 << 0)
        /// A touch went down with `tapCount > 1`.
        public static let touchDownRepeat = Events(rawValue: 1 << 1)
        /// The tracked touch moved and is inside.
        public static let touchDragInside = Events(rawValue: 1 << 2)
        /// The tracked touch moved and is outside.
        public static let touchDragOutside = Events(rawValue: 1 << 3)
        /// The tracked touch moved from outside to inside.
        public static let touchDragEnter = Events(rawValue: 1 << 4)
        /// The tracked touch moved from inside to outside.
        public static let touchDragExit = Events(rawValue: 1 << 5)
        /// The tracked touch was lifted inside: the usual "button pressed".
        public static let touchUpInside = Events(rawValue: 1 << 6)
        /// The tracked touch was lifted outside.
        public static let touchUpOutside = Events(rawValue: 1 << 7)
        /// The tracked touch was cancelled.
        public static let touchCancel = Events(rawValue: 1 << 8)
        /// The control's value changed (sent by subclasses).
        public static let valueChanged = Events(rawValue: 1 << 12)
        /// The control's main action happened (a button: with `touchUpInside`).
        public static let primaryActionTriggered = Events(rawValue: 1 << 13)
        /// Every touch event.
        public static let allTouchEvents = Events(rawValue: 0x1FF)
        /// Every event.
        public static let allEvents = Events(rawValue: 0xFFFF_FFFF)
    }

    /// The appearance-relevant state.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let normal: State = []
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    private struct TargetAction {
        weak var target: ActionTarget?
        let hasTarget: Bool
        let action: Action
        var events: Events
    }

    private struct Handler {
        let id: Int
        let events: Events
        let body: (_ sender: Control, _ event: Event?) -> Void
    }

    private var targetActions: [TargetAction] = []
    private var handlers: [Handler] = []
    private var nextHandlerID = 0
    private var trackedTouch: Touch?
    /// The event being handled while the control processes touches; passed with actions.
    private var currentEvent: Event?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isAccessibilityElement = true
    }

    /// The traits set, plus `selected` and `notEnabled` from the control's state (E3).
    open override var accessibilityTraits: AccessibilityTraits {
        get {
            var traits = super.accessibilityTraits
            if isSelected { traits.insert(.selected) }
            if !isEnabled { traits.insert(.notEnabled) }
            return traits
        }
        set { super.accessibilityTraits = newValue }
    }

    /// Does what a tap does: sends the touch-up-inside actions; false while disabled (E5).
    open override func accessibilityActivate() -> Bool {
        guard isEnabled else { return false }
        sendActions(for: touchUpInsideEvents)
        return true
    }

    // MARK: State

    /// A disabled control receives no touches (they go to the view behind it) and draws dimmed.
    open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            if !isEnabled, trackedTouch != nil { stopTracking(cancelled: true, event: currentEvent) }
            setNeedsDisplay()
        }
    }

    /// Whether the control is selected (a chosen palette colour, say).
    open var isSelected = false {
        didSet { if isSelected != oldValue { setNeedsDisplay() } }
    }

    /// Whether the control shows as pressed: true while the tracked touch is inside.
    open var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsDisplay() } }
    }

    /// The combined state, for drawing.
    public var state: State {
        var s: State = []
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        return s
    }

    /// Whether the control is tracking a touch (``beginTracking(_:with:)`` returned true and no
    /// ``continueTracking(_:with:)`` returned false since).
    public private(set) var isTracking = false

    /// Whether the tracked touch is inside the control (by ``View/point(inside:with:)``).
    public private(set) var isTouchInside = false

    /// A control keeps its own default action: a single-finger single tap on it is its own, so a
    /// tap recognizer of an enclosing view does not recognize (C4; UIKit's controls do the same).
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        if gestureRecognizer.view !== self, let tap = gestureRecognizer as? TapGestureRecognizer,
           tap.numberOfTapsRequired == 1, tap.numberOfTouchesRequired == 1 {
            return false
        }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    open override func hitTest(_ point: Point, with event: Event?) -> View? {
        guard isEnabled else { return nil }
        return super.hitTest(point, with: event)
    }

    // MARK: Target-action (C1)

    /// Sends `action` to `target` (nil: along the responder chain from the first responder)
    /// whenever one of `events` happens. Adding the same target and action again merges events.
    public func addTarget(_ target: ActionTarget?, action: Action, for events: Events) {
        if let i = targetActions.firstIndex(where: {
            $0.hasTarget == (target != nil) && $0.target === target && $0.action == action
        }) {
            targetActions[i].events.formUnion(events)
        } else {
            targetActions.append(TargetAction(target: target, hasTarget: target != nil, action: action,
                                              events: events))
        }
    }

    /// Removes `events` from the registrations of `target` (nil: every target) for `action`
    /// (nil: every action).
    public func removeTarget(_ target: ActionTarget?, action: Action?, for events: Events) {
        for i in targetActions.indices {
            let ta = targetActions[i]
            if (target == nil || ta.target === target) && (action == nil || ta.action == action) {
                targetActions[i].events.subtract(events)
            }
        }
        targetActions.removeAll { $0.events.isEmpty }
    }

    /// The actions registered for `target` (nil: for the responder chain) and one of `events`.
    public func actions(forTarget target: ActionTarget?, forEvents events: Events) -> [Action] {
        targetActions.filter {
            $0.hasTarget == (target != nil) && $0.target === target && !$0.events.isDisjoint(with: events)
        }.map(\.action)
    }

    /// Calls `handler` whenever one of `events` happens; the closure form of target-action.
    /// Returns an id for ``removeHandler(_:)``. Capture the control weakly inside the closure.
    @discardableResult
    public func addHandler(for events: Events,
                           _ handler: @escaping (_ sender: Control, _ event: Event?) -> Void) -> Int {
        nextHandlerID += 1
        handlers.append(Handler(id: nextHandlerID, events: events, body: handler))
        return nextHandlerID
    }

    /// Removes a handler added with ``addHandler(for:_:)``.
    public func removeHandler(_ id: Int) {
        handlers.removeAll { $0.id == id }
    }

    /// Sends the actions registered for `events`, in registration order, then calls the handlers
    /// (C1). Subclasses call this with `.valueChanged` when their value changes.
    open func sendActions(for events: Events) {
        let event = currentEvent
        for ta in targetActions where !ta.events.isDisjoint(with: events) {
            if ta.hasTarget {
                guard let target = ta.target else { continue }  // the target is gone
                sendAction(ta.action, to: target, for: event)
            } else {
                sendAction(ta.action, to: nil, for: event)
            }
        }
        for handler in handlers where !handler.events.isDisjoint(with: events) {
            handler.body(self, event)
        }
    }

    /// Sends one action message through the application (so that an application subclass sees
    /// every action). Outside a window, the action goes straight to the target, or along this
    /// control's own responder chain when the target is nil.
    open func sendAction(_ action: Action, to target: ActionTarget?, for event: Event?) {
        if let application = window?.application {
            application.sendAction(action, to: target, from: self, for: event)
        } else if let target {
            if target.canPerformAction(action, withSender: self) {
                target.perform(action, sender: self, event: event)
            }
        } else if let responder = self.target(forAction: action, withSender: self) {
            responder.perform(action, sender: self, event: event)
        }
    }

    // MARK: Tracking (C2)

    /// A touch began on the control. Return true to keep receiving ``continueTracking(_:with:)``.
    /// Default: true.
    open func beginTracking(_ touch: Touch, with event: Event?) -> Bool { true }

    /// The tracked touch moved. Return false to stop tracking. Default: true.
    open func continueTracking(_ touch: Touch, with event: Event?) -> Bool { true }

    /// The tracked touch ended (nil if tracking ended otherwise). Default: nothing.
    open func endTracking(_ touch: Touch?, with event: Event?) {}

    /// Tracking was cancelled (the touch was cancelled or the control disabled). Default: nothing.
    open func cancelTracking(with event: Event?) {}

    // MARK: Touches

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard trackedTouch == nil, let touch = touches.first else { return }
        trackedTouch = touch
        currentEvent = event
        defer { currentEvent = nil }
        isTouchInside = true
        isHighlighted = true
        isTracking = beginTracking(touch, with: event)
        var events: Events = .touchDown
        if touch.tapCount > 1 { events.insert(.touchDownRepeat) }
        sendActions(for: events)
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        currentEvent = event
        defer { currentEvent = nil }
        let wasInside = isTouchInside
        let inside = point(inside: touch.location(in: self), with: event)
        isTouchInside = inside
        isHighlighted = inside
        if isTracking { isTracking = continueTracking(touch, with: event) }
        var events: Events = inside ? .touchDragInside : .touchDragOutside
        if inside != wasInside { events.insert(inside ? .touchDragEnter : .touchDragExit) }
        sendActions(for: events)
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        currentEvent = event
        defer { currentEvent = nil }
        isTouchInside = point(inside: touch.location(in: self), with: event)
        let inside = isTouchInside
        stopTracking(cancelled: false, event: event)
        sendActions(for: inside ? touchUpInsideEvents : .touchUpOutside)
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        currentEvent = event
        defer { currentEvent = nil }
        stopTracking(cancelled: true, event: event)
        sendActions(for: .touchCancel)
    }

    /// The events sent when the tracked touch lifts inside. ``Button`` adds
    /// `.primaryActionTriggered`.
    var touchUpInsideEvents: Events { .touchUpInside }

    private func stopTracking(cancelled: Bool, event: Event?) {
        let touch = trackedTouch
        let wasTracking = isTracking
        trackedTouch = nil
        isTracking = false
        isHighlighted = false
        if wasTracking {
            if cancelled { cancelTracking(with: event) } else { endTracking(touch, with: event) }
        }
        if cancelled { isTouchInside = false }
    }
}

extension Control {
    /// Every target registered (responder-chain registrations, with no target, are not listed).
    public var allTargets: [ActionTarget] {
        var targets: [ActionTarget] = []
        for registration in targetActions {
            guard let target = registration.target, !targets.contains(where: { $0 === target }) else { continue }
            targets.append(target)
        }
        return targets
    }

    /// Every event some target or handler is registered for.
    public var allControlEvents: Events {
        var events = Events()
        for registration in targetActions { events.formUnion(registration.events) }
        for handler in handlers { events.formUnion(handler.events) }
        return events
    }
}
