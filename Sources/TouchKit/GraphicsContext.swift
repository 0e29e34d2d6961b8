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

/// A round-capped, round-joined polyline of one colour and width: a line of the canvas, finished
/// or under a finger. A context may draw many of them faster than one path each
/// (``GraphicsContext/stroke(_:)``), and the window's painter draws live lines itself
/// (``LiveLines``).
public struct Polyline: Equatable, Sendable {
    public var points: [Point]
    public var width: Double
    public var color: Color

    public init(points: [Point], width: Double, color: Color) {
        self.points = points
        self.width = width
        self.color = color
    }
}

/// Pixels in memory that a context can copy from: a picture a view keeps of what it draws (the
/// canvas's line cache). 32-bit premultiplied ARGB, rows ``BitmapPixels/stride`` bytes apart.
/// TouchKit never makes one; the graphics layer's images are bitmaps.
public protocol Bitmap: AnyObject {
    /// Size in pixels.
    var pixelWidth: Int { get }
    var pixelHeight: Int { get }
    /// Pixels per point.
    var scale: Double { get }
    /// Calls `body` with the pixels, which hold everything drawn so far and stay readable (only)
    /// for its duration; nil, without calling it, for a bitmap that has no memory (one that
    /// could not be allocated).
    func withPixels<R>(_ body: (BitmapPixels) -> R) -> R?
}

/// A bitmap's memory, for reading.
public struct BitmapPixels {
    public let base: UnsafeRawPointer
    /// Bytes from one row to the next.
    public let stride: Int
    public let width: Int
    public let height: Int

    public init(base: UnsafeRawPointer, stride: Int, width: Int, height: Int) {
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
    }

    /// Row `y`'s pixels from column `x` on.
    @inline(__always)
    public func pixels(atRow y: Int, column x: Int) -> UnsafePointer<UInt32> {
        (base + y * stride + x * 4).assumingMemoryBound(to: UInt32.self)
    }
}

/// The drawing operations views use, in the spirit of `CGContext`.
///
/// TouchKit knows nothing about how pixels are made: the Graphics module implements this protocol
/// with Cairo, and tests implement it by recording calls. Coordinates are in points, in the current user
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
    /// Scales user space (a picture exported smaller than the drawing).
    func scaleBy(x: Double, y: Double)
    /// Applies `transform` to user space, after the current transformation (a view's
    /// ``View/transform``, H8).
    func concatenate(_ transform: AffineTransform)
    /// Device pixels per point in the current transformation: the window's scale on a HiDPI
    /// output, for a view that keeps a picture of itself at that scale.
    var deviceScale: Double { get }
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
    /// The smoothing set last (saved and restored with the state).
    var antialiasing: Antialiasing { get }
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
    /// Strokes `lines` in order with the current smoothing, leaving the path, colours and line
    /// attributes as the last line set them. A context may draw them by other means than a path
    /// each (Cairo's writes opaque straight lines as rows of pixels), with the same result give
    /// or take the smoothing of an edge pixel.
    func stroke(_ lines: [Polyline])
    /// Copies `bitmap`, its pixel (0, 0) at the origin of user space, over what is there within
    /// `rect`, without blending: the fast way to show a picture a view keeps of itself.
    func copy(_ bitmap: Bitmap, clippedTo rect: Rect)
    /// The same for a picture standing in for a moment while scaled (an older zoom's raster
    /// while fingers pinch): the nearest pixel may do, where smoothing costs a frame's time.
    func copyStandIn(_ bitmap: Bitmap, clippedTo rect: Rect)
    /// Lays `color`, opaque, over `rect` without blending, each pixel as a picture filled with it
    /// holds it: the fast way to show a picture of one colour (a drawing's paper, and nothing on it).
    func fillOpaque(_ rect: Rect, with color: Color)
    /// Draws one line of `text` centred in `rect` in the given colour and size.
    func drawText(_ text: String, centeredIn rect: Rect, color: Color, fontSize: Double)
    /// The size one line of `text` takes at `fontSize`, in points.
    func measureText(_ text: String, fontSize: Double) -> Size
    /// Draws `icon` filling `rect` (square) in `color`, from the icon theme named `theme` when it
    /// has the icon, else from the icon's own drawing; sharp at the device's scale.
    func drawIcon(_ icon: Icon, in rect: Rect, color: Color, theme: String?)
    /// Whether the window's painter draws `view`'s live lines (``View/liveLines()``) itself in this
    /// context, so that the view leaves those lines out.
    func omitsLiveLines(of view: View) -> Bool
    /// A picture of what `draw` draws within `size` points from user space's origin, made at this
    /// context's device scale for ``copy(_:clippedTo:)`` to show again where ``isPixelAligned``
    /// (``View/shouldRasterize``); nil where the context keeps none (a recording, a vector file).
    func makePicture(size: Size, _ draw: (GraphicsContext) -> Void) -> Bitmap?
    /// Draws into `picture`, one ``makePicture(size:_:)`` made, with `draw`'s user space in
    /// points from its origin as when it was made; false, having drawn nothing, where the context
    /// cannot (a picture it did not make).
    func drawAgain(into picture: Bitmap, _ draw: (GraphicsContext) -> Void) -> Bool
    /// Whether user space maps onto device pixels by ``deviceScale`` alone, unturned, with its
    /// origin on a whole device pixel: there a picture made at that scale copies pixel for pixel.
    var isPixelAligned: Bool { get }
}

extension GraphicsContext {
    public func omitsLiveLines(of view: View) -> Bool { false }

    public func copyStandIn(_ bitmap: Bitmap, clippedTo rect: Rect) { copy(bitmap, clippedTo: rect) }

    public func fillOpaque(_ rect: Rect, with color: Color) {
        saveGState()
        setFillColor(color)
        fill(rect)
        restoreGState()
    }

    public func makePicture(size: Size, _ draw: (GraphicsContext) -> Void) -> Bitmap? { nil }

    public func drawAgain(into picture: Bitmap, _ draw: (GraphicsContext) -> Void) -> Bool { false }

    public var isPixelAligned: Bool { false }

    /// Each line as a path of its own.
    public func stroke(_ lines: [Polyline]) {
        for line in lines { strokeAsPath(line) }
    }

    /// Strokes `line` through the path: round caps and joins, its colour and width. A single point
    /// shows as a dot (a zero-length segment with round caps).
    public func strokeAsPath(_ line: Polyline) {
        setStrokeColor(line.color)
        setLineWidth(line.width)
        setLineCap(.round)
        setLineJoin(.round)
        guard let first = line.points.first else { return }
        move(to: first)
        if line.points.count == 1 { addLine(to: first) }
        for point in line.points.dropFirst() { addLine(to: point) }
        strokePath()
    }
}
