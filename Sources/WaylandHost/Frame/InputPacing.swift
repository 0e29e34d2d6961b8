// While fingers, a pen or a pressed button feed the window a frame of input at least every display
// refresh, a change that is not input (a tile the line cache made in a later turn, a build's
// progress) waits for the next input's frame rather than taking a frame of its own at the frame
// callback. Each frame first copies what its buffer lacks from the frame before, and after a pan's
// frame that is the whole canvas: at 4K a tile's frame between two pans' frames cost as much as a
// pan's (33 MB copied), and under a stream of input every other frame was one. When no input frame
// comes within ``holdRefreshes`` refreshes of the last, the change is painted then.

struct InputPacing {
    /// When the last frame answering input was committed (the host's clock, seconds).
    private(set) var lastInputFrame: Double?
    /// How long after an input frame a change waits for the next one, in refreshes: room for input
    /// that comes a little late (a panel's jitter, a compositor's batching) without leaving a tile
    /// unshown for more than a frame and a half once the fingers stop moving.
    static let holdRefreshes = 1.5
    /// The refresh assumed where the compositor reports none.
    static let assumedRefresh = 1.0 / 60

    mutating func committedInput(at time: Double) { lastInputFrame = time }

    /// Until when a change that is not input waits at `now`, or nil to paint it now: input frames
    /// stream (the last within the hold) and something is pressed, so more will come; after the
    /// fingers lift, an animation's frames (a flick's glide, a bounce) are never held. Nor while
    /// lines are drawn (`drawing`: the window drew lines under fingers last frame): their changes
    /// between samples (a guess taken back when its sample is late, A13) show at once.
    func holdsChange(at now: Double, pressed: Bool, drawing: Bool, refresh: Double?) -> Double? {
        guard pressed, !drawing, let last = lastInputFrame else { return nil }
        let until = last + Self.holdRefreshes * (refresh ?? Self.assumedRefresh)
        return now < until ? until : nil
    }
}
