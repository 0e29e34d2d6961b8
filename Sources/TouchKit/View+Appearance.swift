// How the desktop's style reaches views: the window holds the appearance, and a change walks its
// hierarchy once, so each view sets its colours and repaints.
extension View {
    /// The style of the window the view is in; light outside a window.
    public var appearance: Appearance { window?.desktopAppearance ?? .light }

    /// Calls ``appearanceDidChange()`` on this view and every subview, and repaints them.
    func notifyAppearanceDidChange() {
        appearanceDidChange()
        setNeedsDisplay()
        for sub in subviews { sub.notifyAppearanceDidChange() }
    }
}
