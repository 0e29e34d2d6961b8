/// An object that can handle touches and action messages, linked to the next one in the
/// responder chain (R1-R5).
///
/// The chain is view → its view controller (if it is that controller's root view) → superview →
/// … → window → application → nil (R2). A touch method that a responder does not override passes
/// the call to ``next`` (R1); at the end of the chain it is dropped (R3). To let an unhandled touch
/// continue, an override calls `super`, as UIKit asks, rather than calling `next` directly.
open class Responder: ActionTarget {
    private var actionHandlers: [Action: (_ sender: Any?, _ event: Event?) -> Void] = [:]

    public init() {}

    /// The next responder in the chain; `nil` at the end.
    open var next: Responder? { nil }

    // MARK: Touches (R1, R3)

    /// One or more touches began. The set holds only the touches that began in this event and
    /// belong to this responder; `event` has all of them.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        next?.touchesBegan(touches, with: event)
    }

    /// One or more touches moved.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        next?.touchesMoved(touches, with: event)
    }

    /// One or more touches were lifted.
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        next?.touchesEnded(touches, with: event)
    }

    /// The system cancelled one or more touches (`wl_touch.cancel`, a recognizer took them...).
    /// Undo whatever the touches started.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        next?.touchesCancelled(touches, with: event)
    }

    /// Revised values arrived for touches' estimated properties. Never called on Wayland, where
    /// no value is an estimate (T13: ``Touch/estimatedProperties`` is always empty); passes the
    /// call to `next` like the touch methods.
    open func touchesEstimatedPropertiesUpdated(_ touches: Set<Touch>) {
        next?.touchesEstimatedPropertiesUpdated(touches)
    }

    // MARK: First responder (R4)

    /// The window this responder would be first responder of; nil for responders that are not
    /// part of a window, which therefore cannot become first responder.
    var responderWindow: Window? { nil }

    /// Whether this responder accepts first-responder status. Default: false.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this responder gives up first-responder status when asked. Default: true.
    open var canResignFirstResponder: Bool { true }

    /// Whether this responder is its window's first responder.
    public var isFirstResponder: Bool {
        guard let window = responderWindow else { return false }
        return window.firstResponder === self
    }

    /// Makes this responder its window's first responder, after the current one resigns.
    ///
    /// Fails (returns false) if ``canBecomeFirstResponder`` is false, the responder is not in a
    /// window, or the current first responder refuses to resign. Overrides must call `super`.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard let window = responderWindow else { return false }
        if window.firstResponder === self { return true }
        guard canBecomeFirstResponder else { return false }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        // The resigning responder may have handed the role to someone else; we still win.
        window.setFirstResponder(self)
        return true
    }

    /// Gives up first-responder status. Returns false, keeping the status, when
    /// ``canResignFirstResponder`` is false. Overrides must call `super`.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if let window = responderWindow, window.firstResponder === self {
            window.setFirstResponder(nil)
        }
        return true
    }

    // MARK: Actions (R5)

    /// Registers a closure that handles `action`, replacing an earlier one.
    ///
    /// Capture `self` weakly or unowned in the closure: the responder stores it.
    public func addActionHandler(_ action: Action,
                                 _ handler: @escaping (_ sender: Any?, _ event: Event?) -> Void) {
        actionHandlers[action] = handler
    }

    /// Removes the closure registered for `action`.
    public func removeActionHandler(_ action: Action) {
        actionHandlers[action] = nil
    }

    /// Whether this responder handles `action` now. Default: a handler is registered for it.
    /// The menu asks this to decide which items to show (R5, M1).
    open func canPerformAction(_ action: Action, withSender sender: Any?) -> Bool {
        actionHandlers[action] != nil
    }

    /// Handles `action`. Default: calls the registered handler.
    open func perform(_ action: Action, sender: Any?, event: Event?) {
        actionHandlers[action]?(sender, event)
    }

    /// The responder that would handle `action`: this one if it can perform it, else the first
    /// one up the chain that can, else nil.
    open func target(forAction action: Action, withSender sender: Any?) -> Responder? {
        if canPerformAction(action, withSender: sender) { return self }
        return next?.target(forAction: action, withSender: sender)
    }
}
