// Vector output: Cairo's SVG surface behind TouchKit's drawing interface, for exporting a drawing
// as SVG. The context repeats CairoContext's few calls on a cairo_t of any surface (CairoContext
// itself is bound to image surfaces).
import CCairo
import TouchKit

/// An SVG file being drawn. Draw through ``context``, then call ``finish()`` to complete the file.
public final class SVGSurface {
    let surface: OpaquePointer
    public let path: String
    public let width: Double
    public let height: Double
    /// Draws into the document, in points (1 point = 1 SVG user unit = 1 CSS px).
    public private(set) lazy var context = VectorContext(surface: surface)
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

    deinit {
        if !finished { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
    }

    /// Writes the rest of the file and closes it; the surface takes no more drawing.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        _ = context  // a document with nothing drawn still gets its header and size
        context.release()
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw GraphicsError("cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// A ``GraphicsContext`` over any Cairo surface (used for SVG); the same drawing model as
/// ``CairoContext``: colours set with the `set...` calls apply when a path is stroked or filled.
public final class VectorContext: GraphicsContext {
    private var cairo: OpaquePointer?
    private var fill = Color.black
    private var stroke = Color.black

    init(surface: OpaquePointer) {
        cairo = cairo_create(surface)
        cairo_set_line_width(cairo, 1)
    }

    deinit { release() }

    /// Drops the cairo_t so that the surface can be finished.
    func release() {
        if let cairo { cairo_destroy(cairo) }
        cairo = nil
    }

    public func saveGState() { cairo_save(cairo) }
    public func restoreGState() { cairo_restore(cairo) }
    public func translateBy(x: Double, y: Double) { cairo_translate(cairo, x, y) }
    public func scaleBy(x: Double, y: Double) { cairo_scale(cairo, x, y) }

    public func clip(to rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cairo)
    }

    public func setFillColor(_ color: Color) { fill = color }
    public func setStrokeColor(_ color: Color) { stroke = color }

    public func fill(_ rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        apply(fill)
        cairo_fill(cairo)
    }

    public func setLineWidth(_ width: Double) { cairo_set_line_width(cairo, width) }

    public func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_SQUARE)
        }
    }

    public func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    public func move(to point: Point) { cairo_move_to(cairo, point.x, point.y) }
    public func addLine(to point: Point) { cairo_line_to(cairo, point.x, point.y) }

    public func addEllipse(in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX, rect.midY)
        cairo_scale(cairo, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cairo)
    }

    public func strokePath() {
        apply(stroke)
        cairo_stroke(cairo)
    }

    public func fillPath() {
        apply(fill)
        cairo_fill(cairo)
    }

    private func apply(_ color: Color) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }
}
