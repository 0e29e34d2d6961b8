// Reading cursors from the user's theme without libwayland-cursor loading all of them: the Xcursor
// file format, nearest-size choice, bad files, and the theme search with inheritance.
import Testing
@testable import WaylandHost

@Suite("Xcursor themes")
struct XcursorTests {
    /// An Xcursor file with one square image per nominal size, each pixel set to its size.
    static func file(sizes: [Int]) -> [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> shift) & 0xFF)) } }
        put(0x7275_6358); put(16); put(0x1_0000); put(sizes.count)
        var position = 16 + 12 * sizes.count
        for size in sizes {
            put(0xFFFD_0002); put(size); put(position)
            position += 36 + size * size * 4
        }
        for size in sizes {
            put(36); put(0xFFFD_0002); put(size); put(1)
            put(size); put(size); put(size / 2); put(size / 3); put(0)
            for _ in 0..<(size * size) { put(size) }
        }
        return bytes
    }

    @Test("The image of the nearest nominal size is read, with its hotspot and pixels")
    func nearestSize() throws {
        let bytes = Self.file(sizes: [24, 48, 96])
        let small = try #require(XcursorImage(xcursorFile: bytes, size: 24))
        #expect(small.width == 24 && small.hotspotX == 12 && small.hotspotY == 8)
        #expect(small.pixels.count == 24 * 24 && small.pixels.allSatisfy { $0 == 24 })
        #expect(try #require(XcursorImage(xcursorFile: bytes, size: 40)).width == 48)
        #expect(try #require(XcursorImage(xcursorFile: bytes, size: 200)).width == 96)
    }

    @Test("Truncated, foreign or empty files give no cursor instead of crashing")
    func badFiles() {
        let good = Self.file(sizes: [24])
        #expect(XcursorImage(xcursorFile: [], size: 24) == nil)
        #expect(XcursorImage(xcursorFile: Array("not a cursor".utf8), size: 24) == nil)
        #expect(XcursorImage(xcursorFile: Self.file(sizes: []), size: 24) == nil)
        for cut in [8, 20, 40, 60, good.count - 1] {
            #expect(XcursorImage(xcursorFile: Array(good[..<cut]), size: 24) == nil, "cut at \(cut)")
        }
    }

    @Test("A theme without the cursor falls back to the themes it inherits, in order, without looping")
    func inheritance() {
        let files: [String: [UInt8]] = [
            "/home/u/.icons/mine/index.theme": Array("[Icon Theme]\nName=Mine\nInherits=loop, Base\n".utf8),
            "/home/u/.icons/loop/index.theme": Array("[Icon Theme]\nInherits=mine\n".utf8),
            "/usr/share/icons/Base/cursors/cross": [1],
            "/usr/share/icons/Base/cursors/crosshair": [2],
        ]
        let search = XcursorThemeSearch(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": "/usr/share"].lookup)
        let read: (String) -> [UInt8]? = { files[$0] }
        #expect(search.file(theme: "mine", names: ["crosshair", "cross"], read: read) == [2])
        #expect(search.file(theme: "mine", names: ["missing"], read: read) == nil)
        #expect(search.file(theme: "../etc", names: ["crosshair"], read: read) == nil)
    }

    @Test("XCURSOR_PATH replaces the default directories")
    func cursorPath() {
        let search = XcursorThemeSearch(environment: ["XCURSOR_PATH": "/a:/b", "HOME": "/h"].lookup)
        #expect(search.directories == ["/a", "/b"])
    }

    @Test("The installed default theme has both shapes the app shows")
    func installedTheme() throws {
        let search = XcursorThemeSearch()
        for shape in [CursorTheme.Shape.arrow, .crosshair] {
            let file = try #require(search.file(theme: "default", names: shape.names), "no \(shape) cursor: is adwaita-icon-theme installed?")
            let image = try #require(XcursorImage(xcursorFile: file, size: 24))
            // Visible: a pixel all but opaque (Breeze's crosshair at 24 px has none quite opaque).
            #expect(image.width >= 16 && image.pixels.contains { $0 >> 24 >= 0xF0 }, "an opaque pixel in \(shape)")
        }
    }
}

extension Dictionary where Key == String, Value == String {
    var lookup: (String) -> String? { { self[$0] } }
}
