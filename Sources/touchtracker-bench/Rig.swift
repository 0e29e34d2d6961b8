// The app without a compositor: the real window and DrawViewController on the app's clock, touches
// fed through TouchInput as the host's seat feeds them, and the damaged region painted into
// window-sized buffers exactly as the Wayland host does (two buffers in turn: Weston lets go of a
// buffer when the next one is committed; each copies from the other what changed since it was
// last shown and paints the frame's own change). One `turn` is what one turn of the app's event loop does: deliver what arrived (or
// fire due timers), then paint and "commit".
import CShims
import Glibc
import Graphics
import TouchKit
import TouchTrackerKit
import WaylandHost

/// One touch event as the plugin would send it.
enum FingerEvent {
    case down(TouchInput.ID, Point)
    case motion(TouchInput.ID, Point)
    case up(TouchInput.ID)
    case frame
    case cancel
}

func touchID(_ n: Int) -> TouchInput.ID { TouchInput.ID(source: .touchscreen, number: Int32(n)) }

/// The events of one `touch batch` (or `touch raw`) command.
func parseTouchCommand(_ command: String) -> [FingerEvent] {
    let words = command.split(separator: " ").dropFirst(2)
    var events: [FingerEvent] = []
    var i = words.startIndex
    func id(_ s: Substring) -> TouchInput.ID { touchID(Int(s)!) }
    func point(_ at: Int) -> Point { Point(x: Double(words[at])!, y: Double(words[at + 1])!) }
    while i < words.endIndex {
        switch words[i] {
        case "d":
            events.append(.down(id(words[i + 1]), point(i + 2)))
            i += 4
        case "m":
            events.append(.motion(id(words[i + 1]), point(i + 2)))
            i += 4
        case "u":
            events.append(.up(id(words[i + 1])))
            i += 2
        case "c":
            events.append(.cancel)
            i += 1
        default:  // "f"
            events.append(.frame)
            i += 1
        }
    }
    return events
}

final class Rig {
    /// The app's kind of clock, on real time (so that work spread over turns by a time budget is
    /// spread as in the app) unless told otherwise, plus the time `idle` skips (a long press's
    /// 0.6 s need not be waited).
    let clock: EventLoopClock
    private let skipped = Skipped()
    private final class Skipped { var seconds = 0.0 }
    let application: Application
    let window: Window
    let controller: DrawViewController
    let input: TouchInput
    private let buffers: [ImageSurface]
    private var stale: [DirtyRegion]
    /// The buffer painted last, which every other copies what it lacks from.
    private var shown: Int?
    private var next = 0
    /// Pixels repainted, summed over turns.
    private(set) var pixels = 0
    let width: Int, height: Int
    /// Buffer pixels per point.
    let scale: Double
    /// While set, each turn's thread CPU time is appended to `turnTimes`, and `pause` is slept
    /// before each turn (caches cool between turns as between a display's frames).
    var recordsTurns = false
    var turnTimes: [Double] = []
    /// The same turns' wall-clock times.
    var turnWallTimes: [Double] = []
    var pause: useconds_t = 0
    /// The edit menu, laid out and painted as the host's popup is, in the turn that shows it.
    private let menu = MenuPainter()
    /// How many times the edit menu was shown.
    var menusShown: Int { menu.shown }
    /// Whether touches carry predicted positions (A13), as in the app on a display that says when
    /// its frames are shown; off, as under a host without that feedback, unless set.
    var predicts = false {
        didSet { input.prediction.presentationLead = predicts ? { _ in Rig.presentationLead } : nil }
    }
    /// How long after its newest sample each frame is taken to be shown: about what the app learns
    /// on a 60 Hz display.
    static let presentationLead = 0.020

    /// A window of `width` x `height` showing `strokes`, with its whole line cache built and
    /// both buffers painted (none of that measured).
    init(strokes: [Stroke], width: Int, height: Int, scale: Double = 1, realTime: Bool = true) {
        self.width = width
        self.height = height
        self.scale = scale
        clock = EventLoopClock(now: { [skipped] in (realTime ? tt_monotonic_now() : 0) + skipped.seconds })
        application = Application(clock: clock)
        window = Window(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        application.addWindow(window)
        controller = DrawViewController(drawing: Drawing(strokes: strokes))
        window.rootViewController = controller
        input = TouchInput(application: application, window: window)
        application.menuController.presenter = menu
        // As the host's buffers: scale-1 images of the window's pixels, painted at `scale`.
        let pixels = ImageSurface.pixelSize(Size(width: Double(width), height: Double(height)), scale: scale)
        buffers = (0..<2).map { _ in ImageSurface(width: pixels.width, height: pixels.height) }
        let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        stale = buffers.map { _ in DirtyRegion([full]) }
        window.layoutIfNeeded()
        catchUp()
        // A big drawing's cache is drawn in slices on the clock: let it finish first.
        settle()
        catchUp()
    }

    /// Brings both buffers up to date, as the app's are once it has shown a few frames.
    func catchUp() {
        for _ in buffers.indices {
            window.setNeedsDisplay(inWindowRect: Rect(x: 0, y: 0, width: 1, height: 1))
            paint()
        }
    }

    /// Lets every timer due within `seconds` fire, a turn per millisecond while a cache build
    /// runs and otherwise one per 60 Hz frame, painting after each turn.
    func settle(seconds: Double = 0) {
        let end = clock.now + seconds
        while controller.drawView.isBuildingCache || controller.drawView.isRepairingCache || clock.now < end {
            let busy = controller.drawView.isBuildingCache || controller.drawView.isRepairingCache
            idle(busy ? 0.001 : min(1.0 / 60, max(end - clock.now, 0.001)))
        }
    }

    private func timed(_ body: () -> Void) {
        guard recordsTurns else { return body() }
        if pause > 0 { usleep(pause) }
        let wall = tt_monotonic_now()
        turnTimes.append(cpuTime(body))
        turnWallTimes.append(tt_monotonic_now() - wall)
    }

    /// Plays `events` into the adapter, as the host's seat does.
    func deliver(_ events: [FingerEvent]) {
        let time = clock.now
        for event in events {
            switch event {
            case .down(let id, let point): input.down(id, at: point, time: time)
            case .motion(let id, let point): input.motion(id, at: point, time: time)
            case .up(let id): input.up(id, time: time)
            case .frame: input.frame()
            case .cancel: input.cancel()
            }
        }
    }

    /// Paints what changed into the next buffer, as the host does after a batch of events. As
    /// there, a turn that changed nothing paints nothing: the other buffer catches up (copies)
    /// with the next frame that does.
    func paint() {
        let dirty = window.takeDirtyRegion()
        guard !dirty.isEmpty || window.liveLinesChanged else { return }
        let newest = shown.map { buffers[$0] }
        let painted = window.update(buffers[next], stale: stale[next], dirty: dirty, copyingFrom: newest, others: buffers, scale: scale)
        pixels += painted.reduce(0) { $0 + Int($1.width * $1.height) }
        shown = next
        stale[next] = DirtyRegion()
        for other in buffers.indices where other != next { stale[other].add(dirty) }
        next = (next + 1) % buffers.count
    }

    /// One turn of the event loop with input: deliver, then paint.
    func turn(_ events: [FingerEvent]) {
        timed {
            deliver(events)
            paint()
        }
    }

    /// One turn of the event loop with no input: the clock moves on by `seconds`, due timers
    /// fire, then the window paints.
    func idle(_ seconds: Double) {
        timed {
            advance(by: seconds)
            paint()
        }
    }

    /// Moves the clock on by `seconds` beyond real time and fires the timers then due.
    func advance(by seconds: Double) {
        skipped.seconds += seconds
        clock.fireDueTimers()
    }

    /// A turn that runs `action` (a key command, a menu item) and paints.
    func act(_ action: () -> Void) {
        timed {
            action()
            paint()
        }
    }
}

/// Paints the edit menu as the Wayland host's popup does when it opens (its own surface there, so
/// only its layout and pixels count here).
private final class MenuPainter: MenuPresenter {
    private(set) var shown = 0
    func presentMenu(_ items: [MenuController.Item], pointingAt rect: Rect, in window: Window) {
        _ = WaylandHost.menuPicture(titles: items.map(\.title), scale: 1)
        shown += 1
    }
    func dismissMenu() {}
}

/// CPU time of `body` in seconds, every thread's: work the app hands to other threads counts too
/// (no other thread of the benchmark runs meanwhile).
func cpuTime(_ body: () -> Void) -> Double {
    let start = tt_process_cpu_now()
    body()
    return tt_process_cpu_now() - start
}
