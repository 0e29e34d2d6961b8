// Who draws: whether a line is being drawn now (controls over the canvas step aside), and the pen's
// grace, during which fingers move and zoom the drawing instead of drawing (A14).
import TouchKit

extension DrawView {
    func noteFingersDrawing() {
        let now = !linesInProgress.isEmpty || circleTool.circle != nil || circleTool.isSpanning
        guard now != isDrawing else { return }
        isDrawing = now
        onDrawingChange?(now)
    }

    /// A pen drew: fingers navigate until it has rested for ``penGrace`` seconds.
    func penTouched() {
        guard let clock else { return }
        penGraceTimer?.cancel()
        penGraceTimer = clock.schedule(at: clock.now + Self.penGrace) { [unowned self] in
            penGraceTimer = nil
            penRecentlyUsed = false
            onTouchModeChange?()
        }
        guard !penRecentlyUsed else { return }
        penRecentlyUsed = true
        onTouchModeChange?()
    }
}
