#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TouchKit

/// A view that counts `touchesEstimatedPropertiesUpdated` calls.
final class EstimateWatchingView: View {
    var updates = 0
    override func touchesEstimatedPropertiesUpdated(_ touches: Set<Touch>) { updates += 1 }
}

@Suite("A contact's tilt, size and height (T13)")
struct TouchAttributesTests {
    static let pen = TouchInput.ID(source: .tablet, number: 0)

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test("T13: a tablet's tilt becomes UIKit's altitude (pi/2 upright) and azimuth (towards the cap, from +x to +y)")
    func tiltConversion() {
        let upright = Touch.Attributes.tilt(xDegrees: 0, yDegrees: 0)
        #expect(close(upright.altitudeAngle!, .pi / 2) && upright.azimuthAngle == 0)
        let right = Touch.Attributes.tilt(xDegrees: 45, yDegrees: 0)
        #expect(close(right.altitudeAngle!, .pi / 4) && close(right.azimuthAngle!, 0))
        let down = Touch.Attributes.tilt(xDegrees: 0, yDegrees: 60)
        #expect(close(down.altitudeAngle!, .pi / 6) && close(down.azimuthAngle!, .pi / 2))
        let left = Touch.Attributes.tilt(xDegrees: -30, yDegrees: 0)
        #expect(close(left.azimuthAngle!, .pi))
        let diagonal = Touch.Attributes.tilt(xDegrees: 45, yDegrees: 45)
        #expect(close(diagonal.azimuthAngle!, .pi / 4))
        #expect(close(diagonal.altitudeAngle!, atan2(1, 2.0.squareRoot())))
        let flat = Touch.Attributes.tilt(xDegrees: 90, yDegrees: 0)
        #expect(flat.altitudeAngle! > 0 && flat.altitudeAngle! < 0.001, "lying flat, never past the surface")
    }

    @Test("T13: a pen's touch carries the tilt its tablet reported, updated with the next event; force is its pressure")
    func penTouch() throws {
        let h = Harness()
        let view = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.report(Self.pen, .tilt(xDegrees: 0, yDegrees: 45))
        h.input.down(Self.pen, at: Point(x: 50, y: 50), time: 1, kind: .pencil, force: 0.4)
        h.input.frame()
        let touch = try #require(h.log.entries.first?.touches.first)
        #expect(close(touch.altitudeAngle, .pi / 4))
        #expect(close(touch.azimuthAngle(in: nil), .pi / 2))
        #expect(close(touch.azimuthAngle(in: view), .pi / 2))
        let v = touch.azimuthUnitVector(in: view)
        #expect(close(v.dx, 0) && close(v.dy, 1))
        #expect(touch.force == 0.4 && touch.maximumPossibleForce == 1)
        h.input.report(Self.pen, .tilt(xDegrees: 0, yDegrees: 0))
        #expect(close(touch.altitudeAngle, .pi / 4), "not before the next event")
        h.input.motion(Self.pen, at: Point(x: 60, y: 50), time: 1.1, force: 0.5)
        h.input.frame()
        #expect(close(touch.altitudeAngle, .pi / 2) && touch.azimuthAngle(in: nil) == 0)
        #expect(touch.majorRadius == 0 && touch.majorRadiusTolerance == 0)
    }

    @Test("T13: a finger is upright with no azimuth; its radius is the reported shape's, else a default known to within itself")
    func fingerShape() throws {
        let h = Harness()
        _ = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 50, 50, at: 1)
        let plain = try #require(h.log.entries.last?.touches.first)
        #expect(plain.altitudeAngle == .pi / 2 && plain.azimuthAngle(in: nil) == 0)
        #expect(plain.majorRadius == Touch.defaultFingerRadius)
        #expect(plain.majorRadiusTolerance == Touch.defaultFingerRadius)
        h.lift(1, at: 1.1)
        // wl_touch.shape comes between the down and its frame.
        h.input.down(.touch(1), at: Point(x: 80, y: 80), time: 2)
        h.input.report(.touch(1), Touch.Attributes(majorRadius: 6.5))
        h.input.frame()
        let shaped = try #require(h.log.entries.last?.touches.first)
        #expect(shaped.majorRadius == 6.5 && shaped.majorRadiusTolerance == 0)
        h.lift(1, at: 2.1)
        h.tapDown(1, 90, 90, at: 3)
        let next = try #require(h.log.entries.last?.touches.first)
        #expect(next.majorRadius == Touch.defaultFingerRadius, "a new finger on the same id has no shape yet")
    }

    @Test("T13: no value is an estimate on Wayland: the sets are empty and no update is ever sent")
    func noEstimates() throws {
        let h = Harness()
        let view = EstimateWatchingView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        h.window.addSubview(view)
        h.input.down(Self.pen, at: Point(x: 50, y: 50), time: 1, kind: .pencil, force: 0.1)
        h.input.frame()
        h.input.report(Self.pen, .tilt(xDegrees: 20, yDegrees: 10))
        h.input.motion(Self.pen, at: Point(x: 52, y: 50), time: 1.1, force: 0.3)
        h.input.frame()
        let touch = try #require(h.input.touch(for: Self.pen))
        #expect(touch.estimatedProperties.isEmpty && touch.estimatedPropertiesExpectingUpdates.isEmpty)
        #expect(touch.estimationUpdateIndex == nil)
        h.input.up(Self.pen, time: 1.2)
        h.input.frame()
        #expect(view.updates == 0)
    }

    @Test("T13, G20: a hovering pen's height is the tablet's distance as zOffset; a pointer's is 0")
    func hoverHeight() {
        let g = GestureHarness()
        let view = g.addView("pad")
        let hover = HoverGestureRecognizer()
        view.addGestureRecognizer(hover)
        var heights: [Double] = []
        hover.addHandler { heights.append($0.zOffset) }
        g.input.report(Self.pen, Touch.Attributes(zOffset: 0.5))
        g.input.hover(Self.pen, at: Point(x: 50, y: 50), time: 1)
        g.input.report(Self.pen, Touch.Attributes(zOffset: 0.25))
        g.input.hover(Self.pen, at: Point(x: 52, y: 50), time: 1.1)
        g.input.hoverEnded(Self.pen, time: 1.2)
        #expect(heights == [0.5, 0.25, 0.25])
        heights.removeAll()
        let pointer = TouchInput.ID(source: .pointer, number: 0)
        g.input.hover(pointer, at: Point(x: 50, y: 50), time: 2)
        #expect(heights == [0])
        #expect(hover.altitudeAngle == .pi / 2)
    }
}
