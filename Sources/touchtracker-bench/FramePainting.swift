// The app's work per touch frame without a compositor: the benchmark's ten fingers fed through
// the Rig (TouchInput into the real window, painted as the host paints), paced at 60 Hz so
// caches cool between frames as in use. Times are the thread's CPU time: the cost itself, apart
// from scheduling and I/O.
import CShims
import Glibc
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

func measureFramePainting(strokes: [Stroke], width: Int, height: Int, scale: Double = 1, frames: Int) -> FramePaintingResult {
    let rig = Rig(strokes: strokes, width: width, height: height, scale: scale)
    let pixelsBefore = rig.pixels
    var fingers = Fingers(area: Area(x: 0, y: 40, width: Double(width), height: Double(height - 170)), seed: 42)
    var result = FramePaintingResult()
    for frame in 0..<frames {
        let time = Double(frame) / 60
        rig.advance(by: 1.0 / 60)
        usleep(12_000)  // as at 60 Hz: the caches cool down between frames, as they do in use
        // The fingers' next positions, parsed before the clock starts: that is the benchmark's
        // work, not the app's.
        let events = parseTouchCommand(fingers.frame(at: time))
        let start = tt_thread_cpu_now()
        rig.deliver(events)
        let delivered = tt_thread_cpu_now()
        rig.paint()
        let painted = tt_thread_cpu_now()
        _ = result.input.record(UInt64(max(1, (delivered - start) * 1e6)))
        _ = result.paint.record(UInt64(max(1, (painted - delivered) * 1e6)))
        result.frames += 1
    }
    result.pixels = rig.pixels - pixelsBefore
    return result
}
