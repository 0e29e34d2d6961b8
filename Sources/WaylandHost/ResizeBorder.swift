// Resizing a client-decorated window by its edges with the pointer (GNOME and Weston leave the
// frame to the client). The border lies just inside the window: the buffer stays the window's
// size, with no invisible margin to allocate and paint around it. Touches are left alone, since
// a finger landing near the edge is drawing.
import TouchKit
import Wayland

enum ResizeBorder {
    /// How far in from the window's edge the pointer starts a resize, in points.
    static let thickness = 5.0
    /// How far along an edge from a corner the pointer resizes both ways.
    static let corner = 16.0

    /// The edge or corner of a window of `size` under `point`, if any.
    static func edge(at point: Point, in size: Size) -> XdgToplevel.ResizeEdge? {
        guard point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height else { return nil }
        let nearLeft = point.x < thickness, nearRight = point.x >= size.width - thickness
        let nearTop = point.y < thickness, nearBottom = point.y >= size.height - thickness
        guard nearLeft || nearRight || nearTop || nearBottom else { return nil }
        // Within `corner` of a corner along either edge counts as the corner.
        let left = point.x < corner, right = point.x >= size.width - corner
        let top = point.y < corner, bottom = point.y >= size.height - corner
        var edges: UInt32 = 0
        if top && (nearTop || nearLeft || nearRight) { edges |= XdgToplevel.ResizeEdge.top.rawValue }
        if bottom && (nearBottom || nearLeft || nearRight) { edges |= XdgToplevel.ResizeEdge.bottom.rawValue }
        if left && (nearLeft || nearTop || nearBottom) { edges |= XdgToplevel.ResizeEdge.left.rawValue }
        if right && (nearRight || nearTop || nearBottom) { edges |= XdgToplevel.ResizeEdge.right.rawValue }
        return XdgToplevel.ResizeEdge(rawValue: edges)
    }
}
