// The compositor's event times as seconds: wl_* events carry 32-bit milliseconds, which wrap
// after 49 days.

/// Turns a wl_* 32-bit millisecond timestamp into seconds that keep rising across the 49-day wrap.
struct EventTimeline {
    private var last: UInt32?
    private var wraps: Double = 0

    mutating func seconds(_ milliseconds: UInt32) -> Double {
        // A jump back of more than half the range is a wrap, not a reordering.
        if let last, milliseconds < last, last - milliseconds > UInt32.max / 2 { wraps += 1 }
        last = milliseconds
        return (wraps * 4_294_967_296 + Double(milliseconds)) / 1000
    }
}
