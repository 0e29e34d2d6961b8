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

    var isEmpty: Bool { boxes.values.allSatisfy(\.isEmpty) }
    var allBoxes: [PixelBox] { boxes.values.flatMap { $0 } }

    /// Adds one line's `runs` of `view`, in order of rows.
    mutating func add(line runs: [PixelSpan], of view: ObjectIdentifier) {
        lines[view, default: []].append(runs)
        var box: PixelBox?
        for run in runs {
            if var b = box, b.y0 >> RowDamage.blockShift == run.y >> RowDamage.blockShift {
                b.x0 = min(b.x0, run.x0)
                b.x1 = max(b.x1, run.x1)
                b.y0 = min(b.y0, run.y)
                b.y1 = max(b.y1, run.y + 1)
                box = b
            } else {
                if let box { boxes[view, default: []].append(box) }
                box = PixelBox(x0: run.x0, y0: run.y, x1: run.x1, y1: run.y + 1)
            }
        }
        if let box { boxes[view, default: []].append(box) }
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

