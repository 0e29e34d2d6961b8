// A recorded session: every call that reached the input adapter, the host's turns and timer
// firings, keys and window geometry, in order. Text, one entry a line, so a recording written as
// it goes survives whatever ends the app (each line is written whole), and can be read, diffed and
// cut by hand. docs/input-recording.md describes the format.
import Limits
import TouchKit

/// One line of a recording.
public enum RecordingEntry: Equatable, Sendable {
    /// A call into the input adapter.
    case input(InputEvent)
    /// A turn of the host's event loop began at this time of its clock (seconds).
    case turn(Double)
    /// The host fired the timers due at this time.
    case timers(Double)
    /// The window's size in points, its scale, and whether it draws its own title bar.
    case window(width: Double, height: Double, scale: Double, titleBar: Bool)
    /// A key press the app got: the XKB keysym, modifiers (shift 1, control 2, alt 4, logo 8) and
    /// the keysym's name.
    case key(keysym: UInt32, modifiers: UInt8, name: String)
    /// The edit menu's item with this action was chosen (the popup is the host's, outside the
    /// adapter).
    case menuChoice(String)
    /// The platform dismissed the edit menu (a tap outside it).
    case menuDismissed
    /// A preference the app started with (the tool, a toggle, the pen's colour), by name: the
    /// replay starts from the same ones.
    case setting(name: String, value: String)
    /// What a paste received from the clipboard, in the turn it arrived: a replay pastes this
    /// instead of reading the clipboard it runs beside (P3).
    case paste(PasteboardReadResult)
}

/// The recording format: its header line, and each entry as a line.
public enum RecordingFormat {
    public static let header = "touchtracker-input 1"

    /// A line (without its newline) for `entry`. Numbers are written exactly (the shortest
    /// decimal that reads back as the same Double).
    public static func line(_ entry: RecordingEntry) -> String {
        switch entry {
        case .input(let event):
            switch event {
            case let .down(id, p, time, kind, force):
                return "down \(source(id.source)) \(id.number) \(p.x) \(p.y) \(time) \(kindName(kind)) \(force)"
            case let .motion(id, p, time, force):
                return "motion \(source(id.source)) \(id.number) \(p.x) \(p.y) \(time)" + (force.map { " \($0)" } ?? "")
            case let .up(id, time): return "up \(source(id.source)) \(id.number) \(time)"
            case .frame: return "frame"
            case .cancel(let s): return "cancel \(source(s))"
            case .beginBatch: return "batch"
            case .endBatch: return "end"
            case let .hover(id, p, time): return "hover \(source(id.source)) \(id.number) \(p.x) \(p.y) \(time)"
            case let .hoverEnded(id, time): return "hover-end \(source(id.source)) \(id.number) \(time)"
            case let .scroll(d, p, time, source): return "scroll \(d.x) \(d.y) \(p.x) \(p.y) \(time) \(source.rawValue)"
            case let .scrollEnded(time): return "scroll-end \(time)"
            case let .pinchBegan(p, time): return "pinch-begin \(p.x) \(p.y) \(time)"
            case let .pinchChanged(scale, d, time): return "pinch \(scale) \(d.x) \(d.y) \(time)"
            case let .pinchEnded(time, cancelled): return "pinch-end \(time)" + (cancelled ? " cancelled" : "")
            case let .zoom(factor, p, time, source): return "zoom \(factor) \(p.x) \(p.y) \(time) \(source.rawValue)"
            case let .attributes(id, a):
                let values = [("altitude", a.altitudeAngle), ("azimuth", a.azimuthAngle), ("radius", a.majorRadius),
                              ("z", a.zOffset)].compactMap { name, value in value.map { "\(name)=\($0)" } }
                return (["attributes \(source(id.source)) \(id.number)"] + values).joined(separator: " ")
            }
        case .turn(let t): return "turn \(t)"
        case .timers(let t): return "timers \(t)"
        case let .window(width, height, scale, titleBar):
            return "window \(width) \(height) \(scale) \(titleBar ? "titlebar" : "bare")"
        case let .key(keysym, modifiers, name):
            return "key \(keysym) \(modifiers) \(name)"
        case .menuChoice(let action): return "menu choose \(action)"
        case .menuDismissed: return "menu dismissed"
        case let .setting(name, value): return "setting \(name) \(value)"
        case .paste(.data(let bytes)): return "paste data " + hex(bytes)
        case .paste(.tooLarge(let limit)): return "paste too-large \(limit)"
        case .paste(.failed(let reason)): return "paste failed " + reason.filter { $0 != "\n" && $0 != "\r" }
        }
    }

    /// Bytes as lowercase hex: a paste may hold any bytes, and a recording is lines of text.
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func bytes(fromHex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = value(utf8[i]), let low = value(utf8[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    /// Reads a whole recording. The first line must be the header (a newer version is refused by
    /// name); blank lines and `#` comments are skipped.
    public static func parse(_ text: String) throws(RecordingError) -> [RecordingEntry] {
        var entries: [RecordingEntry] = []
        var number = 0
        var sawHeader = false
        var touches = TouchesDown()
        for raw in lines(of: text) {
            number += 1
            let line = raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            if !sawHeader {
                guard line.hasPrefix("touchtracker-input ") else {
                    throw RecordingError(line: number, "not a TouchTracker input recording (its first line should be '\(header)')")
                }
                guard line == header else {
                    throw RecordingError(line: number, "recording format '\(line.dropFirst(19))' is not one this version reads (1)")
                }
                sawHeader = true
                continue
            }
            let entry = try entry(Substring(line), line: number)
            guard touches.note(entry) else { throw RecordingError(line: number, "more than \(Limit.touches) touches down at once") }
            entries.append(entry)
        }
        guard sawHeader else { throw RecordingError(line: 1, "empty file: not a TouchTracker input recording") }
        return entries
    }

    private static func entry(_ line: Substring, line lineNumber: Int) throws(RecordingError) -> RecordingEntry {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        func fail(_ why: String) -> RecordingError { RecordingError(line: lineNumber, why) }
        func count(_ n: ClosedRange<Int>) throws(RecordingError) {
            guard n.contains(words.count) else {
                throw fail("'\(words[0])' takes \(n.lowerBound == n.upperBound ? "\(n.lowerBound - 1)" : "\(n.lowerBound - 1) or \(n.upperBound - 1)") values, not \(words.count - 1)")
            }
        }
        func number(_ i: Int, _ what: String) throws(RecordingError) -> Double {
            guard let v = Double(words[i]), v.isFinite else { throw fail("\(what) '\(words[i])' is not a finite number") }
            return v
        }
        /// A point's coordinate: clamped to the plane, as the compositor's input is.
        func coordinate(_ i: Int, _ what: String) throws(RecordingError) -> Double {
            min(max(try number(i, what), -Limit.coordinate), Limit.coordinate)
        }
        /// A scale or a zoom's factor: above 0.
        func scale(_ i: Int, _ what: String) throws(RecordingError) -> Double {
            let v = try number(i, what)
            guard v > 0 else { throw fail("\(what) '\(words[i])' is not above 0") }
            return v
        }
        func id(_ i: Int) throws(RecordingError) -> TouchInput.ID {
            guard let s = sourceNamed(words[i]) else { throw fail("unknown input source '\(words[i])' (touchscreen, pointer, tablet)") }
            guard let n = Int32(words[i + 1]) else { throw fail("touch id '\(words[i + 1])' is not a 32-bit integer") }
            return TouchInput.ID(source: s, number: n)
        }
        switch words[0] {
        case "down":
            try count(8...8)
            guard let kind = kindNamed(words[6]) else { throw fail("unknown touch kind '\(words[6])' (direct, pointer, pencil)") }
            return .input(.down(try id(1), Point(x: try coordinate(3, "x"), y: try coordinate(4, "y")), time: try number(5, "time"),
                                kind: kind, force: try number(7, "force")))
        case "motion":
            try count(6...7)
            return .input(.motion(try id(1), Point(x: try coordinate(3, "x"), y: try coordinate(4, "y")), time: try number(5, "time"),
                                  force: words.count == 7 ? try number(6, "force") : nil))
        case "up":
            try count(4...4)
            return .input(.up(try id(1), time: try number(3, "time")))
        case "frame": try count(1...1); return .input(.frame)
        case "cancel":
            try count(2...2)
            guard let s = sourceNamed(words[1]) else { throw fail("unknown input source '\(words[1])'") }
            return .input(.cancel(s))
        case "batch": try count(1...1); return .input(.beginBatch)
        case "hover":
            try count(6...6)
            return .input(.hover(try id(1), Point(x: try coordinate(3, "x"), y: try coordinate(4, "y")), time: try number(5, "time")))
        case "hover-end":
            try count(4...4)
            return .input(.hoverEnded(try id(1), time: try number(3, "time")))
        case "scroll":
            try count(7...7)
            guard let source = ScrollSource(rawValue: String(words[6])) else { throw fail("unknown scroll source '\(words[6])' (wheel, touchpad)") }
            return .input(.scroll(Point(x: try coordinate(1, "dx"), y: try coordinate(2, "dy")),
                                  at: Point(x: try coordinate(3, "x"), y: try coordinate(4, "y")), time: try number(5, "time"), source: source))
        case "scroll-end":
            try count(2...2)
            return .input(.scrollEnded(time: try number(1, "time")))
        case "pinch-begin":
            try count(4...4)
            return .input(.pinchBegan(at: Point(x: try coordinate(1, "x"), y: try coordinate(2, "y")), time: try number(3, "time")))
        case "pinch":
            try count(5...5)
            return .input(.pinchChanged(scale: try scale(1, "scale"), translation: Point(x: try coordinate(2, "dx"), y: try coordinate(3, "dy")),
                                        time: try number(4, "time")))
        case "pinch-end":
            try count(2...3)
            guard words.count == 2 || words[2] == "cancelled" else { throw fail("'\(words[2])' should be 'cancelled' or nothing") }
            return .input(.pinchEnded(time: try number(1, "time"), cancelled: words.count == 3))
        case "zoom":
            try count(6...6)
            guard let source = ScrollSource(rawValue: String(words[5])) else { throw fail("unknown zoom source '\(words[5])' (wheel, touchpad)") }
            return .input(.zoom(try scale(1, "factor"), at: Point(x: try coordinate(2, "x"), y: try coordinate(3, "y")),
                                time: try number(4, "time"), source: source))
        case "attributes":
            try count(3...7)
            var attributes = Touch.Attributes()
            for i in 3..<words.count {
                let pair = words[i].split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let v = Double(pair[1]), v.isFinite else { throw fail("'\(words[i])' is not name=number") }
                switch pair[0] {
                case "altitude": attributes.altitudeAngle = v
                case "azimuth": attributes.azimuthAngle = v
                case "radius": attributes.majorRadius = min(max(v, 0), Limit.coordinate)
                case "z": attributes.zOffset = v
                default: throw fail("unknown attribute '\(pair[0])' (altitude, azimuth, radius, z)")
                }
            }
            return .input(.attributes(try id(1), attributes))
        case "end": try count(1...1); return .input(.endBatch)
        case "turn": try count(2...2); return .turn(try number(1, "time"))
        case "timers": try count(2...2); return .timers(try number(1, "time"))
        case "window":
            try count(5...5)
            let width = try number(1, "width"), height = try number(2, "height"), scale = try number(3, "scale")
            guard width >= 1, height >= 1 else { throw fail("window size \(width)x\(height) is out of range") }
            guard scale > 0, scale <= Double(Limit.outputScale) else {
                throw fail("scale \(scale) is out of range (above 0, at most \(Limit.outputScale))")
            }
            // As big as the app's own window buffers may be: a replay paints one.
            let pixels = (width: (width * scale).rounded(.up), height: (height * scale).rounded(.up))
            let size = "window \(whole(width))x\(whole(height)) at scale \(whole(scale))"
            guard pixels.width * pixels.height <= Double(Limit.rasterPixels) else {
                throw fail("\(size) is \(whole(pixels.width * pixels.height)) pixels; a window may have at most \(Limit.rasterPixels)")
            }
            guard max(pixels.width, pixels.height) <= Double(Limit.rasterSide) else {
                throw fail("\(size) is \(whole(max(pixels.width, pixels.height))) pixels wide or high; at most \(Limit.rasterSide)")
            }
            guard words[4] == "titlebar" || words[4] == "bare" else { throw fail("'\(words[4])' should be titlebar or bare") }
            return .window(width: width, height: height, scale: scale, titleBar: words[4] == "titlebar")
        case "key":
            try count(4...4)
            guard let keysym = UInt32(words[1]), let modifiers = UInt8(words[2]), modifiers < 16 else {
                throw fail("key '\(words[1]) \(words[2])' should be a keysym and modifiers (0-15)")
            }
            return .key(keysym: keysym, modifiers: modifiers, name: String(words[3]))
        case "setting":
            guard words.count >= 3 else { throw fail("'setting' takes a name and a value") }
            let value = line.drop { $0 == " " || $0 == "\t" }.dropFirst("setting".count).drop { $0 == " " || $0 == "\t" }
                .dropFirst(words[1].count).drop { $0 == " " || $0 == "\t" }
            return .setting(name: String(words[1]), value: String(value))
        case "paste":
            switch words.count >= 2 ? words[1] : "" {
            case "data":
                try count(2...3)
                guard let bytes = words.count == 3 ? bytes(fromHex: words[2]) : [] else { throw fail("'paste data' takes hex digits") }
                return .paste(.data(bytes))
            case "too-large":
                try count(3...3)
                guard let limit = Int(words[2]), limit >= 0 else { throw fail("'paste too-large' takes a byte count") }
                return .paste(.tooLarge(maxBytes: limit))
            case "failed":
                let reason = line.drop { $0 == " " || $0 == "\t" }.dropFirst("paste".count).drop { $0 == " " || $0 == "\t" }
                    .dropFirst("failed".count).drop { $0 == " " || $0 == "\t" }
                return .paste(.failed(String(reason)))
            default:
                throw fail("'paste' takes 'data HEX', 'too-large BYTES' or 'failed REASON'")
            }
        case "menu":
            if words.count == 2, words[1] == "dismissed" { return .menuDismissed }
            guard words.count == 3, words[1] == "choose" else { throw fail("'menu' takes 'choose ACTION' or 'dismissed'") }
            return .menuChoice(String(words[2]))
        default:
            throw fail("unknown entry '\(words[0].prefix(40))'")
        }
    }

    /// `value` without a fraction when it has none (errors name sizes as the user wrote them).
    private static func whole(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func source(_ s: TouchInput.Source) -> String {
        switch s {
        case .touchscreen: "touchscreen"
        case .pointer: "pointer"
        case .tablet: "tablet"
        }
    }

    private static func sourceNamed(_ name: Substring) -> TouchInput.Source? {
        switch name {
        case "touchscreen": .touchscreen
        case "pointer": .pointer
        case "tablet": .tablet
        default: nil
        }
    }

    private static func kindName(_ kind: Touch.Kind) -> String {
        switch kind {
        case .direct: "direct"
        case .indirectPointer: "pointer"
        case .pencil: "pencil"
        }
    }

    private static func kindNamed(_ name: Substring) -> Touch.Kind? {
        switch name {
        case "direct": .direct
        case "pointer": .indirectPointer
        case "pencil": .pencil
        default: nil
        }
    }
}

/// The touches a recording has down, as the input adapter counts them: a `down` of an id already
/// down replaces it, `up` lifts it, `cancel` lifts its source's.
struct TouchesDown {
    private var ids: Set<TouchInput.ID> = []

    /// Takes `entry` into account; false for a `down` past Limit.touches.
    mutating func note(_ entry: RecordingEntry) -> Bool {
        switch entry {
        case .input(.down(let id, _, _, _, _)):
            guard ids.contains(id) || ids.count < Limit.touches else { return false }
            ids.insert(id)
        case .input(.up(let id, _)): ids.remove(id)
        case .input(.cancel(let source)): ids = ids.filter { $0.source != source }
        default: break
        }
        return true
    }
}

/// A file that is not a readable recording or trace: where and what.
public struct RecordingError: Error, Equatable, CustomStringConvertible {
    /// The line (from 1) the problem is on.
    public let line: Int
    public let reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// The lines of `text`, split at LF and CRLF alike (Swift takes CRLF for one character).
func lines<S: StringProtocol>(of text: S) -> [S.SubSequence] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
}
