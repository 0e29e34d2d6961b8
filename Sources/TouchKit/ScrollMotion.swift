#if canImport(Glibc)
import Glibc
#endif

/// A scroll view's content moving on its own (S4, S5): a flick slowing down at the scroll view's
/// ``ScrollView/decelerationRate``, the content springing back from past an edge, and an
/// animated ``ScrollView/setContentOffset(_:animated:)``. Stepped by the application's clock, so
/// tests move it with a manual clock and the app with its event loop.
final class ScrollMotion {
    /// Time between two steps, in seconds: a step for each frame of a 120 Hz display.
    static let step = 1.0 / 120
    static let glideDuration = 0.25
    /// How long the content takes to spring back from past an edge.
    static let springDuration = 0.3
    /// Below this speed, in points a second, a flick has come to rest.
    static let restingSpeed = 10.0
    /// How quickly a flick that crossed an edge loses its speed past it: its speed falls by e
    /// every this many seconds, which stops it a few tens of points out.
    static let edgeDamping = 0.03

    private enum Phase {
        case idle
        case decelerating(velocity: Point)
        /// From one offset to another, eased out; `settles` when it ends a deceleration.
        case gliding(from: Point, to: Point, start: Double, duration: Double, settles: Bool)
    }

    private var phase = Phase.idle
    private var timer: TimerToken?
    private var lastStep = 0.0
    private var view: ScrollView? {
        get { viewLink.view }
        set { viewLink = ViewLink(newValue) }
    }
    private var viewLink = ViewLink<ScrollView>(nil)

    var isDecelerating: Bool {
        switch phase {
        case .decelerating: true
        case .gliding(_, _, _, _, let settles): settles
        case .idle: false
        }
    }

    func stop() {
        timer?.cancel()
        timer = nil
        phase = .idle
    }

    /// The fingers lifted with the content moving at `velocity` (points a second, the offset's
    /// way): it moves on, or springs back from past an edge; false when it rests where it is.
    func release(with velocity: Point, in view: ScrollView) -> Bool {
        stop()
        self.view = view
        if view.appearance.reduceMotion {
            // Less motion: no flick carries on, and past an edge is back in range at once.
            view.contentOffset = view.clampedOffset(view.contentOffset)
            return false
        }
        if hypot(velocity.x, velocity.y) > Self.restingSpeed, view.bounces || view.offsetInRange(view.contentOffset) {
            return start(.decelerating(velocity: velocity), in: view)
        }
        return springBack(in: view)
    }

    func glide(from: Point, to: Point, duration: Double, in view: ScrollView, settles: Bool = false) {
        stop()
        self.view = view
        _ = start(.gliding(from: from, to: to, start: 0, duration: duration, settles: settles), in: view)
    }

    /// Springs back into range when the offset is past an edge; false when it is in range.
    private func springBack(in view: ScrollView) -> Bool {
        let target = view.clampedOffset(view.contentOffset)
        guard target != view.contentOffset else { return false }
        glide(from: view.contentOffset, to: target, duration: Self.springDuration, in: view, settles: true)
        return true
    }

    private func start(_ phase: Phase, in view: ScrollView) -> Bool {
        guard let clock = view.window?.application?.clock else {
            // Not on screen: nothing to animate, the content goes where it would rest.
            view.contentOffset = view.clampedOffset(restingPoint(of: phase, from: view.contentOffset))
            return false
        }
        var phase = phase
        if case .gliding(let from, let to, _, let duration, let settles) = phase {
            phase = .gliding(from: from, to: to, start: clock.now, duration: duration, settles: settles)
        }
        self.phase = phase
        lastStep = clock.now
        schedule(clock)
        return true
    }

    private func restingPoint(of phase: Phase, from offset: Point) -> Point {
        if case .gliding(_, let to, _, _, _) = phase { return to }
        return offset
    }

    private func schedule(_ clock: Clock) {
        timer = clock.schedule(at: clock.now + Self.step) { [weak self] in self?.advance(clock) }
    }

    private func advance(_ clock: Clock) {
        guard let view else { return stop() }
        let now = clock.now
        let dt = max(0, now - lastStep)
        lastStep = now
        switch phase {
        case .idle:
            return
        case .decelerating(var velocity):
            let keep = pow(view.decelerationRate.rawValue, dt * 1000)
            var offset = view.contentOffset
            offset.x += velocity.x * dt
            offset.y += velocity.y * dt
            velocity.x *= keep
            velocity.y *= keep
            let range = view.offsetRange
            // Past an edge: held back hard without bounces stopped at it.
            let pastEdge = exp(-dt / Self.edgeDamping)
            if offset.x < range.min.x || offset.x > range.max.x {
                if view.bounces { velocity.x *= pastEdge } else { offset.x = min(max(offset.x, range.min.x), range.max.x); velocity.x = 0 }
            }
            if offset.y < range.min.y || offset.y > range.max.y {
                if view.bounces { velocity.y *= pastEdge } else { offset.y = min(max(offset.y, range.min.y), range.max.y); velocity.y = 0 }
            }
            view.contentOffset = offset
            if hypot(velocity.x, velocity.y) <= Self.restingSpeed {
                phase = .idle
                timer = nil
                if !springBack(in: view) { view.delegate?.scrollViewDidEndDecelerating(view) }
                return
            }
            phase = .decelerating(velocity: velocity)
        case .gliding(let from, let to, let start, let duration, let settles):
            let t = duration > 0 ? min(1, (now - start) / duration) : 1
            let eased = 1 - pow(1 - t, 3)
            view.contentOffset = Point(x: from.x + (to.x - from.x) * eased, y: from.y + (to.y - from.y) * eased)
            if t >= 1 {
                phase = .idle
                timer = nil
                if settles {
                    view.delegate?.scrollViewDidEndDecelerating(view)
                } else {
                    view.delegate?.scrollViewDidEndScrollingAnimation(view)
                }
                return
            }
        }
        schedule(clock)
    }

    /// Where a drag past an edge shows the content: the further the fingers go, the less it
    /// follows, never more than `dimension` out (UIKit's rubber band); at the edge without
    /// `bounces`.
    static func resisted(_ offset: Double, _ low: Double, _ high: Double, dimension: Double, bounces: Bool) -> Double {
        if offset >= low, offset <= high { return offset }
        let edge = offset < low ? low : high
        guard bounces, dimension > 0 else { return edge }
        let beyond = abs(offset - edge)
        let shown = (1 - 1 / (beyond * 0.55 / dimension + 1)) * dimension
        return offset < low ? edge - shown : edge + shown
    }
}

extension ScrollView {
    func offsetInRange(_ offset: Point) -> Bool { clampedOffset(offset) == offset }

    func clampedOffset(_ offset: Point) -> Point {
        let range = offsetRange
        return Point(x: min(max(offset.x, range.min.x), range.max.x), y: min(max(offset.y, range.min.y), range.max.y))
    }
}
