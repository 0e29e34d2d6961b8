// Vector output: Cairo's SVG surface, drawn through the same CairoContext as the screen, for
// exporting a drawing as SVG.
import CCairo
import TouchKit

/// An SVG file (or document in memory) being drawn. Draw inside ``draw(_:)``, then call
/// ``finish()`` to complete it.
public final class SVGSurface {
    let surface: OpaquePointer
    /// The file written, or "" for a document in memory.
    public let path: String
    public let width: Double
    public let height: Double
    private var finished = false

    /// Starts an SVG 1.1 file of `width` × `height` points at `path` (written as drawing goes on).
    public init(path: String, width: Double, height: Double) throws {
        self.path = path
        self.width = width
        self.height = height
        surface = cairo_svg_surface_create(path, width, height)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw GraphicsError("cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        // Points, not Cairo's default of pt-as-unit, so the picture is the canvas size in pixels.
        cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
    }

    /// Starts an SVG document in memory (for the clipboard): ``data`` once finished.
    public init(width: Double, height: Double) {
        path = ""
        self.width = width
        self.height = height
        let sink = ByteSink()
        self.sink = sink
        surface = cairo_svg_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), width, height)
        cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
    }

    /// Where a document in memory goes; kept alive as long as the surface writes into it.
    private var sink: ByteSink?

    /// The finished document in memory (empty for a file, or before ``finish()``).
    public var data: [UInt8] { finished ? sink?.bytes ?? [] : [] }

    deinit {
        if !finished { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
    }

    /// Draws into the document, in points (1 point = 1 SVG user unit = 1 CSS px). The context
    /// lives only for the call, so the surface can be finished afterwards.
    public func draw(_ body: (CairoContext) -> Void) {
        body(CairoContext(cairoSurface: surface))
    }

    /// Writes the rest of the file and closes it; the surface takes no more drawing.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw GraphicsError("cannot write \(path.isEmpty ? "an SVG document" : path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
