// Names that replace no file: export, Export As and New all number a name past the files already
// there (`drawing.png`, `drawing 2.png`, `drawing 3.png`, ...), one way.
#if canImport(Glibc)
import Glibc
#endif

extension DrawingFile {
    /// The first of `stem`, `stem 2`, `stem 3`, ... (numbered from `first`) in `folder` for which
    /// nothing is at any of the paths `paths` gives for it: `paths` is handed the folder joined
    /// with the numbered stem, and the result is that path.
    static func firstFree(in folder: String, stem: String, from first: Int = 1,
                          _ paths: (String) -> [String]) -> String {
        var number = first
        while true {
            let base = join(folder, number == 1 ? stem : "\(stem) \(number)")
            if !paths(base).contains(where: isTaken) { return base }
            number += 1
        }
    }

    /// Whether anything is at `path`, a link to nothing included (writing there would replace it).
    static func isTaken(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// `path` if nothing is there, else the first free numbered name beside it (`report.png` →
    /// `report 2.png`): for a name the Save dialog did not ask about (an extension added after it).
    public static func freePath(_ path: String) -> String {
        guard isTaken(path) else { return path }
        let (stem, ext) = numbering(name(of: path))
        return firstFree(in: folder(of: path), stem: stem, from: 2) { [$0 + ext] } + ext
    }

    /// A name as numbering sees it: "drawing 3.json" → ("drawing", ".json"); "sketch" →
    /// ("sketch", ""). A trailing " N" (N ≥ 2) is a number given before, so the next one counts on
    /// from the same stem.
    static func numbering(_ name: String) -> (stem: String, ext: String) {
        var stem = name, ext = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            stem = String(name[..<dot])
            ext = String(name[dot...])
        }
        if let space = stem.lastIndex(of: " "), space != stem.startIndex,
           let number = Int(stem[stem.index(after: space)...]), number >= 2 {
            stem = String(stem[..<space])
        }
        return (stem, ext)
    }
}
