// Which way the window's controls run: left to right, or right to left where the words are in a
// language written that way (Hebrew, Arabic, Persian), as GTK and Qt mirror their apps. The
// direction follows the catalogue in use, not the locale alone: a right-to-left locale with no
// catalogue for it shows English words, left to right (A12).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import TouchKit

public enum LayoutDirection: Sendable {
    case leftToRight, rightToLeft

    /// The direction of the words the app shows, read once from the catalogue gettext uses (its
    /// header's `Language:`); left to right when there is none.
    public static let current: LayoutDirection = {
        // Without a catalogue gettext hands back the msgid's own pointer, so the text is copied
        // while both C strings still live.
        let header = Localization.domain.withCString { domain in
            "".withCString { empty in dgettext(domain, empty).map { String(cString: $0) } ?? "" }
        }
        return of(catalogueHeader: header)
    }()

    /// Languages written right to left, by their ISO 639 codes.
    static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi"]

    /// The direction of the language a catalogue's header names (`Language: he_IL`).
    static func of(catalogueHeader header: String) -> LayoutDirection {
        for line in header.split(separator: "\n") where line.hasPrefix("Language:") {
            let code = line.dropFirst("Language:".count).drop { $0 == " " }.prefix { $0.isLetter }
            return rightToLeftLanguages.contains(code.lowercased()) ? .rightToLeft : .leftToRight
        }
        return .leftToRight
    }

    /// `frame`, laid out for a left-to-right container `width` wide, mirrored for this direction.
    public func place(_ frame: Rect, in width: Double) -> Rect {
        guard self == .rightToLeft else { return frame }
        return Rect(x: width - frame.maxX, y: frame.minY, width: frame.width, height: frame.height)
    }

    /// `items` in reading order for a row laid out left to right: reversed right to left.
    public func ordered<T>(_ items: [T]) -> [T] { self == .rightToLeft ? items.reversed() : items }
}
