// The line cache scrolled: its raster moves where it starts rather than its pixels (a scrollable
// image), the strips a scroll shows are laid with paper and made as tiles over turns. After any run
// of scrolls the raster is the one a cache whose scrolls copy pixels holds.
import Graphics
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("The line cache scrolled")
struct LineCacheScrollTests {
    @Test("A15: scrolled by rows, columns, diagonally, past the raster and far one way, the raster holds what moving its pixels makes",
          arguments: [(1.0, 1.0), (2.0, 1.0), (1.0, 2.5), (2.0, 0.5), (1.75, 1.0)])
    func scrolledAsMovedPixels(scale: Double, zoom: Double) throws {
        let drawing = Drawing(strokes: LineCacheBandsTests.mixed(500, in: Rect(x: -300, y: -900, width: 1200, height: 2400)))
        let size = Size(width: 200, height: 150)
        let clock = ManualClock(now: 10)
        let caches = [true, false].map { inPlace in
            let cache = LineCache(drawing: drawing, ink: .trueColors)
            cache.clock = { clock }
            cache.scrollsInPlace = inPlace
            return cache
        }
        var origin = Point(x: 0, y: 0)
        var random = SplitMix(seed: 5)
        func view() -> CanvasViewport { CanvasViewport(origin: origin, zoom: zoom).snapped(toPixelsAt: scale) }
        func settle() {
            var turns = 0
            while caches.contains(where: { $0.isBuilding || $0.hasRepairsPending }), turns < 10_000 {
                clock.advance(by: 0.016)
                turns += 1
            }
        }
        let first = caches.map { $0.image(size: size, scale: scale, viewport: view()) }
        settle()
        #expect(first[0].scrollsInPlace && !first[1].scrollsInPlace)
        // Small steps every way, a jump past the raster, then far down and back up: past either
        // end of the scrollable image's mappings.
        var steps = (0..<12).map { _ in Point(x: Double.random(in: -30...30, using: &random), y: Double.random(in: -40...40, using: &random)) }
        steps += [Point(x: 0, y: 400), Point(x: -250, y: 0)] + Array(repeating: Point(x: 1, y: 120), count: 14)
            + Array(repeating: Point(x: -1, y: -130), count: 28)
        for (i, step) in steps.enumerated() {
            origin = Point(x: origin.x + step.x / zoom, y: origin.y + step.y / zoom)
            let shown = caches.map { $0.image(size: size, scale: scale, viewport: view()) }
            settle()
            #expect(shown[0] === first[0], "step \(i) made a new raster")
            let a = shown[0].pixelWords(), b = shown[1].pixelWords()
            let differing = zip(a, b).count { $0 != $1 }
            try #require(differing == 0, "step \(i), scrolled by \(step): \(differing) of \(a.count) pixels differ")
        }
        #expect(caches[0].wholeBuilds == 1, "a scroll drew the whole raster again")
    }
}
