/// The end of every responder chain (R2): owns the windows, routes events to them (H7), sends
/// action messages (R5) and can ignore interaction for a while (H6).
///
/// There is no shared singleton: code reaches the application through `view.window?.application`,
/// which keeps tests independent of each other.
open class Application: Responder {
    /// The time source for timers (gesture recognizers) and the app.
    public let clock: Clock
    /// The windows, in the order they were added.
    public private(set) var windows: [Window] = []
    /// The window that receives keyboard input and nil-targeted actions without a sender window.
    /// Held, as ``windows`` holds it (weakly held, a window's counts would take the runtime's
    /// slow path: ViewLink.swift): it is always one of them, or nil.
    public private(set) var keyWindow: Window?
    private var ignoreDepth = 0
    /// The edit menu (M1), one per application.
    public private(set) lazy var menuController = MenuController(application: self)
    /// The system clipboard (P1), set by the host; nil where there is none.
    public var pasteboard: Pasteboard?

    public init(clock: Clock) {
        self.clock = clock
        super.init()
    }

    // Its windows hold it unowned: any that outlive it read nil.
    deinit {
        for window in windows { window.application = nil }
    }

    /// Nil: the application ends the chain (R2).
    override open var next: Responder? { nil }

    // MARK: Windows

    /// Adds a window (once); the first one becomes the key window.
    public func addWindow(_ window: Window) {
        if window.application === self, windows.contains(where: { $0 === window }) { return }
        window.application?.removeWindow(window)
        windows.append(window)
        window.application = self
        if keyWindow == nil { keyWindow = window }
    }

    /// Removes a window; if it was the key window, the last remaining one becomes key.
    public func removeWindow(_ window: Window) {
        guard window.application === self else { return }
        windows.removeAll { $0 === window }
        window.application = nil
        if keyWindow === window || keyWindow == nil { keyWindow = windows.last }
    }

    /// Makes `window` the key window, adding it if needed.
    public func makeKey(_ window: Window) {
        addWindow(window)
        keyWindow = window
    }

    // MARK: Events (H6, H7)

    /// Whether interaction events are being ignored (H6).
    public var isIgnoringInteractionEvents: Bool { ignoreDepth > 0 }

    /// Starts ignoring touches until the matching ``endIgnoringInteractionEvents()``; calls nest (H6).
    ///
    /// While ignoring, touches that begin are never delivered to a view, not even after ignoring
    /// ends, and moves are dropped. Touches that began before still end or cancel in their views,
    /// so a view never waits forever for the end of a sequence it saw start.
    public func beginIgnoringInteractionEvents() {
        ignoreDepth += 1
    }

    /// Ends one ``beginIgnoringInteractionEvents()``; extra calls are ignored.
    public func endIgnoringInteractionEvents() {
        ignoreDepth = max(0, ignoreDepth - 1)
    }

    /// The pipe every event goes through (H7): applies H6, then hands the event to each window
    /// that has touches in it. Overrides must call `super`.
    open func sendEvent(_ event: Event) {
        if isIgnoringInteractionEvents {
            for touch in event.orderedTouches {
                switch touch.phase {
                case .began:
                    touch.isDeliverable = false
                    touch.view = nil
                case .moved, .stationary:
                    event.suppressed.insert(ObjectIdentifier(touch))
                case .ended, .cancelled:
                    break
                }
            }
        }
        var targets: [Window] = []
        for touch in event.orderedTouches {
            if let window = touch.window, !targets.contains(where: { $0 === window }) {
                targets.append(window)
            }
        }
        for window in targets {
            window.sendEvent(event)
        }
    }

    // MARK: Actions (R5)

    /// Sends `action` to `target`, or with a nil target along the responder chain: from the first
    /// responder of the sender's window (the key window if the sender is not a view), or from the
    /// sender itself when there is no first responder, up to the first responder that can perform
    /// it (R5, C1). Returns whether someone performed it.
    @discardableResult
    open func sendAction(_ action: Action, to target: ActionTarget?, from sender: Any?,
                         for event: Event?) -> Bool {
        if let target {
            guard target.canPerformAction(action, withSender: sender) else { return false }
            target.perform(action, sender: sender, event: event)
            return true
        }
        let senderWindow = (sender as? View)?.window ?? (sender as? ViewController)?.viewIfLoaded?.window
        let start: Responder? = (senderWindow ?? keyWindow)?.firstResponder ?? (sender as? Responder)
        guard let responder = start?.target(forAction: action, withSender: sender) else { return false }
        responder.perform(action, sender: sender, event: event)
        return true
    }
}
