// Every limit on what comes from outside the app — drawing files, journals, pastes, recordings,
// device traces, the compositor — in one place, so that a reviewer can see at once how much any
// input can make the app allocate or do. docs/security.md lists each with where it is enforced.
// Plain constants: no imports, so every module (Wayland bindings included) can read them.

/// The app's limits on outside data. Each is checked where the data enters; anything past a
/// limit is refused with a one-line error or clamped, as the limit's comment says.
public enum Limit {
    // MARK: Geometry

    /// Coordinates lie within ±this many points. Drawing files and pastes past it are refused;
    /// input (the compositor, recordings, traces) is clamped to it. Cairo's fixed-point range is
    /// about ±8 million.
    public static let coordinate = 1_000_000.0
    /// Line widths lie in (0, this] points.
    public static let lineWidth = 1000.0

    // MARK: Rasters

    /// Pixels in any one image the app allocates (a window buffer, an export, a cursor): 2^26, an
    /// 8K screen (7680x4320, 33 M) with room, 256 MiB at 4 bytes a pixel.
    public static let rasterPixels = 1 << 26
    /// The longest side of any image, in pixels (Cairo's own limit is 32,767).
    public static let rasterSide = 16_384
    /// Pixels of line length in one exported or copied picture (2^28: a hundred thousand lines
    /// across a 4K page), which bounds the time it takes to paint; past it the picture is scaled
    /// down.
    public static let pictureLinePixels = 1 << 28
    /// The largest output scale taken from the compositor.
    public static let outputScale = 8

    // MARK: Drawing files and pastes

    /// The largest drawing file or paste read, in bytes.
    public static let drawingFileBytes = 128 << 20
    public static let strokes = 250_000
    public static let pointsPerStroke = 100_000
    public static let totalPoints = 2_000_000
    /// Stroke ids lie in 1...this (2^53 − 1: exact in every JSON reader; `id + 1` never overflows).
    public static let strokeID = (1 << 53) - 1
    /// The save token's length, in bytes.
    public static let tokenBytes = 64
    /// The largest journal replayed, in bytes: the writer folds a journal into its file before it
    /// passes 1 MiB and a quarter of the file, so a quarter of the largest file; a larger one is
    /// set aside as damaged.
    public static let journalBytes = drawingFileBytes / 4

    // MARK: Other files

    /// Preferences, `user-dirs.dirs` and the like: small text files.
    public static let settingsFileBytes = 64 << 10
    /// A recording or device trace replayed: ten fingers at 120 Hz for an hour, with room.
    public static let inputFileBytes = 256 << 20
    /// One cursor image file.
    public static let cursorFileBytes = 4 << 20
    /// One SVG icon of the desktop's icon theme (symbolic icons are a few kilobytes).
    public static let iconFileBytes = 1 << 20

    // MARK: Traces and recordings

    /// Multitouch slots a device trace may use (0 ..< this): panels have ten or so, and the slots
    /// in use are visited on every report. A trace past it is refused, naming its line; so is a
    /// protocol-A report of more contacts than this (their matching costs the square of them).
    public static let traceSlots = 64
    /// Lines read to tell which kind of file an input is: a pasted trace may follow a few
    /// paragraphs of prose. A file none of whose first lines any reader recognises is refused.
    public static let inputKindLines = 400
    /// An evtest event's time lies within ±this many seconds (a kernel's stamps are far inside),
    /// so every time and every difference of two is finite. A line past it is refused.
    public static let traceTime = 1e15
    /// Touches down at once, of every source: the canvas's work per frame grows with them. A
    /// recording past it is refused, naming its line; the compositor's touches past it are
    /// ignored until some lift.
    public static let touches = 64
    /// Touch events read from the compositor and not yet handled: a turn handles them for a
    /// budget of time and leaves the rest for later turns, so reading never waits. Past this many
    /// (tens of megabytes, seconds of the fastest flood) the rest are handled at once.
    public static let touchBacklog = 1_000_000

    // MARK: Compositor

    /// The largest keymap taken from the compositor, in bytes: a full keymap is tens of KiB. A
    /// larger one is refused and the keyboard keeps the keymap it had.
    public static let keymapBytes = 4 << 20

    // MARK: Clipboard

    /// Seconds a paste may take in all, from asking to the last byte: the owner sending a byte at
    /// a time cannot keep it open. Past it the paste fails with a banner.
    public static let pasteSeconds = 5.0
    /// Seconds another program may take to read in all what it asked us for, before we close its
    /// pipe.
    public static let clipboardSendSeconds = 30.0
    /// Transfers to other programs at once: each holds a pipe, and a program asking again and
    /// again must not use up the app's files. Past it a request is closed at once.
    public static let clipboardSends = 16
    /// MIME types taken from one clipboard offer (programs offer a dozen or two); the rest are
    /// ignored.
    public static let offerTypes = 64
}
