// The canvas's recognizers' delegate: the pan recognizes together with the others (A6), and a
// finger landing while another is on the canvas starts no tap, double tap or long press (A10).
// UIKit resets a recognizer as soon as it fails, fingers still down (G3), so without this answer a
// second finger resting on a line while the first draws would pick the line up.
//
// An object of its own, not the canvas: a recognizer holds its delegate weakly, and an object
// anything holds weakly has every retain and release take the runtime's slow path (TouchKit's
// ViewLink.swift); the canvas is retained on every touch.
import TouchKit

final class CanvasGestureRules: GestureRecognizerDelegate {
    /// The pan that drags a picked-up line.
    private let moveRecognizer: GestureRecognizer
    /// The touches on the canvas that are still down, as the delegate is asked about them.
    private var touches: [Touch] = []

    init(moveRecognizer: GestureRecognizer) {
        self.moveRecognizer = moveRecognizer
    }

    /// Notes `touch` as down and tells whether another finger is down beside it.
    private func othersDown(besides touch: Touch) -> Bool {
        touches.removeAll { $0.phase == .ended || $0.phase == .cancelled }
        let others = touches.contains { $0 !== touch }
        if !touches.contains(where: { $0 === touch }) { touches.append(touch) }
        return others
    }

    /// The pan recognizes together with the long press (as in the book), and with the palette's
    /// three-finger swipe, which it would otherwise prevent.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        gestureRecognizer === moveRecognizer
    }

    /// A10: the tap, double tap and long press take a finger only as the start of their gesture
    /// (no finger down yet) or as part of one under way; a finger landing beside one that draws
    /// draws too.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        let othersDown = othersDown(besides: touch)
        guard gestureRecognizer !== moveRecognizer else { return true }
        return gestureRecognizer.numberOfTouches > 0 || !othersDown
    }
}
