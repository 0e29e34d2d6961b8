// Linux multitouch protocol B, as a touchscreen's kernel events give it (ABS_MT_SLOT,
// ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y, SYN_REPORT), turned into the input adapter's calls:
// what evtest and `libinput record` traces of real devices hold. Real devices do odd things, and
// none of them stops a replay: tracking ids that never restart at 0 (the slot is the touch id, as
// a compositor makes it), several fingers landing in one report, reports that change nothing, a
// slot released twice, a new contact in a slot that was never released, and SYN_DROPPED (the
// kernel lost events: the touches in flight are cancelled, as a compositor would, and fingers
// that land afterwards draw again). A contact the device calls a palm (ABS_MT_TOOL_TYPE
// MT_TOOL_PALM) is cancelled as libinput cancels it. What a trace can make the decoder hold is
// bounded: slots past Limit.traceSlots are refused, and a value past its axis's range lands on the
// panel's edge.
import Limits
import TouchKit

/// One kernel input event.
public struct EvdevEvent: Equatable, Sendable {
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    static let synReport = (type: UInt16(0), code: UInt16(0))
    static let synMTReport = (type: UInt16(0), code: UInt16(2))
    static let synDropped = (type: UInt16(0), code: UInt16(3))
    static let abs: UInt16 = 3
    static let mtSlot: UInt16 = 47, mtPositionX: UInt16 = 53, mtPositionY: UInt16 = 54, mtToolType: UInt16 = 55
    static let mtTrackingID: UInt16 = 57
    /// ABS_MT_TOOL_TYPE's value for a palm.
    static let toolPalm: Int32 = 2
    /// Not a kernel event: libinput cancelled the contact in the slot given as the value, as its
    /// record shows (TOUCH_CANCEL, its verdict of a palm). The kernel's sync codes end at 15.
    static let touchCancelled = (type: UInt16(0), code: UInt16(0x7ff0))

    var isReport: Bool { type == Self.synReport.type && code == Self.synReport.code }
    var isMTReport: Bool { type == Self.synMTReport.type && code == Self.synMTReport.code }
}

/// Protocol-B events in, adapter calls out, one report at a time.
public struct MultitouchDecoder {
    private struct Slot {
        var trackingID: Int32 = -1
        var x: Int32 = 0, y: Int32 = 0
        var tool: Int32 = 0
        /// What the adapter was told: the contact down under this slot (its tracking id), and
        /// where it was.
        var reportedID: Int32 = -1
        var reportedX: Int32 = 0, reportedY: Int32 = 0
        /// The contact in flight when SYN_DROPPED lost events: ignored until the slot holds
        /// another contact or none. A palm's contact is kept here too.
        var orphanID: Int32?
        /// Whether the trace has given this slot a tracking id yet.
        var tracked = false
    }

    private let placement: Placement
    /// The slots used so far, by number (at most `Limit.traceSlots`): a report visits them in
    /// order, so its cost does not grow with the trace.
    private var slots: [Slot] = []
    private var slot = 0
    private var dropping = false
    /// Subtracted from event times, so a replay starts at `start`.
    private var offset: Double?
    private let start: Double
    /// Contacts cancelled as palms.
    public private(set) var palms = 0
    /// Fingers that were down before the trace's first line (see `assumeDownIfUntracked`).
    public private(set) var fingersAlreadyDown = 0

    /// A decoder placing the device's positions with `placement`, with times moved so that the
    /// first event is at `start` seconds.
    public init(placement: Placement, start: Double = 0) {
        self.placement = placement
        self.start = start
    }

    /// The entries for one event: nothing until a SYN_REPORT, then a turn with the report's calls.
    /// Throws for a slot past the limit, naming `line`, the event's line in the trace.
    public mutating func decode(_ event: EvdevEvent, line: Int) throws(RecordingError) -> [RecordingEntry] {
        if offset == nil { offset = event.time - start }
        if event.type == EvdevEvent.synDropped.type, event.code == EvdevEvent.synDropped.code {
            dropping = true
            return []
        }
        if event.type == EvdevEvent.touchCancelled.type, event.code == EvdevEvent.touchCancelled.code {
            // Only a contact that is down can be cancelled; one already cancelled is not again.
            guard slots.indices.contains(Int(event.value)), slots[Int(event.value)].reportedID >= 0 else { return [] }
            return resynchronize(time: event.time - (offset ?? 0), palm: Int(event.value))
        }
        if event.type == EvdevEvent.synReport.type, event.code == EvdevEvent.synReport.code {
            let time = event.time - (offset ?? 0)
            if dropping {
                dropping = false
                return resynchronize(time: time)
            }
            return report(time: time)
        }
        guard !dropping, event.type == EvdevEvent.abs else { return [] }
        switch event.code {
        case EvdevEvent.mtSlot:
            guard (0..<Limit.traceSlots).contains(Int(event.value)) else {
                throw RecordingError(line: line, "slot \(event.value) is past the \(Limit.traceSlots) slots a trace may use")
            }
            slot = Int(event.value)
        case EvdevEvent.mtTrackingID:
            changeSlot {
                $0.trackingID = event.value < 0 ? -1 : event.value
                $0.tracked = true
            }
        case EvdevEvent.mtPositionX: changeSlot { $0.x = event.value }; assumeDownIfUntracked()
        case EvdevEvent.mtPositionY: changeSlot { $0.y = event.value }; assumeDownIfUntracked()
        case EvdevEvent.mtToolType: changeSlot { $0.tool = event.value }
        default: break
        }
        return []
    }

    /// A slot that moves before the trace ever gave it a tracking id held a finger before the
    /// trace began (an excerpt, or a recording started with a finger down): it lands where it is
    /// first seen, with an id no device gives.
    private mutating func assumeDownIfUntracked() {
        guard !slots[slot].tracked else { return }
        slots[slot].tracked = true
        slots[slot].trackingID = Int32.max - Int32(slot)
        fingersAlreadyDown += 1
    }

    /// Changes the selected slot, made (with any below it) at its first use.
    private mutating func changeSlot(_ change: (inout Slot) -> Void) {
        while slots.count <= slot { slots.append(Slot()) }
        change(&slots[slot])
    }

    private func point(_ s: Slot) -> Point {
        let p = placement.point(s.x, s.y)
        return Point(x: p.x, y: p.y)
    }

    private mutating func report(time: Double) -> [RecordingEntry] {
        var calls: [InputEvent] = []
        // A contact that turned into a palm while down: libinput cancels it, and the compositor
        // passes that on as wl_touch.cancel, which ends every touch of the client.
        if slots.contains(where: { $0.reportedID >= 0 && $0.trackingID == $0.reportedID && $0.tool == EvdevEvent.toolPalm }) {
            return resynchronize(time: time)
        }
        for number in slots.indices {
            var s = slots[number]
            let id = TouchInput.ID(source: .touchscreen, number: Int32(number))
            if let orphan = s.orphanID {
                guard s.trackingID != orphan else { continue }
                s.orphanID = nil
            }
            if s.reportedID >= 0, s.trackingID != s.reportedID {
                // Lifted, or a new contact took the slot without a release between.
                calls.append(.up(id, time: time))
                s.reportedID = -1
            }
            if s.trackingID >= 0, s.reportedID < 0, s.tool == EvdevEvent.toolPalm {
                // A palm from the start never goes down: ignored until its contact ends.
                s.orphanID = s.trackingID
                palms += 1
            } else if s.trackingID >= 0, s.reportedID < 0 {
                calls.append(.down(id, point(s), time: time, kind: .direct, force: 0))
                s.reportedID = s.trackingID
            } else if s.trackingID >= 0, s.x != s.reportedX || s.y != s.reportedY {
                calls.append(.motion(id, point(s), time: time, force: nil))
            }
            (s.reportedX, s.reportedY) = (s.x, s.y)
            slots[number] = s
        }
        guard !calls.isEmpty else { return [] }
        // A device trace has no host turns: timers due by a report fire before it, as the app's
        // loop would have fired them while waiting for it.
        return [.timers(time), .turn(time)] + calls.map(RecordingEntry.input) + [.input(.frame)]
    }

    /// After SYN_DROPPED, or a palm (the device's word or libinput's, for the contact in slot
    /// `palm`): what the adapter was told can no longer be trusted (or was a palm), so the touches
    /// in flight are cancelled; their fingers count again only once lifted.
    private mutating func resynchronize(time: Double, palm: Int? = nil) -> [RecordingEntry] {
        var inFlight = false
        for number in slots.indices where slots[number].reportedID >= 0 {
            inFlight = true
            let isPalm = slots[number].tool == EvdevEvent.toolPalm && slots[number].trackingID == slots[number].reportedID
            if isPalm || number == palm { palms += 1 }
            slots[number].reportedID = -1
            if slots[number].trackingID >= 0 { slots[number].orphanID = slots[number].trackingID }
        }
        return inFlight ? [.timers(time), .turn(time), .input(.cancel(.touchscreen))] : []
    }
}
