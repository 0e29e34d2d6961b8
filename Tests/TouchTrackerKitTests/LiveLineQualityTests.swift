// Live lines drafted (whole pixels) only while many long lines move, smooth again once they rest.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Live line quality")
struct LiveLineQualityTests {
    /// Pixels of `image` inside `rect` that are neither paper nor line colour: the edge
    /// smoothing's in-between shades.
    func smoothedPixels(_ image: ImageSurface, in rect: Rect) -> Int {
        var count = 0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let c = image.color(x: x, y: y)
                if c != .white && c != .red { count += 1 }
            }
        }
        return count
    }

    /// Ten fingers dragging lines down the whole canvas (slanted, so their edges need smoothing).
    func tenLongLines(_ canvas: Canvas, to bottom: Double) {
        for id in 0..<10 { canvas.down(Int32(id), 20 + Double(id) * 38, 10) }
        canvas.frame()
        for id in 0..<10 { canvas.move(Int32(id), 40 + Double(id) * 38, bottom) }
        canvas.frame()
    }

    @Test("Ten long lines moving together are drawn in whole pixels, and smooth once the fingers rest")
    func draftedWhileMovingThenSmooth() {
        let canvas = Canvas()
        let image = canvas.laidOutRender()
        tenLongLines(canvas, to: 290)
        canvas.render(into: image)
        let area = Rect(x: 0, y: 40, width: 400, height: 200)
        #expect(smoothedPixels(image, in: area) == 0, "moving lines past the budget are drafted")

        // Still down, at rest: within 50 ms they are drawn smooth again, without any new input.
        canvas.clock.advance(by: 0.06)
        #expect(canvas.render(into: image) != nil, "the rest triggers a repaint")
        #expect(smoothedPixels(image, in: area) > 500)
        for id in 0..<10 { canvas.up(Int32(id)) }
        canvas.frame()
    }

    @Test("A few fingers, or short lines, are always drawn smooth")
    func ordinaryDrawingIsNeverDrafted() {
        let canvas = Canvas()
        let image = canvas.laidOutRender()
        tenLongLines(canvas, to: 60)
        canvas.render(into: image)
        #expect(smoothedPixels(image, in: Rect(x: 0, y: 12, width: 400, height: 40)) > 100)

        let two = Canvas()
        let other = two.laidOutRender()
        two.down(1, 20, 10)
        two.down(2, 200, 10)
        two.frame()
        two.move(1, 60, 290)
        two.move(2, 260, 290)
        two.frame()
        two.render(into: other)
        #expect(smoothedPixels(other, in: Rect(x: 0, y: 40, width: 400, height: 200)) > 100)
    }
}
