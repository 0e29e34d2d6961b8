// zwp_tablet_tool_v2 -> TouchKit: a pen becomes a `.pencil` touch whose force is the pressure and
// whose altitude and azimuth come from its tilt (T13), and hovers (G20) while in proximity of the
// window but not touching, its height the tablet's distance. Tablet events carry no time until
// `frame`, so each tool's changes wait for its frame.
import TouchKit
import Wayland

final class PenTool {
    let tool: ZwpTabletToolV2
    let number: Int
    private unowned let seat: Seat
    private var inside = false
    /// Touching the surface: a `.pencil` touch is down.
    private(set) var isDown = false
    /// Whether TouchKit was told the pen hovers and not yet that it stopped.
    private var isHovering = false
    private var location = Point.zero
    private var force = 0.0
    /// Tilt and height reported since the last frame (T13).
    private var attributes: Touch.Attributes?
    // What happened since the last frame.
    private var wentDown = false
    private var wentUp = false
    private var moved = false
    private var leftProximity = false

    init(tool: ZwpTabletToolV2, number: Int, seat: Seat) {
        self.tool = tool
        self.number = number
        self.seat = seat
        tool.onEvent = { [unowned self] event in self.handle(event) }
    }

    private var id: TouchInput.ID { TouchInput.ID(source: .tablet, number: Int32(number)) }

    private func handle(_ event: ZwpTabletToolV2.Event) {
        switch event {
        case .proximityIn(let serial, _, let surface):
            seat.noteSerial(serial)
            inside = seat.isWindowSurface(surface)
            seat.penEntered(number)
        case .proximityOut:
            leftProximity = true
        case .down(let serial):
            seat.noteSerial(serial)
            wentDown = inside
        case .up:
            wentUp = true
        case .motion(let x, let y):
            location = Seat.planePoint(x: x, y: y)
            moved = true
        case .pressure(let pressure):
            // 0...65535 on the wire; TouchKit's force is 0...1 for pens.
            force = Double(pressure) / 65535
            moved = true
        case .tilt(let x, let y):
            // Degrees from upright towards +x and +y: TouchKit turns them into UIKit's angles.
            let tilt = Touch.Attributes.tilt(xDegrees: x, yDegrees: y)
            attributes = (attributes ?? Touch.Attributes()).merging(tilt)
            moved = true
        case .distance(let distance):
            // 0...65535 on the wire, as pressure; the hover's zOffset is 0...1.
            var height = attributes ?? Touch.Attributes()
            height.zOffset = Double(distance) / 65535
            attributes = height
            moved = true
        case .frame(let time):
            applyFrame(time: seat.seconds(time))
        case .removed:
            endHover(at: seat.input.application.clock.now)
            if isDown { seat.input.cancel(source: .tablet) }
            isDown = false
            seat.penLeft(number, at: seat.input.application.clock.now)
        default:
            break
        }
    }

    private func applyFrame(time: Double) {
        if let attributes { seat.input.report(id, attributes) }
        attributes = nil
        if wentDown, !isDown {
            // Touching ends the hover.
            endHover(at: time)
            isDown = true
            seat.input.down(id, at: location, time: time, kind: .pencil, force: force)
        } else if moved, isDown {
            seat.input.motion(id, at: location, time: time, force: force)
        } else if moved, inside, !isDown, !leftProximity {
            isHovering = true
            seat.input.hover(id, at: location, time: time)
        }
        if (wentUp || leftProximity), isDown {
            isDown = false
            seat.input.up(id, time: time)
        }
        seat.input.frame()
        if leftProximity {
            endHover(at: time)
            inside = false
            seat.penLeft(number, at: time)
        }
        wentDown = false
        wentUp = false
        moved = false
        leftProximity = false
    }

    private func endHover(at time: Double) {
        guard isHovering else { return }
        isHovering = false
        seat.input.hoverEnded(id, time: time)
    }
}
