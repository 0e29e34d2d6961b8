/// Recognizes a pan that starts at an edge of the window (G19), as a swipe in from the side to
/// open a drawer: a ``PanGestureRecognizer`` whose touches must all land within
/// ``edgeMargin`` points of one of ``edges`` and then move away from that edge.
///
/// It fails as soon as a touch lands farther in, or when the first move past the pan's threshold
/// runs along the edge rather than away from it. Once it began it is a pan: its translation,
/// velocity and touch counts behave as ``PanGestureRecognizer``'s.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// Edges of the window.
    public struct Edges: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let top = Edges(rawValue: 1 << 0)
        public static let left = Edges(rawValue: 1 << 1)
        public static let bottom = Edges(rawValue: 1 << 2)
        public static let right = Edges(rawValue: 1 << 3)
        public static let all: Edges = [.top, .left, .bottom, .right]
    }

    /// The edges a pan may start from. Default: none, so the recognizer fails until it is told
    /// which edges to watch, as in UIKit.
    public var edges: Edges = []

    /// How close (in window points) to an edge a touch must land: 20 pt, about UIKit's band,
    /// wide enough for a finger pressed against a bezel-less screen's border.
    public static let edgeMargin: Double = 20

    /// The watched edges the first touch landed near (two in a corner).
    private var startEdges: Edges = []

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        if effectiveState == .possible {
            for touch in touches {
                let near = nearEdges(of: touch)
                if near.isEmpty {
                    super.touchesBegan(touches, with: event)
                    state = .failed
                    return
                }
                startEdges = startEdges.isEmpty ? near : startEdges
            }
        }
        super.touchesBegan(touches, with: event)
    }

    /// The watched edges within ``edgeMargin`` of where `touch` is, in its window.
    private func nearEdges(of touch: Touch) -> Edges {
        guard let window = touch.window else { return [] }
        let p = touch.location(in: nil)
        let size = window.bounds.size
        var near: Edges = []
        if p.y <= Self.edgeMargin { near.insert(.top) }
        if p.x <= Self.edgeMargin { near.insert(.left) }
        if p.y >= size.height - Self.edgeMargin { near.insert(.bottom) }
        if p.x >= size.width - Self.edgeMargin { near.insert(.right) }
        return near.intersection(edges)
    }

    /// Away from an edge means inwards, and more so than along the edge.
    override func mayBegin(travelling travel: Point) -> Bool {
        let inwards: [(Edges, Double, Double)] = [
            (.top, travel.y, travel.x), (.left, travel.x, travel.y),
            (.bottom, -travel.y, travel.x), (.right, -travel.x, travel.y),
        ]
        return inwards.contains { edge, away, along in
            startEdges.contains(edge) && away > 0 && away >= abs(along)
        }
    }

    open override func reset() {
        super.reset()
        startEdges = []
    }
}
