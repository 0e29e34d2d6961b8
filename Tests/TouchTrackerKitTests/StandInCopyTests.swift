// The older zoom's raster shown scaled while a pinch's new one is made (A15): copied by rows, each
// pixel the one Cairo's nearest filter takes, at any zoom ratio, place and scale.
@testable import Graphics
import Testing
import TouchKit

@Suite("A pinch's stand-in copied by rows")
struct StandInCopyTests {
    /// An image of `size` points at `scale` whose every pixel differs from its neighbours.
    static func noise(_ size: Size, scale: Double) -> ImageSurface {
        let image = ImageSurface(size: size, scale: scale)
        var random = SplitMix(seed: 5)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let color = Color(red: Double.random(in: 0...1, using: &random), green: Double.random(in: 0...1, using: &random),
                                  blue: Double.random(in: 0...1, using: &random))
                image.fill(rows: y..<y + 1, columns: x..<x + 1, with: color)
            }
        }
        return image
    }

    @Test("A15: the stand-in's copy by rows takes each pixel Cairo's nearest filter takes, zoomed in or out, from any place, at scales 1 and 2 (but where a pixel's centre falls on an edge of the image's pixels, within Cairo's fixed point)",
          arguments: [(1.0, 1.0), (2.0, 2.0), (1.0, 2.0), (2.0, 1.0)])
    func rowsMatchCairo(sourceScale: Double, targetScale: Double) throws {
        let stale = Self.noise(Size(width: 120, height: 80), scale: sourceScale)
        let canvas = Size(width: 200, height: 150)
        // A window's buffer: its own pixels, user space in points scaled onto them.
        let base = CairoContext(surface: ImageSurface(size: Size(width: canvas.width * targetScale, height: canvas.height * targetScale), scale: 1))
        base.scaleBy(x: targetScale, y: targetScale)
        for ratio in [2.0, 1.37, 0.5, 0.731, 3.3, 8.0, 1.0 / 6] {
            for place in [Point(x: 0, y: 0), Point(x: -13.37, y: 7.25), Point(x: 21.5, y: -40.1)] {
                // As the canvas draws it: whole points of the canvas the scaled raster covers.
                let covered = Rect(x: place.x, y: place.y, width: 120 * ratio, height: 80 * ratio)
                    .intersection(Rect(origin: .zero, size: canvas)).integralInterior
                guard !covered.isEmpty else { continue }
                let clip = Rect(x: (covered.minX - place.x) / ratio, y: (covered.minY - place.y) / ratio,
                                width: covered.width / ratio, height: covered.height / ratio)
                let transform = AffineTransform(a: ratio, b: 0, c: 0, d: ratio, tx: place.x, ty: place.y)
                var byRows = false
                let rows = try #require(base.makePicture(size: canvas) { context in
                    let context = context as! CairoContext
                    context.concatenate(transform)
                    context.clip(to: clip)
                    byRows = stale.withPixels { context.copyScaledRows(of: $0, scale: stale.scale) } ?? false
                } as? ImageSurface)
                #expect(byRows, "ratio \(ratio) from \(place): copied by Cairo")
                let cairo = try #require(base.makePicture(size: canvas) { context in
                    let context = context as! CairoContext
                    context.copiesScaledRows = false
                    context.concatenate(transform)
                    context.copyStandIn(stale, clippedTo: clip)
                } as? ImageSurface)
                // Cairo steps across a row in fixed point (a 65,536th of a pixel), which drifts a
                // few thousandths of the image's pixel over a row: the two may take different
                // pixels only where a pixel's centre falls that close to an edge between two.
                let k = ratio * targetScale / sourceScale
                func onEdge(_ pixel: Int, _ origin: Double) -> Bool {
                    let u = (Double(pixel) + 0.5 - origin * targetScale) / k
                    return abs(u - u.rounded()) < 0.01
                }
                #expect(rows.width == Int(canvas.width * targetScale))
                let a = rows.pixelWords(), b = cairo.pixelWords()
                let differ = a.indices.filter { a[$0] != b[$0] }
                let apart = differ.filter { !onEdge($0 % rows.width, place.x) && !onEdge($0 / rows.width, place.y) }
                #expect(apart.isEmpty, "ratio \(ratio) from \(place): \(apart.count) pixels differ away from the image's pixels' edges")
            }
        }
    }
}
