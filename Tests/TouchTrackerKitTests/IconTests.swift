// Symbolic icons: found in the desktop's icon theme as the freedesktop specification lays themes
// out, else the app's own; drawn by librsvg at the device's own size, so they stay sharp at
// fractional scales; painted in the colour asked for; and on every toolbar control.
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TouchKit
@testable import Graphics
@testable import TouchTrackerKit

@Suite("Icons")
struct IconTests {
    static let square = Icon(names: [], fallback:
        #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect x="4" y="4" width="8" height="8"/></svg>"#)

    @Test("The app's own icon at scale 1.5 from a fractional point: whole device pixels, opaque inside, nothing half-covered at its edges")
    func sharpAtFractionalScale() throws {
        let image = ImageSurface(width: 60, height: 60)
        let context = CairoContext(surface: image)
        context.scaleBy(x: 1.5, y: 1.5)
        context.drawIcon(Self.square, in: Rect(x: 10.2, y: 10.2, width: 16, height: 16), color: .red, theme: nil)
        image.flush()
        var opaque = 0, partial = 0
        for y in 0..<60 {
            for x in 0..<60 {
                let alpha = try #require(image.color(x: x, y: y)).alpha
                if alpha == 1 { opaque += 1 } else if alpha > 0 { partial += 1 }
            }
        }
        // The 8-unit square is 12 device pixels a side: 144 opaque, none blended.
        #expect(opaque == 144 && partial == 0, "\(opaque) opaque, \(partial) partial")
        #expect(image.color(x: 22, y: 22) == .red)
    }

    @Test("The desktop's theme first (Adwaita's edit-undo), through a theme that inherits from it; the app's own when no theme has the name")
    func themeLookup() throws {
        let folder = "/tmp/tt-icons-\(getpid())"
        defer { _ = system("rm -rf '\(folder)'") }
        for path in ["", "/icons", "/icons/Mine", "/icons/Mine/scalable"] { mkdir(folder + path, 0o755) }
        let index = "[Icon Theme]\nName=Mine\nInherits=Adwaita\nDirectories=scalable\n"
        #expect(index.withCString { text in FILE.write(text, to: folder + "/icons/Mine/index.theme") })
        let own = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"/>"#
        #expect(own.withCString { text in FILE.write(text, to: folder + "/icons/Mine/scalable/only-mine-symbolic.svg") })
        let theme = IconTheme { name in name == "XDG_DATA_DIRS" ? folder + ":/usr/share" : nil }
        #expect(theme.svg(for: ["only-mine-symbolic"], theme: "Mine").map { String(decoding: $0, as: UTF8.self) } == own)
        let undo = try #require(theme.svg(for: ["no-such-icon", "edit-undo-symbolic"], theme: "Mine"))
        #expect(String(decoding: undo, as: UTF8.self).contains("<svg"), "Adwaita's, inherited")
        #expect(theme.svg(for: ["no-such-icon"], theme: "Mine") == nil)
        #expect(theme.svg(for: ["edit-undo-symbolic"], theme: "../etc") == nil, "a theme name is not a path")
    }

    @Test("Breeze, Plasma's theme: its one-colour action icons under their plain names serve for the -symbolic ones it lacks")
    func breeze() throws {
        let theme = IconTheme { _ in nil }
        let line = try #require(theme.svg(for: ["draw-line-symbolic"], theme: "breeze"), "scripts/setup installs Breeze's icons")
        #expect(String(decoding: line, as: UTF8.self).contains("<svg"))
        #expect(theme.svg(for: ["draw-line-symbolic"], theme: "Adwaita") == nil, "Adwaita has no line: the app draws its own")
    }

    @Test("Every toolbar control has an icon that draws, in the colour asked for")
    func everyControlDraws() throws {
        for item in ToolbarView.Item.allCases {
            let image = ImageSurface(width: 24, height: 24)
            CairoContext(surface: image).drawIcon(item.icon, in: Rect(x: 0, y: 0, width: 24, height: 24), color: .blue, theme: "Adwaita")
            image.flush()
            var blue = 0
            for y in 0..<24 { for x in 0..<24 where image.color(x: x, y: y) == .blue { blue += 1 } }
            #expect(blue > 10, "\(item) draws \(blue) blue pixels")
        }
    }

    @Test("Words beside every icon where the buttons are wide (1024 pt), on none where they are not (800 pt, a phone)",
          arguments: [(1024.0, true), (800.0, false), (360.0, false)])
    func wordsAllOrNone(_ width: Double, _ words: Bool) {
        let toolbar = ToolbarView(frame: Rect(x: 0, y: 0, width: width, height: ToolbarView.height))
        toolbar.layoutIfNeeded()
        let measure = CairoContext(surface: ImageSurface(width: 1, height: 1))
        for item in ToolbarView.Item.allCases where !toolbar.button(item).isHidden && item != .more {
            #expect((toolbar.button(item).titleFontSizeBesideIcon(in: measure) != nil) == words, "\(item) at \(width)")
        }
    }
}

extension FILE {
    /// Writes `text` to a new file at `path`.
    static func write(_ text: UnsafePointer<CChar>, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        return fputs(text, file) >= 0
    }
}
