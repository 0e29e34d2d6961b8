/// Recognizes fingers dragging (G13): continuous, beginning once the fingers have moved a few
/// points, changed on every move, ended when fewer than ``minimumNumberOfTouches`` remain.
///
/// ``translation(in:)`` is measured from where the fingers went down, so a handler that moves
/// something by it keeps that thing under the finger; ``setTranslation(_:in:)`` resets the base,
/// e.g. to zero after each step to get increments. Fingers landing or lifting mid-gesture move
/// the centroid, not the translation.
open class PanGestureRecognizer: GestureRecognizer {
    /// The fewest fingers that pan. Default: 1.
    public var minimumNumberOfTouches = 1
    /// The most fingers that pan; extra fingers are ignored once the pan began. Default: no limit.
    public var maximumNumberOfTouches = Int.max

    /// How far (in points) the fingers must move before the pan begins.
    static let hysteresis: Double = 10

    /// Distance travelled by the fingers (the mean of their moves), in window points.
    private var travel = Point.zero
    /// `translation == travel - base`.
    private var base = Point.zero
    private var lastSeen: [ObjectIdentifier: Point] = [:]
    private var samples = TravelSamples()

    /// How far the fingers moved since they went down (or since ``setTranslation(_:in:)``), in
    /// `view`'s coordinates, which a transform may turn or scale (nil: the window's).
    public func translation(in view: View?) -> Point {
        Self.displacement(Point(x: travel.x - base.x, y: travel.y - base.y), toward: view)
    }

    /// Makes the current translation `translation` (in `view`'s coordinates): later moves add to it.
    public func setTranslation(_ translation: Point, in view: View?) {
        let t = Self.displacement(translation, from: view)
        base = Point(x: travel.x - t.x, y: travel.y - t.y)
    }

    /// A displacement in window points as seen in `view`'s coordinates, which a transform may
    /// turn or scale (H8).
    static func displacement(_ v: Point, toward view: View?) -> Point {
        guard let view, view.isTransformed else { return v }
        let a = view.convert(Point.zero, from: nil), b = view.convert(v, from: nil)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }

    /// A displacement in `view`'s coordinates in window points.
    static func displacement(_ v: Point, from view: View?) -> Point {
        guard let view, view.isTransformed else { return v }
        let a = view.convert(Point.zero, to: nil), b = view.convert(v, to: nil)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }

    /// How fast the fingers move, in points per second, over the last tenth of a second (or the
    /// last two samples); as of the end once the pan ended.
    public func velocity(in view: View?) -> Point { Self.displacement(samples.velocity, toward: view) }

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        if state != .possible {
            // Once panning, fingers beyond the maximum are not part of the pan.
            var count = activeTouchCount
            for touch in touches.sorted(by: { $0.timestamp < $1.timestamp })
            where count > maximumNumberOfTouches {
                ignore(touch, for: event)
                count -= 1
            }
        }
        follow(touches, at: event.timestamp)
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        follow(touches, at: event.timestamp)
        switch effectiveState {
        case .possible:
            let count = activeTouchCount
            let distance = Point.zero.distance(to: travel)
            if count >= minimumNumberOfTouches, count <= maximumNumberOfTouches,
               distance > Self.hysteresis {
                state = mayBegin(travelling: travel) ? .began : .failed
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        super.touchesEnded(touches, with: event)
        follow(touches, at: event.timestamp)
        let count = activeTouchCount
        if effectiveState == .possible, count == 0 {
            state = .failed
        } else if effectiveState == .began || effectiveState == .changed, count < minimumNumberOfTouches {
            state = .ended
        }
    }

    /// Whether a pan that has moved `travel` (window points) past the hysteresis may begin; a
    /// subclass says no when the move goes the wrong way, as an edge pan running along its edge.
    func mayBegin(travelling travel: Point) -> Bool { true }

    // A system cancel needs no override: the base class cancels a gesture that began and fails
    // one that did not (T9).

    open override func reset() {
        super.reset()
        travel = .zero
        base = .zero
        lastSeen = [:]
        samples.removeAll()
    }

    /// Adds the mean move of the fingers seen before and now (`changed` included even if they
    /// just lifted), so that fingers joining or leaving do not make the translation jump.
    private func follow(_ changed: Set<Touch>, at time: Double) {
        var dx = 0.0, dy = 0.0, n = 0
        var seen: [ObjectIdentifier] = []
        func add(_ touch: Touch) {
            let id = ObjectIdentifier(touch)
            guard !seen.contains(id), let previous = lastSeen[id] else { return }
            seen.append(id)
            let p = touch.location(in: nil)
            dx += p.x - previous.x
            dy += p.y - previous.y
            n += 1
        }
        for touch in trackedTouches where !touch.isFinished { add(touch) }
        for touch in changed { add(touch) }
        if n > 0 { travel = Point(x: travel.x + dx / Double(n), y: travel.y + dy / Double(n)) }
        lastSeen.removeAll(keepingCapacity: true)
        for touch in trackedTouches where !touch.isFinished { lastSeen[ObjectIdentifier(touch)] = touch.location(in: nil) }
        samples.add(travel, at: time)
    }
}
