// The canvas's selection, as the book has it: a tap selects the line near it and offers Delete, a
// long press picks a line up and a pan drags it (A4-A7). The selected line stays in the line cache
// and is drawn green over it, so selecting costs no more in a dense drawing than in an empty one;
// a line that may move is lifted out of the cache, and put back when the drag ends.
import TouchKit

final class CanvasSelection {
    private unowned let canvas: DrawView
    private var drawing: Drawing { canvas.drawing }

    /// The line picked by a tap or a long press, drawn green.
    private(set) var selectedID: StrokeID?
    /// The line a long press picked up (or a pan drags): out of the line cache while it may move.
    private(set) var liftedID: StrokeID?
    /// How far the pan has dragged the selected line since the drag began (committed as one
    /// undoable move when the drag ends).
    private(set) var dragOffset = Point.zero
    /// Where a long press on empty canvas asked for the menu (shown when the finger lifts, P6).
    private var menuPressPoint: Point?

    init(canvas: DrawView) {
        self.canvas = canvas
    }

    private var menu: MenuController? { canvas.window?.application?.menuController }

    /// A4: the line near a tap is selected and the menu offered; a tap elsewhere deselects.
    func tap(at point: Point) {
        select(drawing.stroke(near: point, within: canvas.selectionReach)?.id)
        if selectedID != nil {
            showMenu(at: point)
        } else {
            menu?.setMenuVisible(false)
        }
    }

    /// Shows the edit menu at `point`: Delete, Copy and Paste, as far as each applies now (M1).
    private func showMenu(at point: Point) {
        guard let menu else { return }
        // The canvas becomes the target of the menu items' actions (R4, R5).
        canvas.becomeFirstResponder()
        // Right to left, Delete at the right (A12).
        menu.menuItems = LayoutDirection.current.ordered([MenuController.Item(title: Strings.delete, action: DrawView.deleteAction),
                                                          MenuController.Item(title: Strings.copy, action: DrawView.copyAction),
                                                          MenuController.Item(title: Strings.paste, action: DrawView.pasteAction)])
        let shown = canvas.canvasPoint(point)
        menu.setTargetRect(Rect(x: shown.x, y: shown.y, width: 2, height: 2), in: canvas)
        menu.setMenuVisible(true)
    }

    /// A6: a long press picks up the line under it, or on empty canvas asks for the menu.
    func longPress(_ recognizer: LongPressGestureRecognizer) {
        switch recognizer.state {
        case .began:
            let point = canvas.drawingPoint(recognizer.location(in: canvas))
            select(drawing.stroke(near: point, within: canvas.selectionReach)?.id)
            if let id = selectedID {
                lift(id)
            } else {
                // On empty canvas the press asks for the edit menu, shown when the finger lifts (P6).
                menuPressPoint = point
            }
            // The finger picked a line up or asked for the menu: it does not also draw one (the
            // book's "mysterious lines").
            canvas.linesInProgress.removeAll()
        case .ended, .cancelled:
            select(nil)
            if let point = menuPressPoint, recognizer.state == .ended { showMenu(at: point) }
            menuPressPoint = nil
        default:
            break
        }
    }

    /// A7: the pan drags the selected line.
    func move(_ recognizer: PanGestureRecognizer) {
        // Nothing to drag, or the menu is up (the book: the pan then moves nothing).
        guard let id = selectedID, let stroke = drawing.stroke(id), menu?.isMenuVisible != true else { return }
        switch recognizer.state {
        case .began, .changed, .ended:
            // Every state that reports movement moves the line: motion read in one turn reaches
            // the views as one event, so a quick drag may begin and end with no change between.
            lift(id)
            let translation = canvas.drawingDistance(recognizer.translation(in: canvas))
            canvas.setNeedsDisplay(along: stroke.translated(dx: dragOffset.x, dy: dragOffset.y))
            dragOffset = Point(x: dragOffset.x + translation.x, y: dragOffset.y + translation.y)
            canvas.setNeedsDisplay(along: stroke.translated(dx: dragOffset.x, dy: dragOffset.y))
            // Report the movement incrementally: the line stays under the finger.
            recognizer.setTranslation(.zero, in: canvas)
            if recognizer.state == .ended { commitDrag() }
        case .cancelled:
            commitDrag()
        default:
            break
        }
    }

    /// Turns the drag so far into one undoable move, and puts the line back into the cache.
    private func commitDrag() {
        defer { drop() }
        guard let id = selectedID, dragOffset != .zero else { return }
        let offset = dragOffset
        dragOffset = .zero
        drawing.update(id, actionName: "Move") { $0 = $0.translated(dx: offset.x, dy: offset.y) }
    }

    /// Takes a line out of the cache, so that it can move: the band along it is re-made without it
    /// (in a dense drawing over a few turns, meanwhile its black copy still shows there).
    private func lift(_ id: StrokeID) {
        guard liftedID != id, let stroke = drawing.stroke(id) else { return }
        drop()
        liftedID = id
        canvas.cache.repaint(along: stroke)
    }

    /// Puts the lifted line back into the cache: on top at once, then in its place in the paint
    /// order as the band along it is re-made.
    private func drop() {
        guard let id = liftedID else { return }
        liftedID = nil
        guard let stroke = drawing.stroke(id) else { return }
        canvas.cache.drawOnTop(stroke)
        canvas.cache.repaint(along: stroke)
        canvas.setNeedsDisplay(along: stroke)
    }

    /// Selects a stroke (or nothing). Only the bands along the two lines are repainted, from the
    /// cache.
    func select(_ id: StrokeID?) {
        commitDrag()
        guard id != selectedID else { return }
        if let old = selectedID.flatMap(drawing.stroke) { canvas.setNeedsDisplay(along: outlined(old)) }
        selectedID = id
        if let new = id.flatMap(drawing.stroke) { canvas.setNeedsDisplay(along: outlined(new)) }
        if id == nil { menu?.setMenuVisible(false) }
    }

    /// How a selected stroke is drawn: green, and wider by ``DrawView/selectionOutline`` unless it
    /// is lifted out of the cache.
    func outlined(_ stroke: Stroke) -> Stroke {
        var selected = stroke
        selected.color = DrawView.selectedColor
        if stroke.id != liftedID { selected.width += canvas.screenInk.selectionWidening }
        return selected
    }

    /// A5: deletes the selected line.
    func deleteSelected() {
        guard let id = selectedID else { return }
        select(nil)
        drawing.remove(id)
    }

    // MARK: The drawing changed

    /// `stroke` left the drawing (deleted, undone); returns whether the line cache still holds
    /// it (a lifted line is already out).
    func strokeRemoved(_ stroke: Stroke) -> Bool {
        if stroke.id == selectedID {
            selectedID = nil
            canvas.setNeedsDisplay(along: outlined(stroke))
        }
        guard stroke.id == liftedID else { return true }
        liftedID = nil
        return false
    }

    /// The drawing was replaced (undo of a clear, a reload): a selection of a line gone ends.
    func drawingReset() {
        if let id = selectedID, drawing.stroke(id) == nil {
            selectedID = nil
            menu?.setMenuVisible(false)
        }
        if let id = liftedID, drawing.stroke(id) == nil { liftedID = nil }
    }

    /// The selected line as drawn over the cache (dragged, outlined), when it meets `rect`.
    func draw(_ rect: Rect, in context: GraphicsContext) {
        guard let id = selectedID, let stroke = drawing.stroke(id) else { return }
        let selected = outlined(stroke).translated(dx: dragOffset.x, dy: dragOffset.y)
        context.setAntialiasing(dragOffset == .zero ? .smooth : .fast)
        if selected.bounds.intersects(rect) { StrokeRenderer.draw(selected, in: context, ink: canvas.screenInk) }
    }
}
