// What each kind of input costs the app in process, through the real TouchKit and TouchTrackerKit
// code on the Rig: ten fingers moving (on the empty canvas and on the dense drawing), and each
// gesture on the dense drawing, played as a hand plays it (taps 50 ms long, a 0.6 s long press,
// turns of the event loop at 60 Hz while nothing arrives). The same sequence is timed (thread CPU
// per turn of the event loop) and counted under callgrind (Callgrind.swift).
import TouchKit
import TouchTrackerKit

/// One measured step: `units` frames or gestures, `events` touch point events among them.
struct GestureStep {
    var name: String
    var unit: String
    var units: Int
    var events: Int
    /// Turns of the event loop and their CPU times, every thread's (timed runs only).
    var turnTimes: [Double] = []
    /// The same turns' wall-clock times.
    var turnWallTimes: [Double] = []
}

/// Runs the sequence, calling `measure` around each measured part (preparation happens outside).
/// `measure(step, body)` must run `body` exactly once.
/// `realTime`: the app's clock runs on real time as well as the sequence's skips (see Rig).
func runGestureSequence(width: Int, height: Int, scale: Double = 1, frames: Int, denseLines: Int, realTime: Bool = true,
                        measure: (GestureStep, () -> Void) -> Void, rigReady: (Rig) -> Void = { _ in }) {
    let canvas = Area(x: 0, y: 0, width: Double(width), height: Double(height - 130))
    let fingerArea = Area(x: 0, y: 40, width: Double(width), height: Double(height - 170))

    func tenFingers(_ rig: Rig, name: String) {
        var fingers = Fingers(area: fingerArea, seed: 42)
        let commands = (0..<frames).map { parseTouchCommand(fingers.frame(at: Double($0) / 60)) }
        let events = commands.reduce(0) { $0 + $1.count { if case .frame = $0 { false } else { true } } }
        measure(GestureStep(name: name, unit: "frame", units: frames, events: events)) {
            for frame in commands {
                rig.turn(frame)
                rig.idle(1.0 / 60)
            }
        }
        if let lift = fingers.liftAll() { rig.turn(parseTouchCommand(lift)) }
        rig.settle(seconds: 0.5)
    }

    // The ramp's stream (RampRun.swift): fingers flying across the canvas at up to 2,500 pt/s, so
    // every frame moves several lines hundreds of points long. At 240 Hz, a frame moves them a
    // little; at 27 Hz (the ramp's first step, 250 events/s) most frames also land or lift a
    // finger and move each line up to 90 points.
    func fastFingers(_ rig: Rig, hz: Double, name: String) {
        var stream = RandomStream(area: fingerArea, seed: 7)
        // A second of it first, unmeasured, so that every finger is down and its line long.
        let warmup = Int(hz)
        for n in 0..<warmup {
            rig.turn(parseTouchCommand(stream.frame(at: Double(n) / hz, dt: 1 / hz)))
            rig.idle(1 / hz)
        }
        let count = max(frames * Int(hz) / 240, 120)
        let commands = (warmup..<warmup + count).map { parseTouchCommand(stream.frame(at: Double($0) / hz, dt: 1 / hz)) }
        let events = commands.reduce(0) { $0 + $1.count { if case .frame = $0 { false } else { true } } }
        measure(GestureStep(name: name, unit: "frame", units: count, events: events)) {
            for frame in commands {
                rig.turn(frame)
                rig.idle(1 / hz)
            }
        }
        if let lift = stream.liftAll() { rig.turn(parseTouchCommand(lift)) }
        rig.settle(seconds: 0.5)
    }

    do {
        let rig = Rig(strokes: [], width: width, height: height, scale: scale, realTime: realTime)
        rigReady(rig)
        tenFingers(rig, name: "ten fingers moving, empty canvas")
    }
    do {
        let rig = Rig(strokes: [], width: width, height: height, scale: scale, realTime: realTime)
        rig.predicts = true
        rigReady(rig)
        tenFingers(rig, name: "ten fingers moving, empty canvas, predicted")
    }

    let rig = Rig(strokes: CanvasDrawing.dense(denseLines).strokes(in: canvas), width: width, height: height,
                  scale: scale, realTime: realTime)
    rigReady(rig)
    tenFingers(rig, name: "ten fingers moving, dense drawing")
    fastFingers(rig, hz: 240, name: "fast fingers, long lines (the ramp's stream), dense drawing")
    fastFingers(rig, hz: 27, name: "fast fingers at 27 frames/s (the ramp at 250 events/s), dense drawing")
    let view = rig.controller.drawView
    let drawing = view.drawing

    func tap(_ p: Point, id: Int = 0) {
        rig.turn([.down(touchID(id), p), .frame])
        rig.idle(0.05)
        rig.turn([.up(touchID(id)), .frame])
    }
    func gesture(_ name: String, events: Int, _ body: @escaping () -> Void) {
        measure(GestureStep(name: name, unit: "gesture", units: 1, events: events), body)
    }
    // Lines in the middle of the canvas, away from its edges and the toolbar.
    let middle = Rect(x: canvas.width * 0.25, y: canvas.height * 0.25, width: canvas.width / 2, height: canvas.height / 2)
    let targets = drawing.strokes.filter { middle.contains($0.bounds.center) }.map { $0.bounds.center }
    let target = targets.first ?? Point(x: canvas.width / 2, y: canvas.height / 2)
    let dragTarget = targets.dropFirst().first ?? target
    // A spot no line is near, if the dense drawing leaves one.
    var empty: Point?
    search: for y in stride(from: 60.0, to: canvas.height - 20, by: 10) {
        for x in stride(from: 20.0, to: canvas.width - 20, by: 10) where drawing.stroke(near: Point(x: x, y: y), within: 30) == nil {
            empty = Point(x: x, y: y)
            break search
        }
    }

    // A tap on a line selects it, once the double tap has failed.
    let menus = rig.menusShown
    gesture("select (tap a line; the Delete popup opens)", events: 2) {
        tap(target)
        rig.settle(seconds: 0.5)
    }
    if view.selectedStrokeID == nil { say("  (warning: the tap selected no line)") }
    if rig.menusShown == menus { say("  (warning: the tap opened no edit menu)") }
    if let empty {
        gesture("deselect (tap where no line is)", events: 2) {
            tap(empty)
            rig.settle(seconds: 0.5)
        }
    } else {
        gesture("deselect (Escape: no spot free of lines)", events: 0) {
            rig.act { rig.controller.perform(.cancel) }
        }
    }
    tap(target)
    rig.settle(seconds: 0.5)
    gesture("delete the selected line", events: 0) {
        rig.act { rig.controller.perform(.deleteSelection) }
        rig.settle(seconds: 0.1)
    }
    // Long press (0.6 s), then a drag of 30 frames, then the drop.
    gesture("move (long-press drag)", events: 32) {
        rig.turn([.down(touchID(0), dragTarget), .frame])
        rig.settle(seconds: 0.7)
        for step in 1...30 {
            rig.turn([.motion(touchID(0), dragTarget.offsetBy(dx: Double(step) * 4, dy: Double(step) * 2)), .frame])
            rig.idle(1.0 / 60)
        }
        rig.turn([.up(touchID(0)), .frame])
        rig.settle(seconds: 0.3)
    }
    let before = drawing.strokes.count
    gesture("clear (double tap)", events: 4) {
        tap(target)
        rig.idle(0.1)
        tap(target)
        rig.settle(seconds: 0.5)
    }
    if drawing.strokes.count != 0 { say("  (warning: the double tap left \(drawing.strokes.count) of \(before) lines)") }
    gesture("undo the clear (and the cache rebuilt)", events: 0) {
        rig.act { rig.controller.perform(.undo) }
        rig.settle(seconds: 0.1)
    }
    let start = Point(x: canvas.width / 2 - 60, y: canvas.height * 0.7)
    gesture("show the palette (three-finger swipe up)", events: 21) {
        rig.turn((0..<3).map { .down(touchID($0), start.offsetBy(dx: Double($0) * 60, dy: 0)) } + [.frame])
        for step in 1...5 {
            rig.idle(1.0 / 60)
            rig.turn((0..<3).map { .motion(touchID($0), start.offsetBy(dx: Double($0) * 60, dy: -Double(step) * 20)) } + [.frame])
        }
        rig.turn((0..<3).map { .up(touchID($0)) } + [.frame])
        rig.settle(seconds: 0.3)
    }
    if !rig.controller.isPaletteVisible { say("  (warning: the swipe did not show the palette)") }
    rig.controller.isPaletteVisible = false
    rig.settle(seconds: 0.1)

    // The whole build a pinch back to 100 % waits for, on the zoom phase's 100,000 short lines,
    // piled tens of times over at 4K: cleared unmeasured, the undo measured.
    do {
        let lines = 100_000
        let rig = Rig(strokes: CanvasDrawing.short(lines).strokes(in: canvas), width: width, height: height,
                      scale: scale, realTime: realTime)
        rigReady(rig)
        rig.act { rig.controller.drawView.clearAll() }
        rig.settle(seconds: 0.5)
        measure(GestureStep(name: "undo a clear of 100,000 lines (the cache rebuilt)", unit: "gesture", units: 1, events: 0)) {
            rig.act { rig.controller.perform(.undo) }
            rig.settle(seconds: 0.5)
        }
        let drawn = rig.controller.drawView.drawing.strokes.count
        if drawn != lines { say("  (warning: the undo brought back \(drawn) of \(lines) lines)") }
    }

    // The short-lines ramp's stream (ShortLinesRun.swift) at 2,000 lines a second on an empty
    // canvas: each line its own down, motion and up, a turn each, so most turns begin or end a
    // touch. The same number of lines first, unmeasured: what the first line of a run sets up once.
    do {
        let rig = Rig(strokes: [], width: width, height: height, scale: scale, realTime: realTime)
        rigReady(rig)
        var stream = ShortLinesStream(area: fingerArea, seed: 11)
        let rate = 2_000 * ShortLinesStream.eventsPerLine
        func play(_ commands: [[FingerEvent]]) {
            for frame in commands {
                rig.turn(frame)
                rig.idle(1 / rate)
            }
        }
        let lines = frames
        let turns = lines * Int(ShortLinesStream.eventsPerLine)
        play((0..<turns).map { parseTouchCommand(stream.frame(at: Double($0) / rate, dt: 1 / rate)) })
        rig.settle(seconds: 0.5)
        let commands = (0..<turns).map { parseTouchCommand(stream.frame(at: Double(turns + $0) / rate, dt: 1 / rate)) }
        measure(GestureStep(name: "short lines at 2,000 lines/s, empty canvas", unit: "line", units: lines, events: turns)) {
            play(commands)
        }
        let drawn = rig.controller.drawView.drawing.strokes.count
        if drawn != 2 * lines { say("  (warning: \(drawn) of \(2 * lines) short lines drawn)") }
    }
}

/// The sequence timed in process: CPU (every thread's) and wall time per turn of the event loop,
/// with a pause before each turn so caches cool as between a display's frames.
func measureGestureCPU(width: Int, height: Int, scale: Double = 1, frames: Int, denseLines: Int) -> [GestureStep] {
    var steps: [GestureStep] = []
    var current: Rig?
    runGestureSequence(width: width, height: height, scale: scale, frames: frames, denseLines: denseLines, measure: { step, body in
        guard let rig = current else { return body() }
        rig.turnTimes = []
        rig.turnWallTimes = []
        rig.recordsTurns = true
        rig.pause = 8_000
        body()
        rig.recordsTurns = false
        var step = step
        step.turnTimes = rig.turnTimes
        step.turnWallTimes = rig.turnWallTimes
        steps.append(step)
    }, rigReady: { current = $0 })
    return steps
}
