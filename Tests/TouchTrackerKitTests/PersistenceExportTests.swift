// Export: the drawing as PNG and SVG, painted as the canvas paints it.
#if canImport(Glibc)
import Glibc
#endif
import CCairo
import Graphics
import Logging
import Foundation
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: export")
struct PersistenceExportTests {
    let strokes = [
        Stroke.line(StrokeID(1), from: Point(x: 100, y: 100), to: Point(x: 500, y: 100)),
        Stroke(id: StrokeID(2), kind: .circle, points: [Point(x: 600, y: 300), Point(x: 800, y: 500)], color: .blue, width: 6),
        Stroke(id: StrokeID(3), kind: .freehand, points: [Point(x: 100, y: 600), Point(x: 200, y: 700), Point(x: 300, y: 600)],
               color: Color(hex: 0x00A000), width: 8),
    ]

    @Test("PNG: a white 1024x768 canvas with each stroke where it is drawn")
    func png() throws {
        let folder = TemporaryFolder()
        let path = folder.file("out.png")
        try DrawingExporter.writePNG(strokes, to: path)
        let image = try #require(PNGImage(path: path))
        #expect(image.width == 1024 && image.height == 768)
        #expect(image.pixel(300, 100) == [0, 0, 0], "the black line")
        #expect(image.pixel(300, 300) == [255, 255, 255], "white elsewhere")
        #expect(image.pixel(800, 400) == [0, 0, 255], "the circle's right edge")
        #expect(image.pixel(700, 400) == [255, 255, 255], "inside the circle")
        #expect(image.pixel(150, 650) == [0, 0xA0, 0], "the freehand stroke")
        #expect(folder.names == ["out.png"], "no temporary file left")
    }

    @Test("SVG: one path per stroke with its colour and width, at the canvas size")
    func svg() throws {
        let folder = TemporaryFolder()
        let path = folder.file("out.svg")
        try DrawingExporter.writeSVG(strokes, to: path)
        let text = String(decoding: readFile(path) ?? [], as: UTF8.self)
        #expect(text.contains("<svg") && text.contains("width=\"1024px\" height=\"768px\""))
        #expect(text.contains("d=\"M 100 100 L 500 100 \""), "\(text)")
        #expect(text.contains("stroke-width:6") && text.contains("stroke:rgb(0%,0%,100%)"))
        #expect(text.contains("stroke-linecap:round"))
        #expect(text.components(separatedBy: "<path").count - 1 == 3)
    }

    @Test("The page grows to hold strokes beyond 1024x768, and shrinks to fit Cairo's limits")
    func pageSize() {
        let far = [Stroke.line(StrokeID(1), from: .zero, to: Point(x: 2000, y: 100))]
        #expect(DrawingExporter.page(for: far).size == Size(width: 2007, height: 768))
        let huge = [Stroke.line(StrokeID(1), from: .zero, to: Point(x: 900_000, y: 100))]
        let page = DrawingExporter.page(for: huge)
        #expect(page.size.width == 16384 && page.scale < 1)
    }

    @Test("A15: the page reaches left of and above (0, 0) where lines were drawn there (the canvas scrolls anywhere), and the picture holds them")
    func pageReachesNegative() throws {
        let strokes = [Stroke.line(StrokeID(1), from: Point(x: -500, y: -200), to: Point(x: 100, y: 100))]
        let page = DrawingExporter.page(for: strokes)
        #expect(page.origin == Point(x: -507, y: -207))
        #expect(page.size == Size(width: 1024 + 507, height: 768 + 207))
        let folder = TemporaryFolder()
        try DrawingExporter.writePNG(strokes, to: folder.file("far.png"))
        let image = try #require(PNGImage(path: folder.file("far.png")))
        // The line's start, at (-500, -200), is 7 pt in from the picture's corner.
        #expect(image.pixel(7, 7) == [0, 0, 0])
        // A line touching the edge with its cap alone keeps the page at (0, 0).
        #expect(DrawingExporter.page(for: [Stroke.line(StrokeID(2), from: Point(x: 2, y: 2), to: Point(x: 50, y: 2))]).origin == .zero)
    }

    @Test("Ctrl+E's export writes drawing.png and drawing.svg into the pictures folder (made if missing), never over an earlier export")
    func intoPictures() throws {
        let folder = TemporaryFolder()
        let document = DrawingDocument(opening: folder.file("drawing.json"), clock: ManualClock(),
                                       logger: Logger(label: "test"), saveInBackground: false)
        let controller = DrawViewController(drawing: document.drawing)
        document.noticeDisplay = controller
        for stroke in strokes { document.drawing.add(stroke) }
        let pictures = folder.file("Pictures")
        let paths = document.export(canvas: Size(width: 900, height: 800), into: pictures)
        #expect(paths == [pictures + "/drawing.png", pictures + "/drawing.svg"])
        let image = try #require(PNGImage(path: pictures + "/drawing.png"))
        #expect(image.width == 900 && image.height == 800)
        #expect(controller.banner.isShowing && controller.banner.style == .info)
        #expect(controller.banner.message == "Exported drawing.png and drawing.svg to \(pictures)")
        #expect(document.export(into: pictures) == [pictures + "/drawing 2.png", pictures + "/drawing 2.svg"])
        #expect(document.export(into: pictures) == [pictures + "/drawing 3.png", pictures + "/drawing 3.svg"])
    }

    @Test("The pictures folder: XDG_PICTURES_DIR of user-dirs.dirs ($HOME expanded), else ~/Pictures; one set to the home folder itself means none")
    func picturesFolder() throws {
        let folder = TemporaryFolder()
        let env = { (dirs: String?) -> (String) -> String? in
            if let dirs { try? Data(dirs.utf8).write(to: URL(fileURLWithPath: folder.file("user-dirs.dirs"))) }
            return { ["HOME": "/home/ana", "XDG_CONFIG_HOME": folder.path][$0] }
        }
        #expect(DrawingLocation.picturesDirectory(environment: env(nil)) == "/home/ana/Pictures")
        #expect(DrawingLocation.picturesDirectory(environment: env("# made by xdg-user-dirs\nXDG_DESKTOP_DIR=\"$HOME/Schreibtisch\"\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n")) == "/home/ana/Bilder")
        #expect(DrawingLocation.picturesDirectory(environment: env("XDG_PICTURES_DIR=\"/srv/art\"\n")) == "/srv/art")
        #expect(DrawingLocation.picturesDirectory(environment: env("XDG_PICTURES_DIR=\"$HOME/\"\n")) == "/home/ana/Pictures")
    }
}

/// A PNG read back with Cairo, for pixel checks.
final class PNGImage {
    let width: Int
    let height: Int
    private let surface: OpaquePointer

    init?(path: String) {
        guard let surface = cairo_image_surface_create_from_png(path),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// 8-bit RGB of an opaque pixel.
    func pixel(_ x: Int, _ y: Int) -> [Int] {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let v = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)[x]
        return [Int((v >> 16) & 0xFF), Int((v >> 8) & 0xFF), Int(v & 0xFF)]
    }
}
