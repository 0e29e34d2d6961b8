// A scroll view scrolled by a wheel or a touchpad (S9), reached through TouchInput+Scroll.swift.
extension ScrollView {
    func scrollByPointer(_ delta: Point, time: Double, source: ScrollSource) {
        motion.stop()
        let range = offsetRange
        switch source {
        case .wheel:
            contentOffset = clampedOffset(Point(x: contentOffset.x + (scrolls(horizontally: true) ? delta.x : 0),
                                                y: contentOffset.y + (scrolls(horizontally: false) ? delta.y : 0)))
        case .touchpad:
            if pointerScroll == nil {
                pointerScroll = PointerScroll(start: contentOffset)
                delegate?.scrollViewWillBeginDragging(self)
            }
            pointerScroll?.add(delta, at: time)
            guard let travel = pointerScroll?.travel, let start = pointerScroll?.start else { return }
            var offset = contentOffset
            if scrolls(horizontally: true) {
                offset.x = ScrollMotion.resisted(start.x + travel.x, range.min.x, range.max.x, dimension: bounds.width, bounces: bounces)
            }
            if scrolls(horizontally: false) {
                offset.y = ScrollMotion.resisted(start.y + travel.y, range.min.y, range.max.y, dimension: bounds.height, bounces: bounces)
            }
            contentOffset = offset
        }
    }

    func pointerScrollEnded(time: Double) {
        guard let scroll = pointerScroll else { return }
        pointerScroll = nil
        let velocity = scroll.samples.velocity(at: time)
        let decelerates = motion.release(with: Point(x: scrolls(horizontally: true) ? velocity.x : 0,
                                                     y: scrolls(horizontally: false) ? velocity.y : 0), in: self)
        delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerates)
    }
}

/// A touchpad's scroll in progress: where the content was when it began, how far the fingers
/// have moved it, and recent moves for their speed when they lift.
struct PointerScroll {
    let start: Point
    private(set) var travel = Point.zero
    private(set) var samples = TravelSamples()

    init(start: Point) { self.start = start }

    mutating func add(_ delta: Point, at time: Double) {
        travel = Point(x: travel.x + delta.x, y: travel.y + delta.y)
        samples.add(travel, at: time)
    }
}
