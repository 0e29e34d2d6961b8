// The app's work per touch frame without a compositor: the benchmark's ten fingers fed through
// TouchInput into the real window (DrawViewController), then the damaged region painted into
// window-sized buffers exactly as the Wayland host does (two buffers in turn, each repainting
// what changed since it was last shown: Weston lets go of a buffer when the next one is
// committed), paced at 60 Hz so caches cool between frames as in use.
// Times are the thread's CPU time: the cost itself, apart from scheduling and I/O.
import CShims
import Glibc
import Graphics
import TouchKit
import TouchTrackerKit

struct FramePaintingResult {
    /// Per frame: delivering the touches (recognizers, canvas), and painting.
    var input = makeLatencies()
    var paint = makeLatencies()
    var frames = 0
    /// Pixels repainted, summed over frames.
    var pixels = 0
}

func measureFramePainting(count: Int, width: Int, height: Int, frames: Int) -> FramePaintingResult {
    let clock = ManualClock()
    let application = Application(clock: clock)
    let window = Window(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    application.addWindow(window)
    let canvas = Area(x: 0, y: 0, width: Double(width), height: Double(height - 130))
    let controller = DrawViewController(drawing: Drawing(strokes: strokes(randomLines(count: count, in: canvas, seed: 7))))
    window.rootViewController = controller
    let input = TouchInput(application: application, window: window)
    let buffers = (0..<2).map { _ in ImageSurface(width: width, height: height) }
    let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    var stale = buffers.map { _ in DirtyRegion([full]) }
    window.layoutIfNeeded()
    _ = window.takeDirtyRegion()
    for (i, buffer) in buffers.enumerated() {  // the first frames: whole buffers, not measured
        window.paint(stale[i], into: buffer, scale: 1)
        stale[i] = DirtyRegion()
    }
    // A big drawing's cache is drawn in slices on the clock: let it finish first, unmeasured.
    while controller.drawView.isBuildingCache {
        clock.advance(by: 0.001)
        let dirty = window.takeDirtyRegion()
        for i in buffers.indices { stale[i].add(dirty) }
    }
    for (i, buffer) in buffers.enumerated() {
        window.paint(stale[i], into: buffer, scale: 1)
        stale[i] = DirtyRegion()
    }

    var fingers = Fingers(area: Area(x: 0, y: 40, width: Double(width), height: Double(height - 170)), seed: 42)
    var result = FramePaintingResult()
    for frame in 0..<frames {
        let time = Double(frame) / 60
        clock.advance(by: 1.0 / 60)
        usleep(12_000)  // as at 60 Hz: the caches cool down between frames, as they do in use
        // The fingers' next positions, parsed before the clock starts: that is the benchmark's
        // work, not the app's.
        let events = parse(fingers.frame(at: time))
        let start = tt_thread_cpu_now()
        deliver(events, to: input, time: time)
        let delivered = tt_thread_cpu_now()
        var dirty = window.takeDirtyRegion()
        let index = frame % buffers.count
        var region = stale[index]
        region.add(dirty)
        window.paint(region, into: buffers[index], scale: 1)
        result.pixels += region.rects.reduce(0) { $0 + Int($1.width * $1.height) }
        stale[index] = DirtyRegion()
        for other in buffers.indices where other != index { stale[other].add(dirty) }
        dirty = DirtyRegion()
        let painted = tt_thread_cpu_now()
        _ = result.input.record(UInt64(max(1, (delivered - start) * 1e6)))
        _ = result.paint.record(UInt64(max(1, (painted - delivered) * 1e6)))
        result.frames += 1
    }
    return result
}

/// One touch event of a `touch batch` command, as the plugin would send it.
private enum FingerEvent {
    case down(TouchInput.ID, Point)
    case motion(TouchInput.ID, Point)
    case up(TouchInput.ID)
    case frame
}

/// The events of one `touch batch` command.
private func parse(_ command: String) -> [FingerEvent] {
    let words = command.split(separator: " ").dropFirst(2)
    var events: [FingerEvent] = []
    var i = words.startIndex
    func id(_ s: Substring) -> TouchInput.ID { TouchInput.ID(source: .touchscreen, number: Int32(s)!) }
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
        default:  // "f"
            events.append(.frame)
            i += 1
        }
    }
    return events
}

/// Plays the events into `input`, as the host's seat does.
private func deliver(_ events: [FingerEvent], to input: TouchInput, time: Double) {
    for event in events {
        switch event {
        case .down(let id, let point): input.down(id, at: point, time: time)
        case .motion(let id, let point): input.motion(id, at: point, time: time)
        case .up(let id): input.up(id, time: time)
        case .frame: input.frame()
        }
    }
}
