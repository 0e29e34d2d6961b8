/// The pointer's look over a view (a narrow form of UIKit's `UIPointerStyle`): what the host shows
/// when a mouse or touchpad pointer is over it. A view without one takes its superview's; with
/// none up to the window, the arrow.
public enum PointerStyle: Hashable, Sendable {
    /// The desktop's ordinary pointer: controls, bars, menus.
    case arrow
    /// A thin cross for drawing surfaces, where the exact point matters.
    case crosshair
}

extension View {
    /// The pointer's look at this view: its own ``pointerStyle`` or the nearest ancestor's.
    public var effectivePointerStyle: PointerStyle {
        var current: View? = self
        while let view = current {
            if let style = view.pointerStyle { return style }
            current = view.superview
        }
        return .arrow
    }
}
