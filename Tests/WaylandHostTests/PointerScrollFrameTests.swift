// wl_pointer's scroll events, a frame at a time, into TouchKit's scrolls (S9) and, with Ctrl held,
// its zooms (S14, S15).
import Testing
import TouchKit
import Wayland
@testable import WaylandHost

@Suite("Pointer scrolling (S9)")
struct PointerScrollFrameTests {
    func calls(_ events: [WlPointer.Event], zooms: Bool = false) -> [InputEvent] {
        var frame = PointerScrollFrame()
        for event in events {
            let taken = frame.add(event)
            #expect(taken)
        }
        return frame.calls(at: Point(x: 10, y: 20), seconds: { Double($0) / 1000 }, zooms: zooms)
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

    /// The one zoom `calls` hold: its factor, place, time and source.
    func zoom(_ calls: [InputEvent]) -> (factor: Double, at: Point, time: Double, source: ScrollSource)? {
        guard calls.count == 1, case let .zoom(factor, at, time, source) = calls[0] else { return nil }
        return (factor, at, time, source)
    }

    @Test("S14: with Ctrl, a wheel zooms 1.1 times a notch, in as it scrolls up, by the notches the compositor counts whatever points it gives them")
    func wheelZoomsByNotches() throws {
        // Weston and mutter give a notch 10 points, wlroots 15: the notches decide.
        for points in [10.0, 15.0] {
            let z = try #require(zoom(calls([.axisSource(axisSource: .wheel), .axisDiscrete(axis: .verticalScroll, discrete: -1),
                                             .axis(time: 2000, axis: .verticalScroll, value: -points)], zooms: true)))
            #expect(abs(z.factor - 1.1) < 1e-12 && z.at == Point(x: 10, y: 20) && z.time == 2 && z.source == .wheel)
        }
        let out = try #require(zoom(calls([.axisDiscrete(axis: .verticalScroll, discrete: 2),
                                           .axis(time: 3000, axis: .verticalScroll, value: 20)], zooms: true)))
        #expect(abs(out.factor - 1 / 1.21) < 1e-12 && out.source == .wheel)
    }

    @Test("S14 S15: with Ctrl, a scroll that counts no notches zooms 1.1 times for every 15 points; a touchpad's ends with its fingers; a sideways scroll zooms nothing")
    func proportionalZoom() throws {
        let half = try #require(zoom(calls([.axis(time: 1000, axis: .verticalScroll, value: -7.5)], zooms: true)))
        #expect(abs(half.factor - 1.1.squareRoot()) < 1e-12 && half.source == .wheel)
        let pad = try #require(zoom(calls([.axisSource(axisSource: .finger), .axis(time: 1000, axis: .verticalScroll, value: -30)], zooms: true)))
        #expect(abs(pad.factor - 1.21) < 1e-12 && pad.source == .touchpad && pad.time == 1)
        #expect(calls([.axisSource(axisSource: .finger), .axisStop(time: 1500, axis: .verticalScroll)], zooms: true)
                == [.scrollEnded(time: 1.5)])
        #expect(calls([.axis(time: 1000, axis: .horizontalScroll, value: 30)], zooms: true).isEmpty)
    }
}
