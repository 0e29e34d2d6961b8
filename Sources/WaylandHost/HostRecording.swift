// `--record` and `--replay` on the live host: what a recording is told of the running app, and a
// recording played into the window on the app's own clock. InputReplay holds the format, the turns
// of a recording and the headless replay; the host feeds both types below from its loop.
import InputReplay
import TouchKit

/// Tells the recorder every call into the input adapter, each turn of the loop and firing of
/// timers, keys, the edit menu's choices and the window's geometry, in order (`--record`). A
/// turn's start and its batch are written only once something happens in it: most turns (a frame
/// callback, a release) read no input.
final class InputRecording {
    private let write: (RecordingEntry) -> Void
    private var unwrittenTurn: Double?
    private var unwrittenBatch = false
    private var recordedGeometry: RecordingEntry?

    init(_ write: @escaping (RecordingEntry) -> Void) {
        self.write = write
    }

    func record(_ entry: RecordingEntry) {
        switch entry {
        case .turn(let t):
            unwrittenTurn = t
            unwrittenBatch = false
            return
        case .input(.beginBatch):
            unwrittenBatch = true
            return
        case .input(.endBatch) where unwrittenBatch:
            unwrittenBatch = false
            unwrittenTurn = nil
            return
        case .timers:
            break
        default:
            if let t = unwrittenTurn { write(.turn(t)) }
            if unwrittenBatch { write(.input(.beginBatch)) }
            unwrittenTurn = nil
            unwrittenBatch = false
        }
        write(entry)
    }

    /// Records the window's geometry (a `.window` entry) when it changed since last recorded.
    func recordGeometry(_ entry: RecordingEntry) {
        guard entry != recordedGeometry else { return }
        recordedGeometry = entry
        record(entry)
    }
}

/// Plays entries (a recording, or a device trace read onto the window) into the live window
/// (`--replay`) at their original pace divided by `speed` (0: one turn of the recording per turn
/// of the loop, as fast as they go), through the same input adapter as the compositor's input,
/// which still goes through too.
final class LiveReplay {
    private var turns: ArraySlice<(offset: Double, entries: [RecordingEntry])>
    private let start: Double
    private let speed: Double
    private let clock: Clock
    private let target: ReplayTarget
    /// A replayed turn delivered input: it is committed at once, like the compositor's.
    private var deliveredInput = false

    init(_ entries: [RecordingEntry], speed: Double, clock: Clock, target: ReplayTarget) {
        turns = ArraySlice(Replayer.turns(entries))
        start = clock.now
        self.speed = speed
        self.clock = clock
        self.target = target
        scheduleNextTurn()
    }

    /// Whether a replayed turn delivered input since the last call.
    func takeDeliveredInput() -> Bool {
        defer { deliveredInput = false }
        return deliveredInput
    }

    private func scheduleNextTurn() {
        guard let next = turns.first else { return }
        let at = speed > 0 ? start + next.offset / speed : clock.now
        _ = clock.schedule(at: at) { [weak self] in self?.playNextTurn() }
    }

    private func playNextTurn() {
        guard let turn = turns.popFirst() else { return }
        // A replay neither reads nor takes the live clipboard: its Copy and Paste do nothing,
        // and a recorded paste brings what the recorded app received.
        let application = target.input.application
        let pasteboard = application.pasteboard
        application.pasteboard = nil
        defer { application.pasteboard = pasteboard }
        for entry in turn.entries {
            switch entry {
            case .turn, .timers, .window, .setting: break  // the live app's own clock, compositor and preferences
            default: target.apply(entry)
            }
        }
        deliveredInput = true
        scheduleNextTurn()
    }
}
