import Testing
@testable import TouchKit

@Suite("Pan, swipe, pinch and rotation (G13-G15)")
struct PanSwipePinchRotationTests {
    func setup<R: GestureRecognizer>(_ recognizer: R, _ name: String) -> (GestureHarness, R) {
        let g = GestureHarness()
        let view = g.addView("canvas")
        view.addGestureRecognizer(g.watch(recognizer, name))
        return (g, recognizer)
    }

    @Test("G13: the pan begins only after the fingers moved more than about 10 pt")
    func hysteresis() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        g.down(1, 100, 100, at: 1)
        g.move(1, 109, 100, at: 1.02)
        #expect(pan.state == .possible)
        g.move(1, 111, 100, at: 1.04)
        #expect(g.actions == ["pan.began"])
    }

    @Test("G13: translation(in:) is measured from touch-down; setTranslation gives increments")
    func translation() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        var seen: [Point] = []
        pan.addHandler { pan in
            seen.append(pan.translation(in: nil))
            if pan.state == .changed { pan.setTranslation(.zero, in: nil) }
        }
        g.down(1, 100, 100, at: 1)
        g.move(1, 115, 100, at: 1.02)
        g.move(1, 120, 105, at: 1.04)
        g.move(1, 130, 105, at: 1.06)
        g.up(1, at: 1.08)
        #expect(seen == [Point(x: 15, y: 0), Point(x: 20, y: 5), Point(x: 10, y: 0), .zero])
        // Moving by the changes (as TouchTracker does) keeps a dragged object under the finger.
        #expect(seen[1].x + seen[2].x == 30 && seen[1].y + seen[2].y == 5)
    }

    @Test("G13: velocity(in:) is in points per second over the last moves")
    func velocity() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        var endVelocity: Point?
        pan.addHandler { if $0.state == .ended { endVelocity = $0.velocity(in: nil) } }
        g.down(1, 100, 100, at: 1)
        for i in 1...20 {
            g.move(1, 100 + 5 * Double(i), 100 - 2 * Double(i), at: 1 + 0.01 * Double(i))
        }
        let v = pan.velocity(in: nil)
        #expect(abs(v.x - 500) < 1e-6 && abs(v.y + 200) < 1e-6)
        g.wait(until: 1.7)
        g.move(1, 200, 60, at: 1.7)  // held still, then a tiny settle
        g.up(1, at: 1.75)
        #expect(endVelocity == .zero, "no speed left after resting")
    }

    @Test("G13: fingers that rest a hair less than velocity's window before lifting have next to no speed left, as those resting a hair more have none")
    func velocityAfterRest() {
        for rest in [0.0999, 0.1001] {
            let (g, pan) = setup(PanGestureRecognizer(), "pan")
            var endVelocity: Point?
            pan.addHandler { if $0.state == .ended { endVelocity = $0.velocity(in: nil) } }
            g.down(1, 100, 100, at: 1)
            for i in 1...20 { g.move(1, 100 + 5 * Double(i), 100, at: 1 + 0.01 * Double(i)) }
            g.up(1, at: 1.2 + rest)
            // 500 pt/s until 1.2: of the window before the lift, 0.1 ms saw that speed.
            let speed = endVelocity.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
            #expect(speed.map { $0 < 1 } == true, "rest \(rest) s: \(String(describing: speed)) pt/s")
        }
    }

    @Test("G13: minimumNumberOfTouches: one finger does not pan a two-finger pan; two fingers do")
    func minimumTouches() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        pan.minimumNumberOfTouches = 2
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 1)
        #expect(g.actions.isEmpty)
        g.frame(at: 2) { input, t in
            input.down(.touch(1), at: Point(x: 100, y: 100), time: t)
            input.down(.touch(2), at: Point(x: 100, y: 200), time: t)
        }
        g.frame(at: 2.02) { input, t in
            input.motion(.touch(1), at: Point(x: 130, y: 100), time: t)
            input.motion(.touch(2), at: Point(x: 130, y: 200), time: t)
        }
        #expect(g.actions == ["pan.began"])
        #expect(pan.translation(in: nil) == Point(x: 30, y: 0))
        #expect(pan.location(in: nil) == Point(x: 130, y: 150))
        g.up(2, at: 2.04)  // below the minimum: the pan ends
        #expect(g.actions == ["pan.began", "pan.ended"])
        g.up(1, at: 2.06)
    }

    @Test("G13: maximumNumberOfTouches: too many fingers keep it from beginning; extra ones are ignored later")
    func maximumTouches() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        pan.maximumNumberOfTouches = 1
        g.down(1, 100, 100, at: 1)
        g.down(2, 100, 200, at: 1.01)
        g.move(1, 150, 100, at: 1.02)
        #expect(pan.state == .possible, "two fingers are one too many")
        g.up(2, at: 1.03)
        g.move(1, 170, 100, at: 1.04)
        #expect(g.actions == ["pan.began"])
        g.down(3, 300, 200, at: 1.05)
        #expect(pan.numberOfTouches == 1)
        let third = g.input.touch(for: .touch(3))
        #expect(third?.gestureRecognizers.isEmpty == true)
        g.up(3, at: 1.06)
        g.up(1, at: 1.07)
        #expect(g.actions == ["pan.began", "pan.ended"])
    }

    @Test("G13: a finger joining mid-pan moves the centroid, not the translation")
    func joiningFinger() {
        let (g, pan) = setup(PanGestureRecognizer(), "pan")
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 140, y: 100), at: 1, steps: 2, lift: false)
        #expect(pan.translation(in: nil) == Point(x: 40, y: 0))
        g.down(2, 300, 300, at: 1.1)
        #expect(pan.translation(in: nil) == Point(x: 40, y: 0))
        g.frame(at: 1.12) { input, t in
            input.motion(.touch(1), at: Point(x: 150, y: 100), time: t)
            input.motion(.touch(2), at: Point(x: 310, y: 300), time: t)
        }
        #expect(pan.translation(in: nil) == Point(x: 50, y: 0))
        g.up(2, at: 1.14)
        #expect(pan.translation(in: nil) == Point(x: 50, y: 0))
    }

    @Test("G14: a swipe right recognizes while the finger is still moving")
    func swipeRight() {
        let (g, swipe) = setup(SwipeGestureRecognizer(), "swipe")
        #expect(swipe.direction == .right && swipe.numberOfTouchesRequired == 1)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 105), at: 1, steps: 4, lift: false)
        #expect(g.actions == ["swipe.ended"])
        g.up(1, at: 1.2)
    }

    @Test("G14: direction: the wrong way, too diagonal or too slow fails")
    func swipeFailures() {
        let (g, swipe) = setup(SwipeGestureRecognizer(), "swipe")
        g.drag(1, from: Point(x: 200, y: 100), to: Point(x: 100, y: 100), at: 10)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 180, y: 160), at: 20)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 30, steps: 5, interval: 0.2)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 130, y: 100), at: 40)  // lifted too soon
        #expect(g.actions.isEmpty)
        swipe.direction = [.up, .down]
        g.drag(1, from: Point(x: 100, y: 200), to: Point(x: 100, y: 100), at: 50)
        g.drag(1, from: Point(x: 100, y: 100), to: Point(x: 110, y: 200), at: 60)
        #expect(g.actions == ["swipe.ended", "swipe.ended"])
    }

    @Test("G14: numberOfTouchesRequired: a two-finger swipe")
    func twoFingerSwipe() {
        let (g, swipe) = setup(SwipeGestureRecognizer(), "swipe")
        swipe.numberOfTouchesRequired = 2
        swipe.direction = .left
        g.drag(1, from: Point(x: 300, y: 100), to: Point(x: 200, y: 100), at: 1)
        #expect(g.actions.isEmpty)
        g.frame(at: 2) { input, t in
            input.down(.touch(1), at: Point(x: 300, y: 100), time: t)
            input.down(.touch(2), at: Point(x: 300, y: 150), time: t)
        }
        for i in 1...4 {
            g.frame(at: 2 + 0.02 * Double(i)) { input, t in
                input.motion(.touch(1), at: Point(x: 300 - 20 * Double(i), y: 100), time: t)
                input.motion(.touch(2), at: Point(x: 300 - 20 * Double(i), y: 150), time: t)
            }
        }
        #expect(g.actions == ["swipe.ended"])
    }

    /// Two fingers on a horizontal line, 100 pt apart around (200, 150).
    func twoFingersDown(_ g: GestureHarness, at time: Double) {
        g.frame(at: time) { input, t in
            input.down(.touch(1), at: Point(x: 150, y: 150), time: t)
            input.down(.touch(2), at: Point(x: 250, y: 150), time: t)
        }
    }

    @Test("G15: pinch: scale is the fingers' distance relative to the start; setting it rebases")
    func pinch() {
        let (g, pinch) = setup(PinchGestureRecognizer(), "pinch")
        twoFingersDown(g, at: 1)
        g.move(2, 255, 150, at: 1.02)  // 5 pt: not yet
        #expect(pinch.state == .possible)
        g.move(2, 300, 150, at: 1.1)
        #expect(g.actions == ["pinch.began"])
        #expect(abs(pinch.scale - 1.5) < 1e-9)
        #expect(pinch.velocity > 0)
        #expect(pinch.location(in: nil) == Point(x: 225, y: 150))
        pinch.scale = 1
        g.move(1, 100, 150, at: 1.2)  // 150 -> 200 apart
        #expect(abs(pinch.scale - 4.0 / 3.0) < 1e-9)
        g.up(1, at: 1.3)
        #expect(g.actions == ["pinch.began", "pinch.changed", "pinch.ended"])
        g.up(2, at: 1.35)
        #expect(pinch.scale == 1)
    }

    @Test("G15: the actions of a pinch's and a rotation's end may ask where the fingers are (the centroid as they lifted)")
    func locationAtTheEnd() {
        for recognizer in [PinchGestureRecognizer(), RotationGestureRecognizer()] as [GestureRecognizer] {
            let (g, watched) = setup(recognizer, "two")
            var ends: [Point] = []
            watched.addAnyHandler { r in if r.state == .ended { ends.append(r.location(in: nil)) } }
            twoFingersDown(g, at: 1)
            g.move(2, 300, 200, at: 1.1)
            g.up(1, at: 1.2)
            #expect(ends == [Point(x: 225, y: 175)], "\(type(of: recognizer)): \(ends)")
        }
    }

    @Test("G15: rotation: radians, clockwise positive on screen, summed over steps")
    func rotation() {
        let (g, rotation) = setup(RotationGestureRecognizer(), "rotation")
        twoFingersDown(g, at: 1)
        // Finger 2 goes a quarter turn around finger 1, clockwise on screen, in steps.
        for (i, deg) in [30.0, 60, 90].enumerated() {
            let rad = deg * Double.pi / 180
            g.move(2, 150 + 100 * cosine(rad), 150 + 100 * sine(rad), at: 1 + 0.05 * Double(i + 1))
        }
        #expect(g.actions == ["rotation.began", "rotation.changed", "rotation.changed"])
        #expect(abs(rotation.rotation - Double.pi / 2) < 1e-9)
        #expect(rotation.velocity > 0)
        rotation.rotation = 0
        g.move(2, 50, 150, at: 1.3)  // another quarter turn
        #expect(abs(rotation.rotation - Double.pi / 2) < 1e-9)
        g.up(2, at: 1.4)
        g.up(1, at: 1.45)
        #expect(g.actions.last == "rotation.ended")
    }

    @Test("G15: pinch and rotation recognize together through the delegate; alone the first excludes the other")
    func pinchAndRotation() {
        for together in [true, false] {
            let g = GestureHarness()
            let view = g.addView("canvas")
            let pinch = g.watch(PinchGestureRecognizer(), "pinch")
            let rotation = g.watch(RotationGestureRecognizer(), "rotation")
            let delegate = TestDelegate()
            delegate.simultaneous = { _, _ in together }
            pinch.delegate = delegate
            view.addGestureRecognizer(pinch)
            view.addGestureRecognizer(rotation)
            twoFingersDown(g, at: 1)
            g.move(2, 260, 150, at: 1.05)  // spreads: the pinch begins
            g.move(2, 250, 190, at: 1.1)  // turns too
            g.move(2, 240, 230, at: 1.15)
            g.frame(at: 1.2) { input, t in
                input.up(.touch(1), time: t)
                input.up(.touch(2), time: t)
            }
            if together {
                #expect(g.actions == ["pinch.began", "pinch.changed", "rotation.began", "pinch.changed",
                                      "rotation.changed", "pinch.ended", "rotation.ended"])
            } else {
                #expect(g.actions == ["pinch.began", "pinch.changed", "pinch.changed", "pinch.ended"])
            }
        }
    }

    @Test("The arctangent TouchKit uses instead of libm")
    func arctangentAccuracy() {
        let cases: [(Double, Double, Double)] = [
            (0, 1, 0), (1, 1, Double.pi / 4), (1, 0, Double.pi / 2), (1, -1, 3 * Double.pi / 4),
            (0, -1, Double.pi), (-1, -1, -3 * Double.pi / 4), (-1, 0, -Double.pi / 2),
            (1, 3.0.squareRoot(), Double.pi / 6), (3.0.squareRoot(), 1, Double.pi / 3),
            (0.2, 1, 0.19739555984988078),
        ]
        for (y, x, expected) in cases {
            #expect(abs(arctangent(y: y, x: x) - expected) < 1e-14, "atan2(\(y), \(x))")
        }
        #expect(arctangent(y: 0, x: 0) == 0)
    }
}

/// cos and sin for test geometry, by Taylor series (TouchKit and its tests use no libm).
func cosine(_ x: Double) -> Double {
    var term = 1.0, sum = 1.0
    for k in 1..<30 {
        term *= -x * x / Double((2 * k - 1) * (2 * k))
        sum += term
    }
    return sum
}

func sine(_ x: Double) -> Double {
    var term = x, sum = x
    for k in 1..<30 {
        term *= -x * x / Double((2 * k) * (2 * k + 1))
        sum += term
    }
    return sum
}
