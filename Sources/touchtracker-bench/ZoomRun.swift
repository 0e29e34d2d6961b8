// The zoom phase in process: with Fingers off, two fingers pinch the canvas in and out and pan
// it, on the Rig (the real window, scroll view and line cache, painted into the host's kind of
// buffers), at 60 Hz on real time. Between two touch frames the turns the app would run anyway
// run too (a cache build or repair is due at once, so the event loop keeps turning until the
// frame's slot is spent), then the rest of the slot is slept. Each turn's CPU and wall time is
// recorded; after the fingers stop, the time until the picture is sharp (no cache build or tile
// repair left, no older raster shown scaled, no scroll or zoom animation), the heap and the line
// cache's rasters (shared memory of their own) then and once the window was left alone for 2.5 s.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Graphics
import TouchKit
import TouchTrackerKit

/// One gesture of the zoom phase, on one drawing.
struct ZoomStep {
    var drawing: String
    var gesture: String
    /// The zoom once the picture is sharp.
    var zoom: Double
    /// CPU (every thread's) and wall time of every turn from the first touch to the sharp picture.
    var turnTimes: [Double] = []
    var turnWallTimes: [Double] = []
    /// Seconds from the fingers' last motion to the sharp picture (nil: not sharp within the wait).
    var sharpAfter: Double?
    /// CPU of the turns from the fingers' stop until sharp: the rebuild's cost, which the wall
    /// time above stretches when the machine is busy.
    var cpuAfterStop = 0.0
    /// Heap in use once sharp, above what it was before the window was made (the drawing's own
    /// strokes and index excluded): the canvas's rasters and the window's buffers.
    var heapBytes: Int
    /// The same once the window was left alone for 2.5 s, as the sizes phase measures memory
    /// once input stops (a raster let go during the gesture is kept a second for the next one);
    /// nil where not measured.
    var idleHeapBytes: Int?
    /// Building the drawing's hit-test index (on another thread as a big drawing opens), timed
    /// on its own before the gestures.
    var indexBuild = 0.0
}

/// The gestures, each a path of two fingers in the window's points: where they are at `t` (0...1).
private struct TwoFingerPath {
    var name: String
    var frames: Int
    var fingers: (Double) -> (Point, Point)
}

/// The heap's bytes in use and the line cache's rasters, which live in shared memory of their own.
private func heldBytes() -> Int { Int(tt_heap_bytes_in_use()) + ImageSurface.scrollableBytes }

/// ``heldBytes()`` once it stops changing: the rig's clock skips idle time, but a raster let go is
/// freed on another thread (LineCache's `letGo`) in real time, which the skipped seconds never gave
/// it. Read every 20 ms until two readings agree, for at most a second.
private func settledHeldBytes() -> Int {
    var last = heldBytes()
    for _ in 0..<50 {
        usleep(20_000)
        let now = heldBytes()
        if now == last { return now }
        last = now
    }
    return last
}

/// Plays the zoom gestures on each drawing at `hz` touch frames a second.
func measureZoom(drawings: [(name: String, strokes: [Stroke])], width: Int, height: Int, scale: Double, hz: Double = 60,
                 seconds: Double = 1) -> [ZoomStep] {
    var steps: [ZoomStep] = []
    let frames = max(Int(seconds * hz), 10)
    for (name, strokes) in drawings {
        let before = heldBytes()
        let rig = Rig(strokes: strokes, width: width, height: height, scale: scale)
        let view = rig.controller.drawView
        view.drawsWithFingers = false
        // A big drawing's hit-test index is built on another thread as it opens, a small one's
        // on its first query: both done before the gestures, so the rows show the gestures, and
        // the build timed on its own.
        _ = view.drawing.stroke(near: .zero, within: 1)
        let indexBuild = cpuTime { _ = SpatialIndex(strokes) }
        let scroll = rig.controller.scrollView
        let centre = Point(x: scroll.bounds.width / 2, y: scroll.bounds.height / 2)
        // Fingers slow to a stop over the last quarter (a hand ends a pinch or a drag so, and a
        // flick would glide on), hold still a tenth of a second, then lift.
        func eased(_ t: Double) -> Double { t < 0.75 ? t / 0.875 : (t - 2 * (t - 0.75) * (t - 0.75)) / 0.875 }
        func pinch(_ name: String, from: Double, to: Double) -> TwoFingerPath {
            TwoFingerPath(name: name, frames: frames) { t in
                let half = (from + (to - from) * eased(t)) / 2
                return (centre.offsetBy(dx: -half, dy: 0), centre.offsetBy(dx: half, dy: 0))
            }
        }
        let (reach, spread) = TouchTrackerBench.panFit(width: scroll.bounds.width, height: scroll.bounds.height)
        func pan(_ name: String, by travel: Point) -> TwoFingerPath {
            let travel = Point(x: travel.x * reach.x, y: travel.y * reach.y)
            return TwoFingerPath(name: name, frames: frames) { t in
                let start = centre.offsetBy(dx: -travel.x / 2, dy: -travel.y / 2)
                let at = start.offsetBy(dx: travel.x * eased(t), dy: travel.y * eased(t))
                return (at.offsetBy(dx: -spread, dy: 0), at.offsetBy(dx: spread, dy: 0))
            }
        }
        let span = min(scroll.bounds.width - 40, 800)
        let gestures = [
            pan("two-finger pan at 100 %", by: Point(x: -600, y: -200)),
            pinch("pinch in, 100 % to 800 %", from: span / 8, to: span),
            pan("two-finger pan at 800 %", by: Point(x: 600, y: 200)),
            pinch("pinch out, 800 % to 100 %", from: span, to: span / 8),
            // Half a point short of 10 %: touch coordinates rounded on their way (Weston's are
            // 24.8 fixed point) would take the pinch past the limit, and its spring back is no rebuild.
            pinch("pinch out, 100 % to 10 %", from: span, to: span / 10 + 0.5),
            pan("two-finger pan at 10 %", by: Point(x: 600, y: 200)),
        ]
        for gesture in gestures {
            let idle = gesture.name.contains("pinch in") || gesture.name.contains("to 10 %")
            var step = play(gesture, on: rig, hz: hz, drawing: name, heldBefore: before, measuresIdle: idle)
            step.indexBuild = indexBuild
            steps.append(step)
        }
        withExtendedLifetime(rig) {}
    }
    return steps
}

private func play(_ gesture: TwoFingerPath, on rig: Rig, hz: Double, drawing: String, heldBefore: Int,
                  measuresIdle: Bool) -> ZoomStep {
    let view = rig.controller.drawView
    let scroll = rig.controller.scrollView
    let period = 1 / hz
    rig.turnTimes = []
    rig.turnWallTimes = []
    rig.pause = 0
    rig.recordsTurns = true
    // Sharp: no cache work and no older raster left, no scroll or zoom animation (a pinch held
    // still is sharp). `sharpSince`: when it last became so.
    func sharp() -> Bool { !view.isBuildingCache && !view.isRepairingCache && !scroll.isDecelerating && !scroll.isZoomBouncing }
    var sharpSince: Double?
    func observe() {
        if !sharp() { sharpSince = nil } else if sharpSince == nil { sharpSince = tt_monotonic_now() }
    }
    /// One frame's slot: the touch frame's turn, the turns due after it, then sleep. As in the
    /// app's loop, a turn runs when a timer is due, and the loop sleeps until one is.
    func slot(_ events: [FingerEvent]) {
        let start = tt_monotonic_now()
        rig.turn(events)
        observe()
        while view.isBuildingCache || view.isRepairingCache, tt_monotonic_now() - start < period {
            if let due = rig.clock.nextDeadline, due > rig.clock.now {
                let wait = min(due - rig.clock.now, period - (tt_monotonic_now() - start))
                if wait > 0 { usleep(useconds_t(wait * 1e6)) }
                continue
            }
            rig.idle(0)
            observe()
        }
        let left = period - (tt_monotonic_now() - start)
        if left > 0 { usleep(useconds_t(left * 1e6)) }
    }
    let (a0, b0) = gesture.fingers(0)
    slot([.down(touchID(0), a0), .down(touchID(1), b0), .frame])
    for n in 1...gesture.frames {
        let (a, b) = gesture.fingers(Double(n) / Double(gesture.frames))
        slot([.motion(touchID(0), a), .motion(touchID(1), b), .frame])
    }
    let stopped = tt_monotonic_now()
    let turnsBeforeStop = rig.turnTimes.count
    // Still for a tenth of a second, then lifted; then the turns the loop runs at once while
    // work is due, a frame's wait otherwise (an animation's next step), for at most five seconds.
    for _ in 0..<max(Int(0.1 * hz), 1) { slot([]) }
    slot([.up(touchID(0)), .up(touchID(1)), .frame])
    while !sharp(), tt_monotonic_now() - stopped < 5 { slot([]) }
    let sharpAfter = sharp() ? sharpSince.map { max($0 - stopped, 0) } : nil
    rig.recordsTurns = false
    var step = ZoomStep(drawing: drawing, gesture: gesture.name, zoom: view.viewport.zoom, sharpAfter: sharpAfter,
                        heapBytes: heldBytes() - heldBefore)
    step.turnTimes = rig.turnTimes
    step.turnWallTimes = rig.turnWallTimes
    step.cpuAfterStop = rig.turnTimes[turnsBeforeStop...].reduce(0, +)
    // Cool down between gestures, unmeasured.
    rig.settle(seconds: measuresIdle ? 2.5 : 0.2)
    if measuresIdle { step.idleHeapBytes = settledHeldBytes() - heldBefore }
    return step
}

extension TouchTrackerBench {
    func zoomTable(targets: inout Targets) {
        // As the app sets its allocator (TouchTracker.swift): blocks of 512 KiB and more are
        // mapped and given back when freed, so a raster made anew costs its page faults here too,
        // as it does in the app (glibc's default would hand the last one's pages back at no cost).
        tt_return_big_blocks(512 * 1024)
        let seconds = quick ? 0.5 : 1.0
        let hz = 60.0
        say("\n## Zoom and pan, in process, \(screen) (Fingers off; two fingers, \(seconds) s a gesture at \(Int(hz)) Hz, slowing to a stop, still 0.1 s, lifted; CPU of every thread per turn of the event loop, ms)")
        let drawingArea = Area(x: 0, y: 0, width: Double(screen.points.width), height: Double(screen.points.height - 130))
        let drawings: [(name: String, strokes: [Stroke])] = [CanvasDrawing.empty, .sketch(60), .short(100_000), .dense(denseLines)].map {
            ($0.name, $0.strokes(in: drawingArea))
        }
        let steps = measureZoom(drawings: drawings, width: screen.points.width, height: screen.points.height,
                                scale: scale, hz: hz, seconds: seconds)
        let bufferBytes = screen.width * screen.height * 4
        let limit = 3 * bufferBytes + 20 << 20
        let interval = 1 / hz
        say("drawing / gesture                          zoom    turns   CPU p50   p99     max    turns >8 ms  >\(String(format: "%.1f", interval * 1000)) ms (wall)   sharp after   its CPU   CPU in all   heap and rasters (MiB): sharp, 2.5 s idle")
        var lastDrawing = ""
        for step in steps {
            if step.drawing != lastDrawing {
                say(step.drawing + (step.indexBuild > 0.001 ? String(format: " (its hit-test index, built on its own: %.1f ms)", step.indexBuild * 1000) : ""))
                lastDrawing = step.drawing
            }
            var h = makeLatencies()
            for t in step.turnTimes { _ = h.record(UInt64(max(1, t * 1e6))) }
            let over8 = step.turnWallTimes.count { $0 > 0.008 }
            let overInterval = step.turnWallTimes.count { $0 > interval }
            let sharp = step.sharpAfter.map { String(format: "%.0f ms", $0 * 1000) } ?? "> 5 s"
            say("  " + pad(step.gesture, 41) + pad(String(format: "%.0f %%", step.zoom * 100), 8) + pad("\(step.turnTimes.count)", 8)
                + pad(formatMs(h.p50), 10) + pad(formatMs(h.p99), 8) + pad(formatMs(h.maxMilliseconds), 7)
                + pad("\(over8)", 13) + pad("\(overInterval)", 16) + pad(sharp, 14) + pad(String(format: "%.0f ms", step.cpuAfterStop * 1000), 10)
                + pad(String(format: "%.0f ms", step.turnTimes.reduce(0, +) * 1000), 13) + String(format: "%.1f", Double(step.heapBytes) / 1_048_576)
                + (step.idleHeapBytes.map { String(format: ", %.1f", Double($0) / 1_048_576) } ?? ""))
            // The targets are the big drawings'; the empty canvas and the sketch show what paper costs.
            guard ![CanvasDrawing.empty.name, CanvasDrawing.sketch(60).name].contains(step.drawing) else { continue }
            let what = "\(step.gesture), \(step.drawing)"
            targets.add(h.p99 <= 4 && h.maxMilliseconds <= 8,
                        "zoom, \(what): CPU per turn p99 \(formatMs(h.p99)) ms, max \(formatMs(h.maxMilliseconds)) ms (p99 at most 4 ms, none over 8 ms)")
            targets.add((step.sharpAfter ?? .infinity) <= 0.1, "zoom, \(what): sharp \(sharp) after the fingers stopped (at most 100 ms)")
            if let idle = step.idleHeapBytes {
                targets.add(idle <= limit, "zoom, \(what): heap and rasters of the window and its canvas at \(String(format: "%.0f %%", step.zoom * 100)) once input stops (2.5 s idle) \(String(format: "%.1f", Double(idle) / 1_048_576)) MiB, \(String(format: "%.1f", Double(step.heapBytes) / 1_048_576)) MiB as it turned sharp (at most 3 buffers + 20 MiB = \(String(format: "%.1f", Double(limit) / 1_048_576)) MiB once input stops)")
            }
        }
    }
}

extension TouchTrackerBench {
    /// How much of a pan's travel (x and y) and how far apart its two fingers (from their middle)
    /// fit a canvas `width` x `height` points: the travel is the 1080p canvas's (1920x950 pt) share
    /// of the window, so on a phone the fingers start on the screen and the view they leave
    /// still lies over the drawing (a 600 pt pan there moved it off the drawing's side, and the
    /// pan at 800 % then moved paper alone: nothing to commit). Both zoom phases pan this way.
    static func panFit(width: Double, height: Double) -> (reach: (x: Double, y: Double), spread: Double) {
        ((x: min(1, width / 1920), y: min(1, height / 950)), min(100, width / 6))
    }
}
