/// One call into ``TouchInput``, as a value: what a recording of a session stores and a replay
/// feeds back through the same adapter, so a replay delivers exactly what the live session did.
public enum InputEvent: Equatable, Sendable {
    case down(TouchInput.ID, Point, time: Double, kind: Touch.Kind, force: Double)
    /// `force` is nil when the motion kept the previous pressure.
    case motion(TouchInput.ID, Point, time: Double, force: Double?)
    case up(TouchInput.ID, time: Double)
    case frame
    case cancel(TouchInput.Source)
    /// The host began and ended one turn of reading its input (``TouchInput/beginBatch()``).
    case beginBatch
    case endBatch
    /// A device hovers, touching nothing (``TouchInput/hover(_:at:time:)``).
    case hover(TouchInput.ID, Point, time: Double)
    /// A hovering device left (``TouchInput/hoverEnded(_:time:)``).
    case hoverEnded(TouchInput.ID, time: Double)
    /// A wheel or a touchpad scrolls (``TouchInput/scroll(by:at:time:source:)``).
    case scroll(Point, at: Point, time: Double, source: ScrollSource)
    /// A touchpad's fingers lifted (``TouchInput/scrollEnded(time:)``).
    case scrollEnded(time: Double)
    /// A touchpad's pinch began with the pointer at a point (``TouchInput/pinchBegan(at:time:)``).
    case pinchBegan(at: Point, time: Double)
    /// The pinch's fingers are `scale` times as far apart as when it began and their middle moved
    /// by `translation` since the last change (``TouchInput/pinchChanged(scale:translation:time:)``).
    case pinchChanged(scale: Double, translation: Point, time: Double)
    /// The pinch's fingers lifted, or the compositor cancelled it (``TouchInput/pinchEnded(time:cancelled:)``).
    case pinchEnded(time: Double, cancelled: Bool)
    /// A scroll with Ctrl held zooms by a factor about a point (``TouchInput/zoom(by:at:time:source:)``).
    case zoom(Double, at: Point, time: Double, source: ScrollSource)
    /// A device reported a contact's tilt, size or height (``TouchInput/report(_:_:)``).
    case attributes(TouchInput.ID, Touch.Attributes)
}

extension TouchInput {
    /// Makes the call `event` stands for.
    public func apply(_ event: InputEvent) {
        switch event {
        case let .down(id, location, time, kind, force): down(id, at: location, time: time, kind: kind, force: force)
        case let .motion(id, location, time, force): motion(id, at: location, time: time, force: force)
        case let .up(id, time): up(id, time: time)
        case .frame: frame()
        case .cancel(let source): cancel(source: source)
        case .beginBatch: beginBatch()
        case .endBatch: endBatch()
        case let .hover(id, location, time): hover(id, at: location, time: time)
        case let .hoverEnded(id, time): hoverEnded(id, time: time)
        case let .scroll(delta, location, time, source): scroll(by: delta, at: location, time: time, source: source)
        case let .scrollEnded(time): scrollEnded(time: time)
        case let .pinchBegan(location, time): pinchBegan(at: location, time: time)
        case let .pinchChanged(scale, translation, time): pinchChanged(scale: scale, translation: translation, time: time)
        case let .pinchEnded(time, cancelled): pinchEnded(time: time, cancelled: cancelled)
        case let .zoom(factor, location, time, source): zoom(by: factor, at: location, time: time, source: source)
        case let .attributes(id, attributes): report(id, attributes)
        }
    }
}
