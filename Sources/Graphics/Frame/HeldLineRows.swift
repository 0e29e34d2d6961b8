// What a window buffer holds of the live lines drawn into it as rows of pixels: the next frame in
// that buffer copies the backdrop back along exactly these rows before it draws the lines where
// they are now.
import TouchKit

/// The live lines an image holds, by view: the rows of pixels each filled (to erase them) and
/// boxes around them, a few per line (the compositor's damage). A line's rows are kept as the
/// array they were made in, not joined into one: joining copied every row again per line.
struct HeldLineRows {
    var lines: [ObjectIdentifier: [[PixelSpan]]] = [:]
    var boxes: [ObjectIdentifier: [PixelBox]] = [:]
    /// For views whose lines the window's painter drew: each line, for the damage of the next
    /// frame shown after this one.
    var shapes: [ObjectIdentifier: [LineRows]] = [:]

    var isEmpty: Bool { boxes.values.allSatisfy(\.isEmpty) }
    var allBoxes: [PixelBox] { boxes.values.flatMap { $0 } }

    /// Adds one line's `runs` of `view`, in order of rows.
    mutating func add(line runs: [PixelSpan], of view: ObjectIdentifier) {
        lines[view, default: []].append(runs)
        LineRows.addBoxes(of: runs, to: &boxes[view, default: []])
    }

    /// Adds the lines the painter drew of `view`, as `runs` (theirs, in order), with their
    /// `shapes` when a wide line is among them (``LineRows/shapes(of:drawn:)``).
    mutating func add(_ runs: [PixelLine.Runs], _ shapes: [LineRows]?, of view: ObjectIdentifier) {
        guard let shapes else {
            for runs in runs { add(line: runs.covered, of: view) }
            return
        }
        lines[view, default: []] += runs.map(\.covered)
        boxes[view, default: []] += shapes.flatMap(\.boxes)
        self.shapes[view, default: []] += shapes
    }

    /// Adds what `other` holds of `view`.
    mutating func add(_ other: HeldLineRows, of view: ObjectIdentifier) {
        lines[view, default: []] += other.lines[view] ?? []
        boxes[view, default: []] += other.boxes[view] ?? []
    }
}

extension ImageSurface {
    /// Called after this image's pixels were copied whole from `other`: it holds the same
    /// live lines.
    public func pixelsCopied(from other: ImageSurface) {
        heldLines = other.heldLines
    }
}

