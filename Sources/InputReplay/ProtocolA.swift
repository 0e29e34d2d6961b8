// Linux multitouch protocol A (N-Trig, Sitronix ST1232, e-reader panels): each report lists its
// contacts one after another, each closed by SYN_MT_REPORT, with no slots and often no tracking
// ids. Like mtdev, which libinput reads such devices through, the contacts are turned into
// protocol B: a contact with a tracking id keeps the slot of that id; one without is matched to
// the previous report's contact nearest to it (the closest pairs first), and a contact that finds
// none is a new finger. A previous contact left unmatched has lifted; a report without contacts
// lifts them all. At most Limit.traceSlots contacts are taken in one report.
import Limits

/// Protocol-A events in, the same report as protocol-B events out.
struct ProtocolAConverter {
    private struct Contact {
        var x: Int32 = 0, y: Int32 = 0
        var trackingID: Int32?
        var tool: Int32 = 0
        var hasPosition = false
    }

    /// The contact being described, and those the report closed so far.
    private var current = Contact()
    private var reported: [Contact] = []
    /// The previous report's contacts, by slot (nil: a free slot), with the id they were given.
    private var slots: [(contact: Contact, id: Int32)?] = []
    private var nextID: Int32 = 0

    /// The protocol-B events for `event`: nothing until a SYN_REPORT, then the report's changes
    /// slot by slot, ending with the SYN_REPORT.
    mutating func convert(_ event: EvdevEvent, line: Int) throws(RecordingError) -> [EvdevEvent] {
        if event.isMTReport {
            if current.hasPosition {
                guard reported.count < Limit.traceSlots else {
                    throw RecordingError(line: line, "more than \(Limit.traceSlots) contacts in one report")
                }
                reported.append(current)
            }
            current = Contact()
            return []
        }
        if event.isReport { return report(at: event.time) }
        if event.type == EvdevEvent.synDropped.type, event.code == EvdevEvent.synDropped.code { return [event] }
        if event.type == EvdevEvent.touchCancelled.type, event.code == EvdevEvent.touchCancelled.code { return [event] }
        guard event.type == EvdevEvent.abs else { return [] }
        switch event.code {
        case EvdevEvent.mtPositionX: current.x = event.value; current.hasPosition = true
        case EvdevEvent.mtPositionY: current.y = event.value; current.hasPosition = true
        case EvdevEvent.mtTrackingID: current.trackingID = event.value
        case EvdevEvent.mtToolType: current.tool = event.value
        default: break
        }
        return []
    }

    private mutating func report(at time: Double) -> [EvdevEvent] {
        let contacts = reported
        reported = []
        current = Contact()
        var assigned = [Int?](repeating: nil, count: contacts.count)
        var taken = Set<Int>()
        // Contacts with tracking ids keep the slot holding that id.
        for (i, c) in contacts.enumerated() {
            guard let id = c.trackingID,
                  let slot = slots.indices.first(where: { slots[$0]?.contact.trackingID == id && !taken.contains($0) }) else { continue }
            assigned[i] = slot
            taken.insert(slot)
        }
        // The rest: the nearest previous contact without an id, closest pairs first.
        var pairs: [(distance: Int64, contact: Int, slot: Int)] = []
        for (i, c) in contacts.enumerated() where assigned[i] == nil && c.trackingID == nil {
            for (slot, held) in slots.enumerated() where !taken.contains(slot) {
                guard let held, held.contact.trackingID == nil else { continue }
                let dx = Int64(c.x) - Int64(held.contact.x), dy = Int64(c.y) - Int64(held.contact.y)
                pairs.append((dx * dx + dy * dy, i, slot))
            }
        }
        for pair in pairs.sorted(by: { $0.distance < $1.distance })
        where assigned[pair.contact] == nil && !taken.contains(pair.slot) {
            assigned[pair.contact] = pair.slot
            taken.insert(pair.slot)
        }
        var out: [EvdevEvent] = []
        func emit(_ slot: Int, _ code: UInt16, _ value: Int32) {
            out.append(EvdevEvent(time: time, type: EvdevEvent.abs, code: EvdevEvent.mtSlot, value: Int32(slot)))
            out.append(EvdevEvent(time: time, type: EvdevEvent.abs, code: code, value: value))
        }
        // Previous contacts left unmatched have lifted.
        for slot in slots.indices where slots[slot] != nil && !taken.contains(slot) {
            emit(slot, EvdevEvent.mtTrackingID, -1)
            slots[slot] = nil
        }
        for (i, c) in contacts.enumerated() {
            let slot: Int
            if let s = assigned[i] {
                slot = s
            } else {
                // A new finger: the lowest free slot, and a new id.
                slot = slots.firstIndex { $0 == nil } ?? slots.count
                if slot == slots.count { slots.append(nil) }
                taken.insert(slot)
                nextID = nextID == Int32.max ? 0 : nextID + 1
                slots[slot] = (c, nextID)
                emit(slot, EvdevEvent.mtTrackingID, nextID)
            }
            slots[slot]?.contact = c
            emit(slot, EvdevEvent.mtPositionX, c.x)
            emit(slot, EvdevEvent.mtPositionY, c.y)
            emit(slot, EvdevEvent.mtToolType, c.tool)
        }
        out.append(EvdevEvent(time: time, type: EvdevEvent.synReport.type, code: EvdevEvent.synReport.code, value: 0))
        return out
    }
}
