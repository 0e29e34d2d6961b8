// Reading one cursor from the user's theme. libwayland-cursor's wl_cursor_theme_load reads every
// cursor of a theme into shared memory (about 0.5 MiB resident for Adwaita at 24 px) to show the
// two the app uses; this reads only the files asked for.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import SafeFiles

/// One image of an Xcursor file: premultiplied ARGB pixels, as wl_shm's ARGB8888 wants them.
/// Package-wide for the fuzz targets (Sources/FuzzTargets).
package struct XcursorImage: Equatable {
    package let width: Int
    package let height: Int
    package let hotspotX: Int
    package let hotspotY: Int
    package let pixels: [UInt32]

    /// The image whose nominal size is nearest `size` (the first frame, if animated), or nil when
    /// `bytes` is not a well-formed Xcursor file.
    package init?(xcursorFile bytes: [UInt8], size: Int) {
        func word(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
                | Int(bytes[offset + 3]) << 24
        }
        let imageType = 0xFFFD_0002
        guard word(0) == 0x7275_6358, let headerSize = word(4), let count = word(12),
              count <= 0x10000 else { return nil }
        // The table of contents: (type, nominal size, position) per chunk.
        var best: (distance: Int, position: Int)?
        for entry in 0..<count {
            let at = headerSize + entry * 12
            guard let type = word(at), let nominal = word(at + 4), let position = word(at + 8) else { return nil }
            guard type == imageType else { continue }
            let distance = abs(nominal - size)
            if best == nil || distance < best!.distance { best = (distance, position) }
        }
        guard let position = best?.position,
              word(position + 4) == imageType,
              let width = word(position + 16), let height = word(position + 20),
              let hotspotX = word(position + 24), let hotspotY = word(position + 28),
              (1...0x7FFF).contains(width), (1...0x7FFF).contains(height),
              hotspotX <= width, hotspotY <= height,
              let chunkHeader = word(position) else { return nil }
        let start = position + chunkHeader
        guard start + width * height * 4 <= bytes.count else { return nil }
        self.width = width
        self.height = height
        self.hotspotX = hotspotX
        self.hotspotY = hotspotY
        pixels = (0..<width * height).map { UInt32(truncatingIfNeeded: word(start + $0 * 4)!) }
    }

    init(width: Int, height: Int, hotspotX: Int, hotspotY: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.hotspotX = hotspotX
        self.hotspotY = hotspotY
        self.pixels = pixels
    }
}

/// Where cursor themes live and how they inherit from each other, as libXcursor looks them up:
/// `XCURSOR_PATH`, else the XDG data directories' `icons`, `~/.icons` and /usr/share/pixmaps;
/// a theme without the cursor falls back to those its index.theme `Inherits`.
package struct XcursorThemeSearch {
    let directories: [String]

    init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
        if let path = environment("XCURSOR_PATH"), !path.isEmpty {
            directories = path.split(separator: ":").map(String.init)
            return
        }
        let home = environment("HOME") ?? ""
        let dataHome = environment("XDG_DATA_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        let dataDirs = (environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { String($0) + "/icons" }
        directories = [dataHome + "/icons", home + "/.icons"] + dataDirs + ["/usr/share/pixmaps"]
    }

    /// The file of the first of `names` found in `theme` or the themes it inherits from.
    func file(theme: String, names: [String], read: (String) -> [UInt8]? = Self.readFile) -> [UInt8]? {
        var pending = [theme], seen = Set<String>()
        while !pending.isEmpty, seen.count < 16 {
            let current = pending.removeFirst()
            guard seen.insert(current).inserted, !current.contains("/") else { continue }
            for name in names {
                for directory in directories {
                    if let bytes = read("\(directory)/\(current)/cursors/\(name)") { return bytes }
                }
            }
            for directory in directories {
                guard let index = read("\(directory)/\(current)/index.theme") else { continue }
                pending += Self.inherits(String(decoding: index, as: UTF8.self))
                break
            }
        }
        return nil
    }

    /// The themes an index.theme's `Inherits=` line names.
    package static func inherits(_ index: String) -> [String] {
        for line in index.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("Inherits"), let equals = trimmed.firstIndex(of: "=") else { continue }
            return trimmed[trimmed.index(after: equals)...]
                .split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " })
                .map(String.init)
        }
        return []
    }

    /// A whole small file, or nil (missing, unreadable, not a regular file, or over 4 MiB: no
    /// cursor is that big). A theme folder is anyone's to fill: a pipe there must not block.
    static func readFile(_ path: String) -> [UInt8]? {
        guard case .success(let bytes?) = SafeFile.read(path, maxBytes: Limit.cursorFileBytes) else { return nil }
        return bytes
    }
}
