// Drawing at a zoom under Weston: the screens phase's ten fingers at 60 and 120 Hz with the canvas
// opened at 50 %, 200 % and 800 % (the drawing's view kept in the session's views file, as a
// restart finds it), on the empty canvas and on 100,000 lines, beside weston-simple-touch in the
// same run. A line drawn zoomed in is stored at the drawing's scale and shown at the zoom's; one
// drawn zoomed out reaches across more of the drawing: every existing latency target holds at any
// zoom.
import Foundation
import TouchKit
import TouchTrackerKit
import CompositorHarness

extension TouchTrackerBench {
    // 100 %: the same run's own control, the screens and cadences phases' case.
    static let drawingZooms: [Double] = [0.5, 1, 2, 8]

    func zoomDrawingSweep(appPath: String, targets: inout Targets) throws {
        let seconds = cadenceSeconds ?? (quick ? 1.5 : 4)
        let minimum = quick ? 0 : Self.cadenceFrames
        let cadences = Self.screenCadences
        say("\n## Drawing at a zoom under Weston, \(screen): ten fingers at \(cadences.map { "\(Int($0))" }.joined(separator: " and ")) Hz, the canvas opened at \(Self.drawingZooms.map { String(format: "%.0f %%", $0 * 100) }.joined(separator: ", ")), beside weston-simple-touch (ms)")
        let reference = noReference ? nil : try measureCadences(.reference, cadences: cadences, seconds: seconds,
                                                                minimumFrames: minimum, jitter: jitter)
        say("drawing          zoom    Hz    app input→commit p50  p99     input→repaint median app / simple-touch   p99 app / simple-touch")
        for drawing in [CanvasDrawing.empty, .short(100_000)] {
            for zoom in Self.drawingZooms {
                // The canvas's top left at the drawing's origin, where the benchmark's drawings
                // begin: zoomed in, the window shows a corner of the 100,000 lines.
                let view = CanvasViewport(origin: .zero, zoom: zoom)
                let app = try measureCadences(.app(path: appPath, drawing: drawing), cadences: cadences, seconds: seconds,
                                              minimumFrames: minimum, jitter: jitter, view: view)
                let what = "\(drawing.name) at \(String(format: "%.0f %%", zoom * 100))"
                if let failure = app.failure {
                    say(pad(drawing.name, 17) + "the app failed: \(failure)")
                    targets.add(false, "ten fingers, \(what): the app failed (\(failure))")
                    continue
                }
                for hz in cadences {
                    guard let mine = app.at(hz)?.latency else { continue }
                    reportAgainstReference(mine, reference?.at(hz)?.latency,
                                           row: pad(drawing.name, 17) + pad(String(format: "%.0f %%", zoom * 100), 8) + pad("\(Int(hz))", 6),
                                           what: "ten fingers at \(Int(hz)) Hz, \(what)", targets: &targets)
                }
            }
        }
    }
}
