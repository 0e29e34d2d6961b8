// The bookkeeping of one touch inside TouchInput: its state, the moves between states, and the
// samples not yet delivered, kept together so that the state machine reads as one piece.
extension TouchInput {
    /// A touch from its `down` until its end is delivered, with the changes not yet framed.
    final class Track {
        /// Where a touch is between the calls that reported it and the events that deliver it.
        enum State {
            /// Its `down` came; the next event delivers its `began`, where the finger landed.
            case landed
            /// Its `down` and `up` both came before its `began` went out: the next event begins
            /// it and the one after ends it.
            case landedAndLifted
            /// Delivered, with nothing new: the next event shows it stationary.
            case stationary
            /// Delivered, with motion waiting for the next event.
            case moved
            /// Delivered, with its `up` waiting: the next event ends it.
            case lifted
        }

        let id: ID
        let touch: Touch
        private(set) var state = State.landed
        var location: Point
        var time: Double
        var force: Double
        /// Positions reported since the last event: (location, time), oldest first (T11).
        var samples: [(Point, Double)]
        /// How many of `samples` belong to frames held for the batch's end.
        var heldSamples = 0

        init(id: ID, touch: Touch, location: Point, time: Double) {
            self.id = id
            self.touch = touch
            self.location = location
            self.time = time
            self.force = touch.force
            self.samples = [(location, time)]
        }

        /// Whether views have had its `began`.
        var isDelivered: Bool {
            switch state {
            case .landed, .landedAndLifted: false
            case .stationary, .moved, .lifted: true
            }
        }

        /// Whether its `up` came: nothing more is taken for it.
        var isLifted: Bool { state == .landedAndLifted || state == .lifted }

        /// Delivered and not lifted: a frame of such touches only moves them, and may be held.
        var isDeliveredAndDown: Bool { state == .stationary || state == .moved }

        var hasPendingChanges: Bool { state != .stationary }

        /// Its `up` came.
        func lift() {
            switch state {
            case .landed: state = .landedAndLifted
            case .stationary, .moved: state = .lifted
            case .landedAndLifted, .lifted: break
            }
        }

        /// Motion waits for it: a delivered touch at rest now moves. A landed or lifted touch keeps
        /// its state; its samples go out after its `began`, or with its end.
        func move() {
            if state == .stationary { state = .moved }
        }

        /// Its waiting motion went out, or was put aside for a later event.
        func settle() {
            if state == .moved { state = .stationary }
        }

        /// Its `began` went out; `motionFollows` when samples after the landing point wait.
        func began(motionFollows: Bool) {
            state = state == .landedAndLifted ? .lifted : motionFollows ? .moved : .stationary
        }
    }
}
