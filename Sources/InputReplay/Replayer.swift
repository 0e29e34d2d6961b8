// Playing entries back through the input adapter. Headless (`touchtracker replay`), the replay
// owns the clock: time jumps from entry to entry and timers fire where the live session fired
// them, so the same calls reach the same views in the same order and the drawing comes out bit for
// bit the same. Live (`touchtracker --replay`), entries are scheduled on the app's own clock at
// their original pace (or faster), into the window the compositor shows.
import TouchKit

/// A clock that moves only when the replay says: to the time of each turn, and on to each
/// recorded firing of timers.
public final class ReplayClock: Clock {
    private let time = Box()
    private final class Box { var seconds = 0.0 }
    private let timers: EventLoopClock

    public init(now: Double = 0) {
        time.seconds = now
        timers = EventLoopClock(now: { [time] in time.seconds })
    }

    public var now: Double { time.seconds }

    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> TimerToken {
        timers.schedule(at: deadline, action)
    }

    /// Moves to `seconds` (never back) without firing anything.
    public func move(to seconds: Double) { time.seconds = max(time.seconds, seconds) }

    /// Moves to `seconds` and fires every timer due by then.
    public func fire(at seconds: Double) {
        move(to: seconds)
        timers.fireDueTimers(at: seconds)
    }
}

/// What a replay does with the entries that are not adapter calls.
public struct ReplayTarget {
    public var input: TouchInput
    /// The window's size, scale and title bar changed (the headless window follows it).
    public var window: (_ width: Double, _ height: Double, _ scale: Double, _ titleBar: Bool) -> Void = { _, _, _, _ in }
    /// A key press: the app's key commands.
    public var key: (_ keysym: UInt32, _ modifiers: UInt8, _ name: String) -> Void = { _, _, _ in }
    /// The edit menu: an item chosen (by its action's name), or the menu dismissed.
    public var menu: (_ chosenAction: String?) -> Void
    /// A preference the recorded app started with.
    public var setting: (_ name: String, _ value: String) -> Void = { _, _ in }
    /// What a paste received (the canvas pastes it, P3).
    public var paste: (PasteboardReadResult) -> Void = { _ in }

    public init(input: TouchInput) {
        self.input = input
        menu = { [application = input.application] action in
            let menu = application.menuController
            guard let action else { return menu.menuWasDismissed() }
            if let item = menu.menuItems.first(where: { $0.action.name == action }) { menu.choose(item) }
        }
    }

    /// Hands `entry` to the input adapter or to the closure for its kind; turns and timer firings
    /// are the clock's, which the replay moves itself.
    public func apply(_ entry: RecordingEntry) {
        switch entry {
        case .input(let event): input.apply(event)
        case let .window(width, height, scale, titleBar): window(width, height, scale, titleBar)
        case let .key(keysym, modifiers, name): key(keysym, modifiers, name)
        case .menuChoice(let action): menu(action)
        case .menuDismissed: menu(nil)
        case let .setting(name, value): setting(name, value)
        case .paste(let result): paste(result)
        case .turn, .timers: break
        }
    }
}

public enum Replayer {
    /// Plays every entry at once, on `clock`; at the end, timers due within `settle` seconds of
    /// the last entry fire (a tap waiting to learn that no second tap comes). `endOfTurn` runs
    /// where the live loop painted, after each turn and at the end: what the app draws into its
    /// line cache depends on when it painted, so a replay that paints where the live app did
    /// comes out the same, pixel for pixel.
    public static func playHeadless(_ entries: [RecordingEntry], into target: ReplayTarget, clock: ReplayClock,
                                    settle: Double = 1, endOfTurn: () -> Void = {}) {
        var last = clock.now
        var inTurn = false
        defer { endOfTurn() }
        for entry in entries {
            switch entry {
            case .turn(let t):
                if inTurn { endOfTurn() }
                inTurn = true
                clock.move(to: t)
                last = max(last, t)
            case .timers(let t):
                clock.fire(at: t)
                last = max(last, t)
                // The live loop painted after firing its timers.
                endOfTurn()
                inTurn = false
            default: target.apply(entry)
            }
        }
        if inTurn { endOfTurn() }
        clock.fire(at: last + settle)
    }

    /// The entries grouped by the turn they belong to, each with its time relative to the first
    /// turn: what a live replay schedules. Timer firings are left to the live clock.
    public static func turns(_ entries: [RecordingEntry]) -> [(offset: Double, entries: [RecordingEntry])] {
        var result: [(Double, [RecordingEntry])] = []
        var first: Double?
        var current: [RecordingEntry] = []
        var time = 0.0
        func flush() {
            if !current.isEmpty { result.append((time - (first ?? time), current)) }
            current = []
        }
        for entry in entries {
            switch entry {
            case .turn(let t):
                flush()
                if first == nil { first = t }
                time = t
            case .timers: break
            default: current.append(entry)
            }
        }
        flush()
        return result
    }
}
