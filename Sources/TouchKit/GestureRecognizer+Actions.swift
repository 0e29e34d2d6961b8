// Target-action for gesture recognizers (G2): who gets told when a recognizer begins, changes,
// ends or is cancelled, as an Action sent to a weakly held target or as a typed closure.
extension GestureRecognizer {
    /// One registration: a target and its action, or a closure.
    enum Receiver {
        case target(weak: WeakTarget, action: Action)
        case handler(id: Int, body: (GestureRecognizer) -> Void)
    }

    final class WeakTarget {
        weak var object: ActionTarget?
        init(_ object: ActionTarget) { self.object = object }
    }

    /// Sends `action` to `target` (held weakly) on every state that sends actions. The target
    /// gets ``ActionTarget/perform(_:sender:event:)`` with the recognizer as sender, if its
    /// ``ActionTarget/canPerformAction(_:withSender:)`` agrees at that moment.
    public func addTarget(_ target: ActionTarget, action: Action) {
        let exists = receivers.contains {
            if case .target(let weak, let a) = $0 { return weak.object === target && a == action }
            return false
        }
        if !exists { receivers.append(.target(weak: WeakTarget(target), action: action)) }
    }

    /// Removes the registrations of `target` (nil: every target) for `action` (nil: every action).
    public func removeTarget(_ target: ActionTarget?, action: Action?) {
        receivers.removeAll {
            guard case .target(let weak, let a) = $0 else { return false }
            return (target == nil || weak.object === target) && (action == nil || a == action)
        }
    }

    /// Adds a closure called with the recognizer; the typed form is `addHandler(_:)`.
    @discardableResult
    func addAnyHandler(_ body: @escaping (GestureRecognizer) -> Void) -> Int {
        nextHandlerID += 1
        receivers.append(.handler(id: nextHandlerID, body: body))
        return nextHandlerID
    }

    /// Removes a closure added with `addHandler(_:)` or `init(handler:)`.
    public func removeHandler(_ id: Int) {
        receivers.removeAll {
            if case .handler(let i, _) = $0 { return i == id }
            return false
        }
    }

    func sendActions(event: Event?) {
        for receiver in receivers {
            switch receiver {
            case .target(let weak, let action):
                guard let target = weak.object,
                      target.canPerformAction(action, withSender: self) else { continue }
                target.perform(action, sender: self, event: event)
            case .handler(_, let body):
                body(self)
            }
        }
    }
}

/// The typed closure form of target-action: `Self` is the concrete recognizer type.
public protocol GestureRecognizerHandlers: GestureRecognizer {}

extension GestureRecognizer: GestureRecognizerHandlers {}

extension GestureRecognizerHandlers {
    /// Creates a recognizer that calls `handler` on each action (G2).
    public init(handler: @escaping (Self) -> Void) {
        self.init()
        addHandler(handler)
    }

    /// Calls `handler` with the recognizer, typed as its own class, on began, changed, ended and
    /// cancelled (G2). Returns an id for ``GestureRecognizer/removeHandler(_:)``. The recognizer
    /// keeps the closure: capture the view or controller weakly.
    @discardableResult
    public func addHandler(_ handler: @escaping (Self) -> Void) -> Int {
        addAnyHandler { handler($0 as! Self) }
    }
}
