// Helpers for the trace tests: a trace's entries played into the app's canvas, as
// `touchtracker replay` plays them, and the fingers down after each frame.
import TouchKit
import TouchTrackerKit
@testable import InputReplay

enum TraceReplaying {
    /// The strokes `entries` draw in a `width` x `height` window with `tool`.
    static func strokes(_ entries: [RecordingEntry], width: Double = 1024, height: Double = 768,
                        tool: DrawView.Tool = .line) -> [Stroke] {
        let clock = ReplayClock(now: 0)
        let window = Window(frame: Rect(x: 0, y: 0, width: width, height: height))
        let controller = DrawViewController()
        controller.preferences = Preferences.parse("tool = \(tool.rawValue)\n").preferences
        let application = Application(clock: clock)
        application.addWindow(window)
        window.rootViewController = controller
        let target = ReplayTarget(input: TouchInput(application: application, window: window))
        Replayer.playHeadless(entries, into: target, clock: clock)
        return controller.drawView.drawing.strokes
    }

    /// How many fingers are down after each frame of `entries`.
    static func fingersAfterEachFrame(_ entries: [RecordingEntry]) -> [Int] {
        var down = Set<Int32>()
        var counts: [Int] = []
        for case .input(let event) in entries {
            switch event {
            case let .down(id, _, _, _, _): down.insert(id.number)
            case let .up(id, _): down.remove(id.number)
            case .cancel: down.removeAll()
            case .frame: counts.append(down.count)
            default: break
            }
        }
        return counts
    }

    /// The down positions of `entries`.
    static func landings(_ entries: [RecordingEntry]) -> [Point] {
        entries.compactMap { if case .input(.down(_, let p, _, _, _)) = $0 { p } else { nil } }
    }

    /// The positions of every down and motion.
    static func positions(_ entries: [RecordingEntry]) -> [Point] {
        entries.compactMap { entry in
            switch entry {
            case .input(.down(_, let p, _, _, _)), .input(.motion(_, let p, _, _)): p
            default: nil
            }
        }
    }
}
