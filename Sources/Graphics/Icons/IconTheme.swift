// Finding an icon in the desktop's icon theme as the freedesktop icon theme specification lays it
// out: $XDG_DATA_HOME/icons and each $XDG_DATA_DIRS/icons hold themes, a theme's index.theme names
// its folders and the themes it inherits from, and hicolor ends every search. Only SVG files are
// taken: symbolic icons are drawn at any size and scale, so a bitmap would blur.
#if canImport(Glibc)
import Glibc
#endif
import Limits
import SafeFiles

struct IconTheme {
    /// Where themes live, most personal first.
    let baseFolders: [String]

    init(environment: (String) -> String?) {
        var bases: [String] = []
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            bases.append(data + "/icons")
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            bases.append(home + "/.local/share/icons")
        }
        let dirs = environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        bases += dirs.split(separator: ":").filter { $0.hasPrefix("/") }.map { $0 + "/icons" }
        baseFolders = bases
    }

    /// The SVG source of the first of `names` that `theme` (or a theme it inherits from, then
    /// hicolor) has; nil when none has any. A `-symbolic` name is also tried without the suffix,
    /// as GTK does: Breeze's action icons are one-colour drawings under their plain names.
    func svg(for symbolicNames: [String], theme: String) -> [UInt8]? {
        let suffix = "-symbolic"
        let names = symbolicNames + symbolicNames.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
        var visited: Set<String> = []
        var queue = [theme]
        while !queue.isEmpty, visited.count < 8 {
            let current = queue.removeFirst()
            guard visited.insert(current).inserted, let index = self.index(of: current) else { continue }
            for name in names {
                for folder in index.folders {
                    for base in baseFolders {
                        if let bytes = Self.read("\(base)/\(current)/\(folder)/\(name).svg") { return bytes }
                    }
                }
            }
            queue += index.inherits
            if queue.isEmpty, !visited.contains("hicolor") { queue.append("hicolor") }
        }
        return nil
    }

    /// A theme's folders (scalable and symbolic ones first: they hold the SVG files) and parents.
    private func index(of theme: String) -> (folders: [String], inherits: [String])? {
        guard !theme.isEmpty, !theme.contains("/"), !theme.hasPrefix(".") else { return nil }
        for base in baseFolders {
            guard let bytes = Self.read("\(base)/\(theme)/index.theme") else { continue }
            var folders: [String] = [], inherits: [String] = []
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix("Directories=") || line.hasPrefix("ScaledDirectories=") {
                    folders += line.drop { $0 != "=" }.dropFirst().split(separator: ",").map(String.init)
                } else if line.hasPrefix("Inherits="), inherits.isEmpty {
                    inherits = line.drop { $0 != "=" }.dropFirst().split(separator: ",").map(String.init)
                }
            }
            let vector = folders.filter { $0.contains("scalable") || $0.contains("symbolic") }
            return (vector + folders.filter { !vector.contains($0) }, inherits)
        }
        return nil
    }

    /// A file's bytes, when it is a regular file of at most `Limit.iconFileBytes`.
    private static func read(_ path: String) -> [UInt8]? {
        guard case .success(let bytes) = SafeFile.read(path, maxBytes: Limit.iconFileBytes) else { return nil }
        return bytes
    }
}
