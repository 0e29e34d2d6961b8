// The views file (each drawing's view across starts): never refused, a bad line skipped, so the
// check is that what was read writes back to a file that reads the same, within the file's limits.
import Limits
import TouchTrackerKit

extension FuzzTarget {
    static let views = FuzzTarget("views", maxLength: 4096, """
        the views file: every view read has a zoom within the canvas's limits and a point on the \
        plane; what was read writes back to a file that reads the same
        """) { bytes throws(FuzzFailure) in
        let read = DrawingViews.parse(String(decoding: bytes, as: UTF8.self))
        for (path, viewport) in read.entries {
            try require(path.hasPrefix("/") && !path.unicodeScalars.contains { $0.value < 0x20 }, "a path that is not one absolute line: \(path)")
            try require(CanvasScrollView.zoomRange.contains(viewport.zoom), "a zoom out of range: \(viewport.zoom)")
            try require(abs(viewport.origin.x) <= Limit.coordinate && abs(viewport.origin.y) <= Limit.coordinate,
                        "a point off the plane: \(viewport.origin)")
        }
        let again = DrawingViews.parse(read.text)
        try require(again == read, "the written views read back different")
        return read.entries.isEmpty ? .rejected("no view") : .accepted
    }
}
