// Publishes a TouchKit window's accessibility on the desktop's accessibility bus (AT-SPI 2 over
// D-Bus; E8-E10), as GTK and Qt do for theirs, so that screen readers such as Orca and other
// assistive tools read and work the app. It knows TouchKit's accessibility and libdbus, not the
// app and not Wayland: the executable hands it the window, the loop's clock and a way to watch a
// socket.
//
// Nothing here may hold the event loop up: the bus is found and joined on a thread of its own
// (AccessibilityBus.connect), and afterwards the loop reads and writes it only when it is ready.
// With no session bus or no accessibility bus the bridge gives up once, and costs nothing more.
import TouchKit

public final class AccessibilityBridge {
    /// How often the objects tools asked about are compared with what they saw, while any are.
    static let lookInterval = 0.25
    /// How often the start checks whether the bus is joined, and for how long.
    static let connectPoll = 0.02, connectTimeout = 10.0

    private let window: Window
    private let applicationName: String
    private let menuName: String
    private let clock: Clock
    private let watch: (Int32, @escaping () -> Bool) -> Void
    private let log: (String) -> Void
    private var job: BackgroundJob<Result<AccessibilityBus, AccessibilityBus.Unavailable>>?
    private var server: AtspiServer?
    private var events: AtspiEvents?
    private var lookTimer: TimerToken?
    private var flushTimer: TimerToken?
    private var changeTimer: TimerToken?
    /// How soon after a layout change everything followed is compared: changes that come
    /// together (lines finishing under several fingers) are compared once.
    static let changeDelay = 0.05

    /// Starts joining the accessibility bus named by `environment` (the session bus's
    /// org.a11y.Bus, or `AT_SPI_BUS_ADDRESS`); `log` hears what became of it.
    /// `menuName` names the edit menu while it shows.
    public init(window: Window, applicationName: String, menuName: String, clock: Clock,
                environment: @escaping @Sendable (String) -> String?,
                watch: @escaping (Int32, @escaping () -> Bool) -> Void, log: @escaping (String) -> Void) {
        self.window = window
        self.applicationName = applicationName
        self.menuName = menuName
        self.clock = clock
        self.watch = watch
        self.log = log
        job = BackgroundJob(label: "accessibility bus") { AccessibilityBus.connect(environment: environment) }
        waitForBus(until: clock.now + Self.connectTimeout)
    }

    /// Whether the app is published on an accessibility bus.
    public var isPublished: Bool { server != nil }

    private func waitForBus(until deadline: Double) {
        _ = clock.schedule(at: clock.now + Self.connectPoll) { [weak self] in
            guard let self, let job = self.job else { return }
            guard let result = job.take() else {
                if self.clock.now < deadline { self.waitForBus(until: deadline) } else { self.log("the accessibility bus did not answer") }
                return
            }
            self.job = nil
            switch result {
            case .success(let bus): self.publish(on: bus)
            case .failure(let reason): self.log("not published for assistive tools: \(reason)")
            }
        }
    }

    private func publish(on bus: AccessibilityBus) {
        guard let fd = bus.fileDescriptor else { return log("the accessibility bus has no socket") }
        let server = AtspiServer(bus: bus, objects: AtspiObjects(window: window, menuName: menuName), applicationName: applicationName)
        let events = AtspiEvents(server: server)
        server.onObjectSeen = { [unowned self, unowned events] object in
            events.follow(object)
            self.keepLooking()
        }
        self.server = server
        self.events = events
        window.accessibilityNotificationHandler = { [weak self] notification in self?.notice(notification) }
        watch(fd) { [weak self] in self?.read() ?? false }
        log("published for assistive tools on the accessibility bus as \(bus.uniqueName)")
        flush()
    }

    /// Answers what came; false once the bus is gone (the watch then ends).
    private func read() -> Bool {
        guard let server else { return false }
        let open = server.bus.pump { server.handle($0) }
        // An action a tool performed may change what it sees: told at once.
        events?.compare()
        flush()
        if !open {
            log("the accessibility bus went away")
            window.accessibilityNotificationHandler = nil
            self.server = nil
            events = nil
        }
        return open
    }

    /// Writes what waits, and comes back soon for what the socket could not take yet.
    private func flush() {
        guard let server else { return }
        _ = server.bus.pump { server.handle($0) }
        guard server.bus.hasOutgoing, flushTimer == nil else { return }
        flushTimer = clock.schedule(at: clock.now + 0.01) { [weak self] in
            self?.flushTimer = nil
            self?.flush()
        }
    }

    private func notice(_ notification: AccessibilityNotification) {
        guard let events else { return }
        switch notification {
        case .announcement(let text): events.announce(text, from: window)
        case .layoutChanged(let focus?), .screenChanged(let focus?): events.focus(focus)
        case .layoutChanged, .screenChanged:
            guard changeTimer == nil else { return }
            changeTimer = clock.schedule(at: clock.now + Self.changeDelay) { [weak self] in
                guard let self else { return }
                self.changeTimer = nil
                self.events?.compare()
                self.flush()
            }
            return
        }
        flush()
    }

    /// Looks for changes while tools follow anything.
    private func keepLooking() {
        guard lookTimer == nil else { return }
        lookTimer = clock.schedule(at: clock.now + Self.lookInterval) { [weak self] in
            guard let self else { return }
            self.lookTimer = nil
            guard let events = self.events else { return }
            events.look()
            self.flush()
            if events.isFollowing { self.keepLooking() }
        }
    }
}
