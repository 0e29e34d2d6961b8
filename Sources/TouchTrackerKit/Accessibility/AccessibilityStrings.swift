// The words assistive tools read that the window does not show: names of controls shown as icons
// alone, of colours and of the canvas, and the descriptions of lines. po/POTFILES lists this file
// beside Localization/Strings.swift; docs/translations.md says how to add one.

extension Strings {
    // Translators: screen reader name of the narrow toolbar's button that opens the menu of the controls it has no room for.
    static var more: String { tr("More") }
    // Translators: screen reader name of the bar of controls along the bottom of the window.
    static var toolbar: String { tr("Toolbar") }
    // Translators: screen reader name of the group of zoom buttons over the drawing's corner.
    static var zoomControl: String { tr("Zoom") }
    // Translators: screen reader name of the canvas, the area the lines are drawn on.
    static var drawingArea: String { tr("Drawing") }
    // Translators: screen reader name of the popup menu with Delete, Copy and Paste.
    public static var editMenu: String { tr("Edit menu") }

    /// How many lines the canvas holds, for screen readers.
    static func lineCount(_ count: Int) -> String {
        // Translators: screen reader, the canvas's value; {count} is a number.
        Localization.fill(tr("Lines: {count}"), ["count": String(count)])
    }

    /// A line's name: its kind and its place in drawing order.
    static func lineName(_ kind: Stroke.Kind, number: Int, count: Int) -> String {
        let values: KeyValuePairs = ["number": String(number), "count": String(count)]
        switch kind {
        case .line:
            // Translators: screen reader name of a straight line; {number} counts in drawing order.
            return Localization.fill(tr("Line {number} of {count}"), values)
        case .freehand:
            // Translators: screen reader name of a freehand stroke; {number} counts in drawing order.
            return Localization.fill(tr("Freehand line {number} of {count}"), values)
        case .circle:
            // Translators: screen reader name of a circle; {number} counts in drawing order.
            return Localization.fill(tr("Circle {number} of {count}"), values)
        }
    }

    /// Where a line goes, for screen readers.
    static func lineCourse(colour: String, start: String, end: String, length: Int) -> String {
        // Translators: screen reader description of a line; {start} and {end} are places such as "the upper left", {length} a whole number.
        Localization.fill(tr("{colour}, from {start} towards {end}, {length} points long"),
                          ["colour": colour, "start": start, "end": end, "length": String(length)])
    }

    /// Where a circle is, for screen readers.
    static func circleCourse(colour: String, centre: String, size: Int) -> String {
        // Translators: screen reader description of a circle; {centre} is a place such as "the upper left", {size} a whole number.
        Localization.fill(tr("{colour}, around {centre}, {size} points across"),
                          ["colour": colour, "centre": centre, "size": String(size)])
    }

    /// A ninth of the canvas, in the order of ``CanvasRegion``.
    static func place(_ region: CanvasRegion) -> String {
        switch region {
        // Translators: screen reader, a ninth of the canvas, as in "from the upper left towards the centre".
        case .upperLeft: return tr("the upper left")
        // Translators: screen reader, a ninth of the canvas, as in "from the top towards the centre".
        case .top: return tr("the top")
        // Translators: screen reader, a ninth of the canvas.
        case .upperRight: return tr("the upper right")
        // Translators: screen reader, a ninth of the canvas.
        case .left: return tr("the left")
        // Translators: screen reader, the middle ninth of the canvas.
        case .centre: return tr("the centre")
        // Translators: screen reader, a ninth of the canvas.
        case .right: return tr("the right")
        // Translators: screen reader, a ninth of the canvas.
        case .lowerLeft: return tr("the lower left")
        // Translators: screen reader, a ninth of the canvas.
        case .bottom: return tr("the bottom")
        // Translators: screen reader, a ninth of the canvas.
        case .lowerRight: return tr("the lower right")
        }
    }

    /// A colour's name, in the order of ``ColourName``.
    static func colour(_ name: ColourName) -> String {
        switch name {
        // Translators: screen reader, a colour of the palette and of lines.
        case .black: return tr("black")
        // Translators: screen reader, a colour of the palette and of lines.
        case .red: return tr("red")
        // Translators: screen reader, a colour of the palette and of lines.
        case .orange: return tr("orange")
        // Translators: screen reader, a colour of the palette and of lines.
        case .yellow: return tr("yellow")
        // Translators: screen reader, a colour of the palette and of lines.
        case .green: return tr("green")
        // Translators: screen reader, a colour of the palette and of lines.
        case .blue: return tr("blue")
        // Translators: screen reader, a colour of the palette and of lines.
        case .purple: return tr("purple")
        // Translators: screen reader, a colour of the palette and of lines.
        case .brown: return tr("brown")
        // Translators: screen reader, a colour of lines.
        case .grey: return tr("grey")
        // Translators: screen reader, a colour of lines.
        case .white: return tr("white")
        }
    }
}
