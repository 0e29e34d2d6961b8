// The draw board's controls (A8), built from TouchKit's Button with target-action: New, undo and redo,
// the tool (line, freehand, circle), the toggles of the book's challenges, and the colour palette.
// Every button is a finger's size (44 pt), its icon with its words beside it where the buttons are
// wide enough, alone where they are not. Where the window is narrow (a phone in portrait) the bar
// keeps the most used controls, Undo, Redo, the tools and Colours, and moves New and the toggles
// into an overflow menu behind More. In a right-to-left language the bar runs from the right (A12).
import TouchKit

/// The bar along the bottom of the window.
public final class ToolbarView: View {
    /// The controls, in the order the wide bar shows them; `more` only in the narrow bar.
    public enum Item: Hashable, Sendable, CaseIterable {
        case new, undo, redo, line, freehand, circle, angle, speed, fingers, colours, more
    }

    public static let height = 60.0
    /// The smallest a control fingers use may be, each way (touch guidelines ask for 44 pt).
    public static let minimumTarget = 44.0
    /// Below this width the bar is narrow: the controls in `overflowItems` go into the menu.
    public static let narrowBelow = 700.0
    /// Buttons narrower than this show their icons alone, all of them: words squeezed beside an
    /// icon read worse than no words, and a bar with words on some buttons looks broken.
    public static let wordsFrom = 80.0
    static let wideGroups: [[Item]] = [[.new], [.undo, .redo], [.line, .freehand, .circle], [.angle, .speed, .fingers], [.colours]]
    static let narrowGroups: [[Item]] = [[.undo, .redo], [.line, .freehand, .circle], [.colours, .more]]
    /// What the narrow bar's More menu holds.
    public static let overflowItems: [Item] = [.new, .angle, .speed, .fingers]

    public let newButton = ToolbarView.button(Strings.newDrawing, .new)
    public let undoButton = ToolbarView.button(Strings.undo, .undo)
    public let redoButton = ToolbarView.button(Strings.redo, .redo)
    public let lineButton = ToolbarView.button(Strings.line, .line)
    public let freehandButton = ToolbarView.button(Strings.freehand, .freehand)
    public let circleButton = ToolbarView.button(Strings.circle, .circle)
    public let angleButton = ToolbarView.button(Strings.angle, .angle)
    public let speedButton = ToolbarView.button(Strings.speed, .speed)
    public let fingersButton = ToolbarView.button(Strings.fingers, .fingers)
    public let paletteButton = ToolbarView.button(Strings.colours, .colours)
    /// The narrow bar's overflow menu: an icon alone.
    public let moreButton = ToolbarView.button("", .more)

    public func button(_ item: Item) -> ToolbarButton {
        switch item {
        case .new: newButton
        case .undo: undoButton
        case .redo: redoButton
        case .line: lineButton
        case .freehand: freehandButton
        case .circle: circleButton
        case .angle: angleButton
        case .speed: speedButton
        case .fingers: fingersButton
        case .colours: paletteButton
        case .more: moreButton
        }
    }

    /// Whether the bar is narrow (More shown, the overflow items hidden).
    public var isNarrow: Bool { bounds.width < Self.narrowBelow }

    public override init(frame: Rect) {
        super.init(frame: frame)
        for item in Item.allCases { addSubview(button(item)) }
        applyDirection()
    }

    static func button(_ title: String, _ item: Item) -> ToolbarButton {
        ToolbarButton(title: title, icon: item.icon(.leftToRight))
    }

    /// Which way the bar runs; the language's direction unless set.
    public var direction = LayoutDirection.current {
        didSet {
            guard direction != oldValue else { return }
            applyDirection()
            setNeedsLayout()
        }
    }

    private func applyDirection() {
        for item in Item.allCases {
            button(item).direction = direction
            button(item).icon = item.icon(direction)
        }
    }

    public override func appearanceDidChange() {
        backgroundColor = appearance.barBackground
    }

    /// Shows a toggle or the current tool as on (the accent colour) or off.
    static func show(_ button: ToolbarButton, on: Bool) {
        button.isOn = on
    }

    /// Where each control shown in a bar `width` points wide sits (the bar's coordinates): 44 pt
    /// tall, at most 88 pt wide and at least 44, centred when the bar is wider than they need. A
    /// bar too narrow even for that (below 360 pt) lets the last ones run off rather than shrink
    /// them below a finger's size. Right to left, the first control is at the right.
    public static func layout(width: Double, height: Double = ToolbarView.height,
                              direction: LayoutDirection = .leftToRight) -> [Item: Rect] {
        let narrow = width < narrowBelow
        let groups = narrow ? narrowGroups : wideGroups
        let count = Double(groups.joined().count)
        let gap = narrow ? 8.0 : 16.0, spacing = narrow ? 4.0 : 6.0, margin = narrow ? 6.0 : 8.0
        let between = Double(groups.count - 1) * gap + (count - Double(groups.count)) * spacing
        let buttonWidth = min(88, max(minimumTarget, (width - 2 * margin - between) / count))
        let buttonHeight = min(minimumTarget, height)
        let used = count * buttonWidth + between
        var x = max(margin, (width - used) / 2)
        var frames: [Item: Rect] = [:]
        for (index, group) in groups.enumerated() {
            if index > 0 { x += gap - spacing }
            for item in group {
                frames[item] = direction.place(Rect(x: x, y: (height - buttonHeight) / 2, width: buttonWidth, height: buttonHeight),
                                               in: width)
                x += buttonWidth + spacing
            }
        }
        return frames
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let frames = Self.layout(width: bounds.width, height: bounds.height, direction: direction)
        for item in Item.allCases {
            let button = button(item)
            button.isHidden = frames[item] == nil
            if let frame = frames[item] {
                button.frame = frame
                button.showsIconAlone = frame.width < Self.wordsFrom
            }
        }
    }

    public override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.setFillColor(appearance.separator)
        context.fill(Rect(x: 0, y: 0, width: bounds.width, height: appearance.outlineWidth))
    }
}
