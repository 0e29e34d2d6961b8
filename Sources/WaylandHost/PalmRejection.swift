// The palm rule users of pen apps ask for (rnote#1256, Xournal++): while a pen is near the screen,
// and for a moment after it leaves, touches are the hand resting on the glass, not drawing.

/// Decides whether a touch may start, from the pen's proximity. Pure logic: times in seconds.
struct PalmRejection {
    /// How long after the pen leaves that touches still count as the palm.
    static let grace = 0.5

    private var pensInProximity: Set<Int> = []
    private var lastPenLeft = -Double.infinity

    var isPenNear: Bool { !pensInProximity.isEmpty }

    mutating func penEntered(_ tool: Int) { pensInProximity.insert(tool) }

    mutating func penLeft(_ tool: Int, at time: Double) {
        if pensInProximity.remove(tool) != nil { lastPenLeft = time }
    }

    /// Whether a touch going down at `time` is a finger meant to draw.
    func allowsTouch(at time: Double) -> Bool {
        pensInProximity.isEmpty && time - lastPenLeft >= Self.grace
    }
}
