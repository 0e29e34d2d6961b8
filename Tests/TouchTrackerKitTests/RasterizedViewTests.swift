// Views that rasterize (View.shouldRasterize, H9) on real pixels: the picture copied back is what
// drawing gives, it is drawn again only when something in it is marked to redraw, and the zoom
// control, which steps aside for every stroke, comes back as a copy.
import Graphics
import Testing
@testable import TouchKit
@testable import TouchTrackerKit

@Suite("Rasterized views")
struct RasterizedViewTests {
    /// A view that counts its draws and fills a smooth-edged disc (edges a copy must keep).
    final class Counted: View {
        var draws = 0
        var disc = Color.red
        override func draw(_ rect: Rect, in context: GraphicsContext) {
            draws += 1
            context.setFillColor(disc)
            context.addEllipse(in: bounds.insetBy(dx: 1.3, dy: 1.7))
            context.fillPath()
        }
    }

    /// A window with a panel (rasterizing or not) holding a counted subview.
    struct Scene {
        let window = Window(frame: Rect(x: 0, y: 0, width: 120, height: 80))
        let panel: Counted
        let chip = Counted(frame: Rect(x: 6, y: 5, width: 23, height: 13))
        /// Beside the chip, apart from it.
        let badge = Counted(frame: Rect(x: 36, y: 8, width: 20, height: 16))

        init(rasterizes: Bool, origin: Point = Point(x: 10, y: 10)) {
            window.backgroundColor = .white
            panel = Counted(frame: Rect(x: origin.x, y: origin.y, width: 62, height: 32))
            panel.backgroundColor = Color(red: 0.8, green: 0.8, blue: 0.8)
            panel.disc = Color(red: 0.1, green: 0.5, blue: 0.2)
            panel.clipsToBounds = true
            panel.shouldRasterize = rasterizes
            chip.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.5)
            panel.addSubview(chip)
            badge.backgroundColor = .white
            panel.addSubview(badge)
            window.addSubview(panel)
            _ = window.takeDirtyRegion()
        }

        /// Paints what is marked into `image` (everything, the first time).
        func paint(_ image: ImageSurface, scale: Double, whole: Bool = false) {
            let dirty = window.takeDirtyRegion()
            window.paint(whole ? DirtyRegion([window.bounds]) : dirty, into: image, scale: scale)
        }
    }

    static func image(_ scale: Double) -> ImageSurface {
        ImageSurface(width: Int((120 * scale).rounded(.up)), height: Int((80 * scale).rounded(.up)))
    }

    static func samePixels(_ a: ImageSurface, _ b: ImageSurface) -> Bool {
        (0..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { x in a.color(x: x, y: y) == b.color(x: x, y: y) } }
    }

    @Test("H9: a rasterized view shows the pixels drawing gives, and hidden and shown again it is copied, not drawn",
          arguments: [1.0, 2.0, 1.5])
    func copiedBack(scale: Double) {
        let drawn = Scene(rasterizes: false), copied = Scene(rasterizes: true)
        let a = Self.image(scale), b = Self.image(scale)
        drawn.paint(a, scale: scale, whole: true)
        copied.paint(b, scale: scale, whole: true)
        #expect(Self.samePixels(a, b))
        #expect(copied.panel.draws == 1 && copied.chip.draws == 1)
        for (scene, image) in [(drawn, a), (copied, b)] {
            scene.panel.isHidden = true
            scene.paint(image, scale: scale)
        }
        #expect(b.color(x: Int(20 * scale), y: Int(20 * scale)) == .white, "hidden, the window shows through")
        for (scene, image) in [(drawn, a), (copied, b)] {
            scene.panel.isHidden = false
            scene.paint(image, scale: scale)
        }
        #expect(Self.samePixels(a, b))
        #expect(copied.panel.draws == 1 && copied.chip.draws == 1, "shown again from its picture")
        #expect(drawn.panel.draws == 2 && drawn.chip.draws == 2)
    }

    @Test("H9: marking a subview to redraw, or a new scale, draws the picture again, and the change shows")
    func drawnAgain() {
        let scene = Scene(rasterizes: true)
        let image = Self.image(1)
        scene.paint(image, scale: 1, whole: true)
        scene.chip.disc = .black
        scene.chip.setNeedsDisplay()
        scene.paint(image, scale: 1)
        #expect(scene.panel.draws == 2 && scene.chip.draws == 2)
        let middle = (x: 27, y: 21)  // the chip's middle in the window
        #expect(image.color(x: middle.x, y: middle.y) == .black)
        scene.panel.isHidden = true
        scene.panel.isHidden = false
        let large = Self.image(2)
        scene.paint(large, scale: 2, whole: true)
        #expect(scene.panel.draws == 3, "a picture at 1 does not serve 2")
        #expect(large.color(x: 2 * middle.x, y: 2 * middle.y) == .black)
    }

    @Test("H9: a view marked inside a rasterized one is drawn again into the picture only where it lies: the picture is kept, the views elsewhere in it are not drawn again, and it shows what drawing gives",
          arguments: [1.0, 1.5, 2.0])
    func drawnAgainWhereMarked(scale: Double) throws {
        let drawn = Scene(rasterizes: false), copied = Scene(rasterizes: true)
        let a = Self.image(scale), b = Self.image(scale)
        drawn.paint(a, scale: scale, whole: true)
        copied.paint(b, scale: scale, whole: true)
        let picture = try #require(copied.panel.picture).bitmap
        for (scene, image) in [(drawn, a), (copied, b)] {
            // Its box is within device pixels at 150 %: the pixels it shares are drawn again whole.
            scene.chip.disc = .black
            scene.chip.setNeedsDisplay()
            scene.paint(image, scale: scale)
        }
        #expect(copied.panel.picture?.bitmap === picture, "the same picture, drawn into")
        #expect(copied.badge.draws == 1, "the badge, apart from the chip, not drawn again")
        #expect(copied.chip.draws == 2)
        #expect(Self.samePixels(a, b))
        // Hidden and shown again, the picture shows the change without drawing anything.
        copied.panel.isHidden = true
        copied.paint(b, scale: scale)
        copied.panel.isHidden = false
        copied.paint(b, scale: scale)
        #expect(copied.chip.draws == 2 && copied.panel.picture?.stale.isEmpty == true)
        #expect(Self.samePixels(a, b))
        // A subview hidden inside it is marked where it was: the panel shows through there.
        for (scene, image) in [(drawn, a), (copied, b)] {
            scene.badge.isHidden = true
            scene.paint(image, scale: scale)
        }
        #expect(copied.chip.draws == 2)
        #expect(Self.samePixels(a, b))
    }

    @Test("H9: where its origin or its size falls within device pixels the view is drawn every time, the same pixels as without a picture",
          arguments: [Point(x: 10.5, y: 10.25), Point(x: 12, y: 8)])
    func offPixels(origin: Point) {
        let drawn = Scene(rasterizes: false, origin: origin)
        let copied = Scene(rasterizes: true, origin: origin)
        // At 125 %, the first origin is off whole pixels, and 62 x 32 points are 77.5 x 40 pixels.
        let a = Self.image(1.25), b = Self.image(1.25)
        for _ in 0..<2 {
            for (scene, image) in [(drawn, a), (copied, b)] {
                scene.panel.isHidden = true
                scene.panel.isHidden = false
                scene.paint(image, scale: 1.25, whole: true)
            }
        }
        #expect(copied.panel.draws == 2 && copied.panel.picture == nil)
        #expect(Self.samePixels(a, b))
    }

    /// A canvas showing the zoom control, painted whole at `scale`.
    static func paintedZoomControl(scale: Double) -> (Canvas, ZoomControlView, ImageSurface) {
        let canvas = Canvas(width: 400, zoomControl: true)
        canvas.window.layoutIfNeeded()
        let image = ImageSurface(width: Int(400 * scale), height: Int(300 * scale))
        canvas.window.paint(DirtyRegion([canvas.window.bounds]), into: image, scale: scale)
        _ = canvas.window.takeDirtyRegion()
        return (canvas, canvas.controller.zoomControl, image)
    }

    @Test("H9 A15: the zoom control steps aside for a stroke and comes back from its picture, the same pixels, its buttons not drawn again",
          arguments: [1.0, 2.0])
    func zoomControlCopied(scale: Double) throws {
        let (canvas, control, image) = Self.paintedZoomControl(scale: scale)
        let before = ImageSurface(width: image.width, height: image.height)
        CairoContext(surface: before).copy(image, clippedTo: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        let picture = try #require(control.picture).bitmap
        // A stroke away from the control, then the finger lifts.
        canvas.down(1, 40, 40)
        canvas.frame()
        canvas.move(1, 120, 60)
        canvas.frame()
        #expect(control.isHidden)
        canvas.up(1)
        canvas.frame()
        canvas.clock.advance(by: DrawViewController.zoomControlReturnDelay)
        #expect(!control.isHidden)
        canvas.window.paint(canvas.window.takeDirtyRegion(), into: image, scale: scale)
        #expect(control.picture?.bitmap === picture, "the same picture, not drawn again")
        let box = control.convert(control.bounds, to: nil)
        for y in stride(from: Int(box.minY * scale), to: Int(box.maxY * scale), by: 1) {
            for x in stride(from: Int(box.minX * scale), to: Int(box.maxX * scale), by: 1) where image.color(x: x, y: y) != before.color(x: x, y: y) {
                Issue.record("pixel \(x),\(y) of the control differs after the stroke")
                return
            }
        }
    }

    @Test("H9 A15: the zoom control's level changing, as at every step of a pinch, is drawn again into its picture, which then holds the pixels of one made anew",
          arguments: [1.0, 2.0])
    func zoomLevelDrawnIntoPicture(scale: Double) throws {
        let (canvas, control, image) = Self.paintedZoomControl(scale: scale)
        let picture = try #require(control.picture).bitmap
        for zoom in [1.37, 0.5, 8.0] {
            control.show(zoom: zoom)
            canvas.window.paint(canvas.window.takeDirtyRegion(), into: image, scale: scale)
            #expect(control.picture?.bitmap === picture, "drawn into, not made anew")
            let drawnAgain = try #require(control.picture?.bitmap as? ImageSurface)
            control.picture = nil
            let fresh = ImageSurface(width: image.width, height: image.height)
            canvas.window.paint(DirtyRegion([canvas.window.bounds]), into: fresh, scale: scale)
            let made = try #require(control.picture?.bitmap as? ImageSurface)
            #expect(Self.samePixels(drawnAgain, made), "at \(zoom)")
            #expect(Self.samePixels(image, fresh), "at \(zoom)")
            control.picture = ViewPicture(bitmap: drawnAgain, scale: scale, size: control.bounds.size)
        }
    }
}
