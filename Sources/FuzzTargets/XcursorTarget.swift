// Cursor files from the user's icon theme, which any program of the user's can write: the
// Xcursor reader, and the theme index's Inherits line, read from the same bytes.
import WaylandHost

extension FuzzTarget {
    static let xcursor = FuzzTarget("xcursor", maxLength: 64 << 10, """
        Xcursor files at the sizes the app asks for: an image read has a sane size, its hotspot on \
        it and one pixel a point; the same bytes as an index.theme give theme names without separators
        """) { bytes throws(FuzzFailure) in
        var read = false
        for size in [24, 48] {
            guard let image = XcursorImage(xcursorFile: bytes, size: size) else { continue }
            read = true
            try require((1...0x7FFF).contains(image.width) && (1...0x7FFF).contains(image.height),
                        "a \(image.width) x \(image.height) image")
            try require((0...image.width).contains(image.hotspotX) && (0...image.height).contains(image.hotspotY),
                        "hotspot (\(image.hotspotX), \(image.hotspotY)) off a \(image.width) x \(image.height) image")
            try require(image.pixels.count == image.width * image.height, "\(image.pixels.count) pixels")
        }
        for theme in XcursorThemeSearch.inherits(String(decoding: bytes, as: UTF8.self)) {
            try require(!theme.isEmpty && !theme.contains { $0 == "," || $0 == ";" || $0 == " " }, "theme name '\(theme)'")
        }
        return read ? .accepted : .rejected("not an Xcursor file with an image")
    }
}
