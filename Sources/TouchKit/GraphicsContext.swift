/// How the ends of stroked lines are drawn.
public enum LineCap: Hashable, Sendable {
    /// The line stops exactly at its end point.
    case butt
    /// A half circle beyond the end point.
    case round
    /// A half square beyond the end point.
    case square
}

/// How the corners of stroked paths are drawn.
public enum LineJoin: Hashable, Sendable {
    case miter
    case round
    case bevel
}

/// How finely edges are smoothed.
public enum Antialiasing: Hashable, Sendable {
    /// Full quality: what stays on screen.
    case smooth
    /// Coarser coverage steps at a fraction of the cost, for what is redrawn every frame (a line
    /// under a moving finger): at 60 frames a second the difference cannot be seen.
    case fast
    /// No smoothing at all: whole pixels, about a quarter of ``fast``'s cost, for frames that
    /// would otherwise miss their deadline. What is drawn so must be drawn again smooth soon.
    case draft
}

/// The drawing operations views use, in the spirit of `CGContext`.
///
/// TouchKit knows nothing about pixels: the Graphics module implements this protocol with Cairo,
/// and tests implement it by recording calls. Coordinates are in points, in the current user
/// space (which ``translateBy(x:y:)`` moves). The path is a single current path: `move(to:)`,
/// `addLine(to:)` and `addEllipse(in:)` extend it; `strokePath()` and `fillPath()` paint it and
/// clear it. State set by the `set...` calls, the translation and the clip are saved and restored
/// together by ``saveGState()`` / ``restoreGState()``, with the antialiasing.
public protocol GraphicsContext: AnyObject {
    /// Pushes a copy of the graphics state (colours, line attributes, translation, clip).
    func saveGState()
    /// Pops the state pushed by the matching ``saveGState()``.
    func restoreGState()
    /// Moves the origin of user space.
    func translateBy(x: Double, y: Double)
    /// Intersects the clip with a rectangle in user space.
    func clip(to rect: Rect)
    func setFillColor(_ color: Color)
    /// Fills a rectangle with the fill colour; does not touch the current path.
    func fill(_ rect: Rect)
    func setStrokeColor(_ color: Color)
    func setLineWidth(_ width: Double)
    func setLineCap(_ cap: LineCap)
    func setLineJoin(_ join: LineJoin)
    /// How edges of what is stroked or filled next are smoothed (``Antialiasing/smooth`` at first).
    func setAntialiasing(_ antialiasing: Antialiasing)
    /// Starts a new subpath at a point.
    func move(to point: Point)
    /// Adds a straight segment from the current point.
    func addLine(to point: Point)
    /// Strokes the current path with the stroke colour and line attributes, then clears it.
    func strokePath()
    /// Fills the current path with the fill colour (non-zero winding), then clears it.
    func fillPath()
    /// Adds an ellipse inscribed in the rectangle as a closed subpath.
    func addEllipse(in rect: Rect)
    /// Whether the window's painter draws `view`'s sketch (``View/sketch()``) itself in this
    /// context, so that the view leaves those lines out.
    func omitsSketch(of view: View) -> Bool
}

extension GraphicsContext {
    public func omitsSketch(of view: View) -> Bool { false }
}
