extension View {
    /// The recognizers attached to this view, in the order they were added. They and the
    /// recognizers of the view's ancestors see every touch that begins in the view before the
    /// view does (G4).
    public var gestureRecognizers: [GestureRecognizer] { attachedGestureRecognizers }

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
