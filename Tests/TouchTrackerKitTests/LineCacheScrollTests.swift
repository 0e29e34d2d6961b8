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

    @Test("A15: at every scale, fractional ones too, the strips scrolls show are drawn as a raster made whole at that view draws them",
          arguments: [1.0, 1.25, 1.5, 2.0])
    func scrolledStripsAsMadeWhole(scale: Double) throws {
        let drawing = Drawing(strokes: LineCacheBandsTests.mixed(400, in: Rect(x: -200, y: -300, width: 800, height: 900)))
        let size = Size(width: 203, height: 151)
        let clock = ManualClock(now: 10)
        func cache() -> LineCache {
            let cache = LineCache(drawing: drawing, ink: .trueColors)
            cache.clock = { clock }
            return cache
        }
        func settle(_ cache: LineCache) {
            var turns = 0
            while cache.isBuilding || cache.hasRepairsPending, turns < 10_000 {
                clock.advance(by: 0.016)
                turns += 1
            }
        }
        for zoom in [1.0, 8.0] {
            let scrolled = cache()
            var origin = Point(x: 10.3, y: -7.9)
            func view() -> CanvasViewport { CanvasViewport(origin: origin, zoom: zoom).snapped(toPixelsAt: scale) }
            _ = scrolled.image(size: size, scale: scale, viewport: view())
            settle(scrolled)
            // Steps of fractions of a point, as fingers move, each way.
            for step in [Point(x: 3.3, y: 0), Point(x: 0, y: -5.7), Point(x: -7.1, y: 2.9), Point(x: 11.45, y: 13.3)] {
                origin = Point(x: origin.x + step.x / zoom, y: origin.y + step.y / zoom)
                _ = scrolled.image(size: size, scale: scale, viewport: view())
                settle(scrolled)
            }
            let made = cache()
            _ = made.image(size: size, scale: scale, viewport: view())
            settle(made)
            let a = scrolled.image(size: size, scale: scale, viewport: view()).pixelWords()
            let b = made.image(size: size, scale: scale, viewport: view()).pixelWords()
            func channelGap(_ p: UInt32, _ q: UInt32) -> Int {
                var most = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let x = Int((p >> UInt32(shift)) & 0xFF), y = Int((q >> UInt32(shift)) & 0xFF)
                    most = max(most, abs(x - y))
                }
                return most
            }
            // A strip's lines and the whole raster's are drawn by different passes, which may
            // disagree by a few levels at a line's edge (at most 17 of 255 here, in a tenth of a
            // percent of the pixels, at every scale); a strip drawn through Cairo's path where
            // the rows could not be written (its clip off whole pixels at 125 and 150 %) differed
            // in 1 to 2 % of them, by up to 172.
            let gaps = zip(a, b).map { channelGap($0, $1) }
            let off = gaps.count { $0 > 2 }
            #expect(gaps.max()! <= 32 && off * 200 <= a.count,
                    "at \(zoom * 100) %: \(off) of \(a.count) pixels differ by more than 2/255, the most by \(gaps.max()!)")
            #expect(scrolled.wholeBuilds == 1, "a scroll drew the whole raster again")
        }
    }
}
