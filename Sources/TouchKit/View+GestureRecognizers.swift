extension View {
    /// The recognizers attached to this view, in the order they were added. They and the
    /// recognizers of the view's ancestors see every touch that begins in the view before the
    /// view does (G4). Setting it attaches the list's recognizers in its order (each once) and
    /// detaches the others, as ``removeGestureRecognizer(_:)`` does (G21).
    public var gestureRecognizers: [GestureRecognizer] {
        get { attachedGestureRecognizers }
        set {
            for r in attachedGestureRecognizers where !newValue.contains(where: { $0 === r }) {
                removeGestureRecognizer(r)
            }
            var ordered: [GestureRecognizer] = []
            for r in newValue where !ordered.contains(where: { $0 === r }) {
                addGestureRecognizer(r)
                ordered.append(r)
            }
            attachedGestureRecognizers = ordered
        }
    }

    /// Attaches `gestureRecognizer`, taking it from the view it was attached to before.
    public func addGestureRecognizer(_ gestureRecognizer: GestureRecognizer) {
        if gestureRecognizer.view === self { return }
        gestureRecognizer.view?.removeGestureRecognizer(gestureRecognizer)
        attachedGestureRecognizers.append(gestureRecognizer)
        gestureRecognizer.view = self
    }

    /// Detaches `gestureRecognizer`: a gesture in progress is cancelled (or fails if it had not
    /// begun) and the recognizer gets no more touches.
    public func removeGestureRecognizer(_ gestureRecognizer: GestureRecognizer) {
        guard gestureRecognizer.view === self else { return }
        attachedGestureRecognizers.removeAll { $0 === gestureRecognizer }
        gestureRecognizer.environment?.detach(gestureRecognizer)
        gestureRecognizer.view = nil
    }
}
