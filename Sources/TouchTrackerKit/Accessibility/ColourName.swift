// Colours by name for screen readers: the palette's eight, plus grey and white, and any other
// colour (a line coloured by its angle, one from a file) by the nearest of them.
import TouchKit

enum ColourName: CaseIterable {
    case black, red, orange, yellow, green, blue, purple, brown, grey, white

    /// The colour the name stands for: the palette's own for its eight.
    var color: Color {
        switch self {
        case .black: PaletteView.colors[0]
        case .red: PaletteView.colors[1]
        case .orange: PaletteView.colors[2]
        case .yellow: PaletteView.colors[3]
        case .green: PaletteView.colors[4]
        case .blue: PaletteView.colors[5]
        case .purple: PaletteView.colors[6]
        case .brown: PaletteView.colors[7]
        case .grey: Color(hex: 0x808080)
        case .white: .white
        }
    }

    /// The name nearest `color`: weighted RGB distance, which ranks hues about as eyes do.
    static func nearest(_ color: Color) -> ColourName {
        func distance(_ a: Color, _ b: Color) -> Double {
            let r = a.red - b.red, g = a.green - b.green, bl = a.blue - b.blue
            return 2 * r * r + 4 * g * g + 3 * bl * bl
        }
        return allCases.min { distance($0.color, color) < distance($1.color, color) } ?? .black
    }

    /// The name in the user's language.
    static func spoken(_ color: Color) -> String { Strings.colour(nearest(color)) }
}

/// A ninth of the canvas: where a line starts, ends or is centred, as a screen reader says it.
enum CanvasRegion: CaseIterable {
    case upperLeft, top, upperRight, left, centre, right, lowerLeft, bottom, lowerRight

    /// The ninth of `area` that holds `point` (points outside count as the nearest ninth).
    init(_ point: Point, in area: Rect) {
        func third(_ value: Double, _ start: Double, _ length: Double) -> Int {
            guard length > 0 else { return 1 }
            return max(0, min(2, Int(((value - start) / length * 3).rounded(.down))))
        }
        let column = third(point.x, area.minX, area.width), row = third(point.y, area.minY, area.height)
        self = Self.allCases[row * 3 + column]
    }
}
