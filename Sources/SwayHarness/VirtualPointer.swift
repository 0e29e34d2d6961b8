// A pointer for Sway and phoc, which have no input injection of their own: a client of wlroots'
// zwlr_virtual_pointer_v1 protocol, written with our generated bindings (protocols/
// wlr-virtual-pointer-unstable-v1.xml). The compositor adds the device to its seat, so every client
// sees a wl_pointer with the motion and buttons sent here, as from a real mouse. The end-to-end
// tests and the benchmark's Sway run use it.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation
import Wayland
import CompositorHarness

/// A virtual mouse in a wlroots session; coordinates are global (the output's layout points).
public final class SwayVirtualPointer {
    let connection: Connection
    let pointer: ZwlrVirtualPointerV1
    private let manager: ZwlrVirtualPointerManagerV1
    private let extent: (width: UInt32, height: UInt32)

    public convenience init(_ session: SwaySession) throws {
        try self.init(socketPath: session.socketPath, width: session.options.width, height: session.options.height)
    }

    public convenience init(_ session: PhocSession) throws {
        try self.init(socketPath: session.socketPath, width: session.options.width, height: session.options.height)
    }

    /// A pointer on the compositor at `socketPath`, whose outputs span `width` by `height` points.
    public init(socketPath: String, width: Int, height: Int) throws {
        connection = try Connection(name: socketPath)
        let registry = connection.display.getRegistry()
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        registry.onEvent = { event in
            if case .global(let name, let interface, let version) = event { globals[interface] = (name, version) }
        }
        try connection.roundtrip()
        guard let global = globals[ZwlrVirtualPointerManagerV1.interfaceName] else {
            throw HarnessError("the compositor offers no \(ZwlrVirtualPointerManagerV1.interfaceName): \(globals.keys.sorted())")
        }
        manager = registry.bind(name: global.name, as: ZwlrVirtualPointerManagerV1.self, version: global.version)
        pointer = manager.createVirtualPointer(seat: nil)
        extent = (UInt32(width), UInt32(height))
        try connection.roundtrip()
    }

    deinit {
        pointer.destroy()
        manager.destroy()
        _ = try? connection.roundtrip()
    }

    /// The event time: CLOCK_MONOTONIC in milliseconds, the clock compositors stamp real input
    /// with, so that a client's input→commit (the app's `--latency`) reads true. wlroots passes
    /// it on as it is.
    private var time: UInt32 { UInt32(truncatingIfNeeded: Int(tt_monotonic_now() * 1000)) }

    /// Moves to global (x, y), as one pointer frame.
    public func move(x: Double, y: Double) throws {
        pointer.motionAbsolute(time: time, x: UInt32(max(0, x.rounded())), y: UInt32(max(0, y.rounded())),
                               xExtent: extent.width, yExtent: extent.height)
        pointer.frame()
        try connection.roundtrip()
    }

    /// Turns the wheel `notches` clicks (positive: down, or right when `horizontal`), each 15
    /// points as libinput reports a mouse wheel's click, as one pointer frame.
    public func wheel(_ notches: Int32, horizontal: Bool = false) throws {
        let axis: WlPointer.Axis = horizontal ? .horizontalScroll : .verticalScroll
        pointer.axisSource(axisSource: .wheel)
        pointer.axisDiscrete(time: time, axis: axis, value: 15 * Double(notches), discrete: notches)
        pointer.frame()
        try connection.roundtrip()
    }

    /// Presses or releases a button (evdev code: 272 = left), as one pointer frame.
    public func button(_ code: UInt32 = 272, down: Bool) throws {
        pointer.button(time: time, button: code, state: down ? .pressed : .released)
        pointer.frame()
        try connection.roundtrip()
    }
}
