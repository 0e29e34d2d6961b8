// wl_pointer's scroll events, a frame at a time, into TouchKit's scrolls (S9).
import Testing
import TouchKit
import Wayland
@testable import WaylandHost

@Suite("Pointer scrolling (S9)")
struct PointerScrollFrameTests {
    func calls(_ events: [WlPointer.Event]) -> [InputEvent] {
        var frame = PointerScrollFrame()
        for event in events {
            let taken = frame.add(event)
            #expect(taken)
        }
        return frame.calls(at: Point(x: 10, y: 20), seconds: { Double($0) / 1000 })
    }

    @Test("S9: a wheel notch (source, discrete, axis) is one wheel scroll by the axis's points")
    func wheel() {
        #expect(calls([.axisSource(axisSource: .wheel), .axisDiscrete(axis: .verticalScroll, discrete: 1),
                       .axis(time: 2000, axis: .verticalScroll, value: 15)])
                == [.scroll(Point(x: 0, y: 15), at: Point(x: 10, y: 20), time: 2, source: .wheel)])
    }

    @Test("S9: a touchpad's move on both axes is one touchpad scroll; its fingers lifting end it")
    func touchpad() {
        #expect(calls([.axisSource(axisSource: .finger), .axis(time: 1000, axis: .horizontalScroll, value: -3.5),
                       .axis(time: 1000, axis: .verticalScroll, value: 2)])
                == [.scroll(Point(x: -3.5, y: 2), at: Point(x: 10, y: 20), time: 1, source: .touchpad)])
        #expect(calls([.axisSource(axisSource: .finger), .axisStop(time: 1500, axis: .verticalScroll),
                       .axisStop(time: 1500, axis: .horizontalScroll)])
                == [.scrollEnded(time: 1.5)])
    }

    @Test("S9: a wheel's stop ends nothing (only fingers on a touchpad scroll on after lifting); a frame without axes is no scroll")
    func nothingElse() {
        #expect(calls([.axisSource(axisSource: .wheel), .axisStop(time: 10, axis: .verticalScroll)]).isEmpty)
        #expect(calls([]).isEmpty)
        var frame = PointerScrollFrame()
        let frameTaken = frame.add(.frame), motionTaken = frame.add(.motion(time: 1, surfaceX: 1, surfaceY: 1))
        #expect(!frameTaken && !motionTaken)
    }
}
