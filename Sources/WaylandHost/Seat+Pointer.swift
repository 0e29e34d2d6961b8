// wl_pointer -> TouchKit: the left button acts as one finger (an `.indirectPointer` touch), the
// pointer with no button down hovers (G20), its scrolls scroll or with Ctrl held zoom (S9, S14,
// S15); the pointer's look follows what is under it; input on the edit menu's popup goes to the
// popup.
import TouchKit
import Wayland

extension Seat {
    func handle(_ event: WlPointer.Event) {
        switch event {
        case .motion(let time, _, _), .button(_, let time, _, _): inputArrived(time: time)
        default: break
        }
        switch event {
        case .enter(let serial, let surface, let x, let y):
            lastSerial = serial
            enterSerial = serial
            pointerOnPopup = surface != nil && surface === popup?.surface
            pointerInside = isWindowSurface(surface)
            pointerLocation = Self.planePoint(x: x, y: y)
            shownShape = nil
            updateCursor()
            // wl_pointer.enter has no time of its own.
            hoverPointer(at: input.application.clock.now)
        case .leave(let serial, _):
            lastSerial = serial
            pointerInside = false
            pointerOnPopup = false
            endPointerHover(at: input.application.clock.now)
            // Wayland keeps focus while a button is held, so a leave mid-drag ends that drag.
            endPointerTouch(cancelled: false)
        case .motion(let time, let x, let y):
            pointerLocation = Self.planePoint(x: x, y: y)
            if pointerOnPopup {
                popup?.drag(to: pointerLocation)
                return
            }
            updateCursor()
            if pointerDown {
                input.motion(Self.pointerTouch, at: pointerLocation, time: timeline.seconds(time))
                input.frame()
            } else {
                hoverPointer(at: timeline.seconds(time))
            }
        case .axis, .axisSource, .axisStop, .axisDiscrete, .axisValue120:
            _ = pendingScroll.add(event)
        case .frame:
            let frame = pendingScroll
            pendingScroll = PointerScrollFrame()
            // A touchpad's scroll zooms or scrolls as it began, whatever Ctrl does meanwhile.
            let zooms = frame.source == .finger ? (touchpadScrollZooms ?? keymap.controlHeld) : keymap.controlHeld
            if frame.source == .finger { touchpadScrollZooms = frame.stopped ? nil : zooms }
            // Scrolls over the edit menu's popup or outside the window move nothing.
            guard pointerInside, !pointerOnPopup else { return }
            for call in frame.calls(at: pointerLocation, seconds: { self.timeline.seconds($0) }, zooms: zooms) {
                input.apply(call)
            }
        case .button(let serial, let time, let button, let state):
            lastSerial = serial
            if state == .pressed { lastPressSerial = serial }
            guard button == Self.leftButton else { return }
            if pointerOnPopup {
                if state == .pressed { popup?.press(at: pointerLocation) } else { popup?.release(at: pointerLocation) }
                return
            }
            if state == .pressed, pointerInside, !pointerDown, let edge = resizeEdge(pointerLocation) {
                // The compositor takes the pointer until the button is released.
                endPointerHover(at: timeline.seconds(time))
                beginResize(seat, serial, edge)
            } else if state == .pressed, pointerInside, !pointerDown {
                // A press is a touch, not a hover.
                endPointerHover(at: timeline.seconds(time))
                pointerDown = true
                input.down(Self.pointerTouch, at: pointerLocation, time: timeline.seconds(time),
                           kind: .indirectPointer)
                input.frame()
            } else if state == .released, pointerDown {
                pointerDown = false
                input.up(Self.pointerTouch, time: timeline.seconds(time))
                input.frame()
                hoverPointer(at: timeline.seconds(time))
            }
        }
    }

    /// Sets the cursor when the shape under the pointer changes (the compositor keeps it otherwise).
    func updateCursor(force: Bool = false) {
        guard pointerInside, let pointer, let cursorTheme else { return }
        let shape = cursorShape(pointerLocation)
        guard force || shape != shownShape else { return }
        shownShape = shape
        cursorTheme.apply(shape, to: pointer, serial: enterSerial, scale: cursorScale())
    }

    /// Reports the pointer hovering where it is, when it is over the window with no button down.
    private func hoverPointer(at time: Double) {
        guard pointerInside, !pointerDown, !pointerOnPopup else { return }
        pointerHovering = true
        input.hover(Self.pointerTouch, at: pointerLocation, time: time)
    }

    func endPointerHover(at time: Double) {
        guard pointerHovering else { return }
        pointerHovering = false
        input.hoverEnded(Self.pointerTouch, time: time)
    }

    func endPointerTouch(cancelled: Bool) {
        guard pointerDown else { return }
        pointerDown = false
        if cancelled {
            input.cancel(source: .pointer)
        } else {
            input.up(Self.pointerTouch, time: input.application.clock.now)
            input.frame()
        }
    }
}
