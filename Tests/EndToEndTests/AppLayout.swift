// Where the app puts its controls, from its own layout code: the tests tap them wherever the
// window's size puts them.
import CompositorHarness
import TouchKit
import TouchTrackerKit

enum AppLayout {
    /// The centre of a toolbar control in a canvas-and-toolbar area `width` by `height` points.
    static func button(_ item: ToolbarView.Item, width: Double, height: Double) -> (Double, Double) {
        let frame = ToolbarView.layout(width: width)[item]!
        return (frame.midX, height - ToolbarView.height + frame.midY)
    }

    /// The middle of the zoom control's + (or −) over the canvas's bottom right corner, in that
    /// area (left to right, no Fingers toggle before −): its icon's ink, once the control shows.
    static func zoomButton(in: Bool, width: Double, height: Double) -> (x: Double, y: Double) {
        let size = ZoomControlView.size, middle = ZoomControlView.padding + ZoomControlView.buttonSize / 2
        let x = width - 8 - (`in` ? middle : size.width - middle)
        return (x, height - ToolbarView.height - 8 - size.height / 2)
    }

    /// The centre of the palette's swatch `index` in that area, the palette shown.
    static func swatch(_ index: Int, width: Double, height: Double) -> (Double, Double) {
        let frame = PaletteView.swatchFrames(width: width)[index]
        return (frame.midX, height - ToolbarView.height - PaletteView.height(forWidth: width) + frame.midY)
    }
}

extension Pixel {
    /// An opaque style colour as the screen shows it.
    init(_ color: Color) {
        func byte(_ value: Double) -> UInt8 { UInt8((value * 255).rounded()) }
        self.init(red: byte(color.red), green: byte(color.green), blue: byte(color.blue))
    }
}
