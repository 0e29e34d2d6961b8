// What a replay did, in one line, so that an empty picture is never a silent one: how many
// contacts went down, which of them were taps (lifted where they landed), which were cancelled,
// how many were palms, and how many strokes the drawing gained.
import TouchKit

public struct ReplaySummary: Equatable, Sendable {
    public var contacts = 0
    public var taps = 0
    public var cancelled = 0
    public var palms = 0

    /// A contact that lifts within this many points of where it landed is a tap.
    static let tapDistance = 2.0

    /// Counts the contacts of `entries`; `palms` is what the trace's reader cancelled.
    public init(_ entries: [RecordingEntry], palms: Int = 0) {
        self.palms = palms
        var landed: [TouchInput.ID: (start: Point, far: Double)] = [:]
        for case .input(let event) in entries {
            switch event {
            case let .down(id, p, _, _, _):
                contacts += 1
                landed[id] = (p, 0)
            case let .motion(id, p, _, _):
                if let l = landed[id] {
                    let dx = p.x - l.start.x, dy = p.y - l.start.y
                    landed[id]?.far = max(l.far, (dx * dx + dy * dy).squareRoot())
                }
            case let .up(id, _):
                if let l = landed.removeValue(forKey: id), l.far <= Self.tapDistance { taps += 1 }
            case .cancel(let source):
                cancelled += landed.keys.filter { $0.source == source }.count
                landed = landed.filter { $0.key.source != source }
            case .frame, .beginBatch, .endBatch, .hover, .hoverEnded, .attributes, .scroll, .scrollEnded,
                 .pinchBegan, .pinchChanged, .pinchEnded, .zoom: break
            }
        }
    }

    /// "replayed 3 contacts (1 tap, 1 cancelled, 1 palm): 2 strokes drawn".
    public func line(strokesDrawn strokes: Int) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        var parts: [String] = []
        if taps > 0 { parts.append(count(taps, "tap", "taps")) }
        if cancelled > 0 { parts.append("\(cancelled) cancelled") }
        if palms > 0 { parts.append(count(palms, "palm", "palms") + " ignored") }
        let detail = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
        let drawn = strokes == 0 ? "nothing drawn" : count(strokes, "stroke", "strokes") + " drawn"
        let why = contacts == 0 ? ": no finger went down in it" : ""
        return "replayed \(count(contacts, "contact", "contacts"))\(detail): \(drawn)\(why)"
    }
}
