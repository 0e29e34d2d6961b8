// The host's repaint step (Window.paint) on real pixels: whole-pixel damage and the canvas's paper.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Window painting")
struct WindowPaintingTests {
    /// A damaged rectangle with fractional edges, and which device pixels must and must not change.
    struct Damage: Sendable, CustomTestStringConvertible {
        var scale: Double
        var rect: Rect
        var repainted: [(Int, Int)]
        var untouched: [(Int, Int)]
        var testDescription: String { "scale \(scale)" }
    }

    @Test("A damaged rectangle with fractional edges is repainted over whole device pixels, with no half-blended seam",
          arguments: [
              Damage(scale: 1, rect: Rect(x: 10.3, y: 10.6, width: 5.4, height: 4.1),
                     repainted: [(10, 10), (15, 14), (12, 12)], untouched: [(9, 12), (16, 12), (12, 9), (12, 15)]),
              Damage(scale: 2, rect: Rect(x: 5.3, y: 5.3, width: 2, height: 2),
                     repainted: [(10, 10), (14, 14)], untouched: [(9, 10), (15, 15)]),
          ])
    func wholePixels(_ damage: Damage) throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        window.backgroundColor = .red
        let image = ImageSurface(width: Int(40 * damage.scale), height: Int(40 * damage.scale))
        window.paint(DirtyRegion([damage.rect]), into: image, scale: damage.scale)
        for (x, y) in damage.repainted {
            #expect(try #require(image.color(x: x, y: y)) == .red, "pixel \(x),\(y) fully repainted")
        }
        for (x, y) in damage.untouched {
            #expect(try #require(image.color(x: x, y: y)).alpha == 0, "pixel \(x),\(y) outside the damage untouched")
        }
    }

    @Test("The canvas paints its own white paper: an empty canvas is opaque white with nothing behind it drawn")
    func paper() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.backgroundColor = .red
        let canvas = DrawView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(canvas)
        let image = ImageSurface(width: 100, height: 100)
        window.paint(DirtyRegion([window.bounds]), into: image, scale: 1)
        #expect(try #require(image.color(x: 50, y: 50)) == DrawView.paperColor)
        #expect(try #require(image.color(x: 0, y: 99)) == DrawView.paperColor)
        #expect(canvas.isOpaque)
    }
}
