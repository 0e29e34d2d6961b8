// A banner's message in lines that fit its width: a notice names files and folders, which on a
// phone do not fit one line even in small type. Words wrap at spaces, and a path also after each
// slash; at most `maxLines` lines, the last ending in an ellipsis when more was left.
enum BannerLines {
    static let maxLines = 3

    /// `message` in lines at most `width` wide as `measure` measures them.
    static func wrap(_ message: String, width: Double, measure: (String) -> Double) -> [String] {
        var lines: [String] = [], line = ""
        for piece in pieces(message) {
            let candidate = line + piece
            if line.isEmpty || measure(candidate.trimmingTrailingSpaces) <= width {
                line = candidate
                continue
            }
            lines.append(line.trimmingTrailingSpaces)
            line = String(piece.drop { $0 == " " })
        }
        if !line.isEmpty { lines.append(line.trimmingTrailingSpaces) }
        guard lines.count > maxLines else { return lines }
        var last = lines[maxLines - 1]
        while !last.isEmpty, measure(last + "…") > width { last.removeLast() }
        return Array(lines.prefix(maxLines - 1)) + [last + "…"]
    }

    /// Where a line may break: after a space (kept with the word before it) or after a slash.
    static func pieces(_ message: String) -> [String] {
        var pieces: [String] = [], current = ""
        for character in message {
            current.append(character)
            if character == " " || character == "/" {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
