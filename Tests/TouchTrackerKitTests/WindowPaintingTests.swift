// The host's repaint step (Window.paint) on real pixels: whole-pixel damage and the canvas's paper.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Window painting")
struct WindowPaintingTests {
    @Test("A damaged rectangle with fractional edges is repainted over whole pixels, with no half-blended seam")
    func wholePixels() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        window.backgroundColor = .red
        let image = ImageSurface(width: 40, height: 40)
        window.paint(DirtyRegion([Rect(x: 10.3, y: 10.6, width: 5.4, height: 4.1)]), into: image, scale: 1)
        for (x, y) in [(10, 10), (15, 14), (12, 12)] {
            #expect(try #require(image.color(x: x, y: y)) == .red, "pixel \(x),\(y) fully repainted")
        }
        for (x, y) in [(9, 12), (16, 12), (12, 9), (12, 15)] {
            #expect(try #require(image.color(x: x, y: y)).alpha == 0, "pixel \(x),\(y) outside the damage untouched")
        }
    }

    @Test("At scale 2 a damaged rectangle covers the whole device pixels under it")
    func wholePixelsAtScale2() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        window.backgroundColor = .blue
        let image = ImageSurface(width: 40, height: 40)
        window.paint(DirtyRegion([Rect(x: 5.3, y: 5.3, width: 2, height: 2)]), into: image, scale: 2)
        #expect(try #require(image.color(x: 10, y: 10)) == .blue)
        #expect(try #require(image.color(x: 14, y: 14)) == .blue)
        #expect(try #require(image.color(x: 9, y: 10)).alpha == 0)
        #expect(try #require(image.color(x: 15, y: 15)).alpha == 0)
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
