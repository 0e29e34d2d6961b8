// The toolbar's symbolic icons: the freedesktop names a desktop's icon theme may have them under
// (Adwaita has New, Undo, Redo, Colours and More; Breeze the drawing tools too), and the app's own
// drawing of each, used where the theme has none. The drawings are this project's own work, on a
// 16-unit grid like the desktops' symbolic icons. Right to left, the icons that point a way (Undo,
// Redo) are mirrored: a theme's `-rtl` variant first, as GTK looks them up, and the app's own
// drawing flipped.
import TouchKit

extension ToolbarView.Item {
    func icon(_ direction: LayoutDirection) -> Icon {
        guard direction == .rightToLeft, self == .undo || self == .redo else { return icon }
        return Icon(names: icon.names.flatMap { [$0 + "-rtl", $0] },
                    fallback: Self.svg(##"<g transform="matrix(-1 0 0 1 16 0)">"## + Self.shapes(of: icon.fallback) + "</g>"))
    }

    /// The icon left to right.
    var icon: Icon {
        switch self {
        case .new: Icon(names: ["document-new-symbolic"], fallback: Self.svg(
            ##"<path d="M 3 1h 7l 3 3v 5h -2V 5H 9V 3H 5v 10h 4v 2H 3z"/><path d="M 12 10h 1.5v 2h 2v 1.5h -2v 2H 12v -2h -2V 12h 2z"/>"##))
        case .undo: Icon(names: ["edit-undo-symbolic"], fallback: Self.svg(Self.undoArrow))
        case .redo: Icon(names: ["edit-redo-symbolic"], fallback: Self.svg(##"<g transform="matrix(-1 0 0 1 16 0)">"## + Self.undoArrow + "</g>"))
        case .line: Icon(names: ["draw-line-symbolic"], fallback: Self.svg(
            ##"<path d="M 3 13L 13 3" stroke="#000" stroke-width="2" stroke-linecap="round"/><circle cx="3" cy="13" r="2"/><circle cx="13" cy="3" r="2"/>"##))
        case .freehand: Icon(names: ["draw-freehand-symbolic"], fallback: Self.svg(
            ##"<path d="M 1.5 11.5C 4 4 6 3 7 7s 2.5 5.5 4 1.5S 14 3 14.5 3" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round"/>"##))
        case .circle: Icon(names: ["draw-circle-symbolic"], fallback: Self.svg(
            ##"<circle cx="8" cy="8" r="5.5" fill="none" stroke="#000" stroke-width="2"/>"##))
        case .angle: Icon(names: [], fallback: Self.svg(
            ##"<path d="M 2 13.5h 12.5M 2 13.5L 11 3" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round"/>"##
                + ##"<path d="M 7 13.5A 5 5 0 0 0 5.4 9.7" fill="none" stroke="#000" stroke-width="1.5"/>"##))
        case .speed: Icon(names: [], fallback: Self.svg(
            ##"<path d="M 2.5 12.5a 5.5 5.5 0 1 1 11 0" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round"/>"##
                + ##"<path d="M 8 12.5l 3.5-4.5" stroke="#000" stroke-width="2" stroke-linecap="round"/><circle cx="8" cy="12.5" r="1.5"/>"##))
        case .fingers: Icon(names: [], fallback: Self.svg(
            ##"<path d="M 6 15V 6.5a 1.5 1.5 0 0 1 3 0V 10h 2.5a 2 2 0 0 1 2 2v 3h -2v -3H 9v 3z"/>"##
                + ##"<path d="M 3.5 6.5a 4 4 0 0 1 8 0" fill="none" stroke="#000" stroke-width="1.5" stroke-linecap="round"/>"##))
        case .colours: Icon(names: ["color-select-symbolic"], fallback: Self.svg(
            ##"<circle cx="5" cy="5" r="2.5"/><circle cx="11" cy="5" r="2.5"/><circle cx="5" cy="11" r="2.5"/><circle cx="11" cy="11" r="2.5"/>"##))
        case .more: Icon(names: ["view-more-symbolic"], fallback: Self.svg(
            ##"<circle cx="2.5" cy="8" r="1.75"/><circle cx="8" cy="8" r="1.75"/><circle cx="13.5" cy="8" r="1.75"/>"##))
        }
    }

    private static let undoArrow = ##"<path d="M 5.5 2L 1 6.5 5.5 11V 8H 10a 2.5 2.5 0 0 1 0 5H 7v 2h 3a 4.5 4.5 0 0 0 0-9H 5.5z"/>"##

    static let svgStart = ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">"##

    static func svg(_ shapes: String) -> String { svgStart + shapes + "</svg>" }

    /// What ``svg(_:)`` wrapped.
    private static func shapes(of svg: String) -> String { String(svg.dropFirst(svgStart.count).dropLast("</svg>".count)) }
}
