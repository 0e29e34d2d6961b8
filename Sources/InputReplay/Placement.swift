// Where a device's positions land in the replay's window: the panel keeps its proportions (from
// its axes' resolution when both axes give one, else from their ranges), fitted inside the window
// and centred, as a compositor maps a touchscreen onto an output of its own shape. Stretching a
// 720x1280 portrait panel onto a 1024x768 window would turn its circles into ellipses.

/// The mapping of device units onto window points.
public struct Placement: Equatable, Sendable {
    public let x: AxisRange, y: AxisRange
    /// Points a device unit, the same on both axes after resolution is taken into account.
    let scaleX: Double, scaleY: Double
    let originX: Double, originY: Double

    /// The panel fitted inside `width` x `height` points, centred.
    public init(x: AxisRange, y: AxisRange, width: Double, height: Double) {
        self.x = x
        self.y = y
        let spanX = max(Double(x.maximum) - Double(x.minimum), 0), spanY = max(Double(y.maximum) - Double(y.minimum), 0)
        // Millimetres when both axes say how many units one is; units otherwise.
        let physical = x.resolution > 0 && y.resolution > 0
        let unitX = physical ? 1 / Double(x.resolution) : 1, unitY = physical ? 1 / Double(y.resolution) : 1
        let sizeX = spanX * unitX, sizeY = spanY * unitY
        let fit: Double
        switch (sizeX > 0, sizeY > 0) {
        case (true, true): fit = min(width / sizeX, height / sizeY)
        case (true, false): fit = width / sizeX
        case (false, true): fit = height / sizeY
        case (false, false): fit = 0
        }
        scaleX = fit * unitX
        scaleY = fit * unitY
        originX = (width - sizeX * fit) / 2
        originY = (height - sizeY * fit) / 2
    }

    /// Where a device position lands: a value outside the range the device gave is taken as the
    /// nearest end of it, so every point lies on the panel's picture.
    public func point(_ vx: Int32, _ vy: Int32) -> (x: Double, y: Double) {
        func along(_ v: Int32, _ axis: AxisRange, _ scale: Double, _ origin: Double) -> Double {
            let clamped = min(max(Double(v), Double(axis.minimum)), max(Double(axis.maximum), Double(axis.minimum)))
            return origin + (clamped - Double(axis.minimum)) * scale
        }
        return (along(vx, x, scaleX, originX), along(vy, y, scaleY, originY))
    }
}
