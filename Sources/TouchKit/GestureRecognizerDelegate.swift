/// Fine-tunes how a recognizer shares touches with views and other recognizers (G10).
///
/// Every method has a default (in an extension), so a delegate implements only what it needs:
/// ```swift
/// extension DrawView: GestureRecognizerDelegate {
///     func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
///                            shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
///         gestureRecognizer === moveRecognizer
///     }
/// }
/// ```
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when `gestureRecognizer` is about to leave ``GestureRecognizer/State/possible`` for
    /// began or recognized (after its failure requirements are met); false makes it fail.
    /// Default: true.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool

    /// Asked before `gestureRecognizer` sees a new touch; false keeps the touch away from it
    /// (the view still gets it). Default: true.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool

    /// Asked when one of the two would prevent the other; true on either side's delegate lets
    /// both recognize at once (G9). Default: false.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool

    /// True makes `gestureRecognizer` wait for `other` to fail, like
    /// ``GestureRecognizer/require(toFail:)`` but decided per touch sequence. Default: false.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldRequireFailureOf other: GestureRecognizer) -> Bool

    /// True makes `other` wait for `gestureRecognizer` to fail. Default: false.
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  shouldReceive touch: Touch) -> Bool { true }

    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        false
    }

    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }

    public func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                                  shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}
