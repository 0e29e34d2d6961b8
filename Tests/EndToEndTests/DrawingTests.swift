// A1, A2, T1, T2, T9 on the real app under headless Weston, checked on the compositor's screenshots.
import Foundation
import Testing
import CompositorHarness

@Suite("Drawing under Weston", .serialized)
struct DrawingTests {
    @Test("A1 T2: three fingers landing in one frame draw three red lines, black after lifting")
    func threeFingersInOneFrame() {
        withApp { app in
            let starts: [(Double, Double)] = [(200, 100), (500, 100), (800, 100)]
            let ends: [(Double, Double)] = [(150, 500), (500, 550), (850, 500)]
            let landing = starts.enumerated().map { id, s in
                "touch down \(id) \(app.window.x + s.0) \(app.window.y + s.1)"
            }
            try app.session.control.sendAll(landing + ["touch frame"])
            for step in 1...10 {
                for id in 0..<3 {
                    let t = Double(step) / 10
                    try app.move(id, starts[id].0 + (ends[id].0 - starts[id].0) * t,
                                 starts[id].1 + (ends[id].1 - starts[id].1) * t)
                }
                try app.frame()
            }
            try app.expectScreen("three red lines") { pixel in
                (0..<3).allSatisfy { id in samples(from: starts[id], to: ends[id]).allSatisfy { pixel($0.0, $0.1) == .red } }
                    && pixel(350, 300) == .white
            }
            // The three fingers lift together, as one burst from the device.
            try app.session.control.sendAll((0..<3).map { "touch up \($0)" } + ["touch frame"])
            try app.expectScreen("three black lines") { pixel in
                (0..<3).allSatisfy { id in samples(from: starts[id], to: ends[id]).allSatisfy { pixel($0.0, $0.1) == .black } }
                    && pixel(350, 300) == .white
            }
            // T2: one touchesBegan with three touches, and one touchesEnded with three, although
            // Weston 10 sends no frame after the last up.
            let log = app.app.standardError.split(separator: "\n")
            #expect(log.filter { $0.contains("touchesBegan touches=3") }.count == 3, "\(log)")
            #expect(log.filter { $0.contains("touchesEnded touches=3") }.count == 3, "\(log)")
        }
    }

    @Test("T2 A1: fingers landing in separate frames each draw their own line")
    func fingersInSeparateFrames() {
        withApp { app in
            try app.down(0, 100, 100)
            try app.frame()
            try app.move(0, 100, 400)
            try app.frame()
            try app.down(1, 300, 100)
            try app.frame()
            try app.move(1, 600, 400)
            try app.move(0, 100, 500)
            try app.frame()
            try app.expectScreen("two red lines") { pixel in
                samples(from: (100, 100), to: (100, 500)).allSatisfy { pixel($0.0, $0.1) == .red }
                    && samples(from: (300, 100), to: (600, 400)).allSatisfy { pixel($0.0, $0.1) == .red }
            }
            // Lifting one finger finishes only its line. Weston 10 sends no frame after the last up,
            // so this also checks that the app does not wait for one.
            try app.up(0)
            try app.frame()
            try app.expectScreen("one black, one red") { pixel in
                pixel(100, 300) == .black && pixel(450, 250) == .red
            }
            try app.up(1)
            try app.frame()
            try app.expectScreen("two black lines") { pixel in
                pixel(100, 300) == .black && pixel(450, 250) == .black
            }
        }
    }

    @Test("T1: a touch id reused after its up starts a new line")
    func reusedTouchID() {
        withApp { app in
            try app.drawLine(3, from: (100, 100), to: (400, 100))
            try app.drawLine(3, from: (100, 300), to: (400, 300), lift: false)
            try app.expectScreen("the first line black, the second red") { pixel in
                pixel(250, 100) == .black && pixel(250, 300) == .red && pixel(250, 200) == .white
            }
        }
    }

    @Test("A2 T9: wl_touch.cancel removes the lines in progress and keeps the finished ones")
    func cancelMidStroke() {
        withApp { app in
            try app.drawLine(0, from: (100, 600), to: (900, 600))
            try app.down(1, 200, 100)
            try app.down(2, 400, 100)
            try app.frame()
            try app.move(1, 200, 400)
            try app.move(2, 600, 400)
            try app.frame()
            try app.expectScreen("one black and two red lines") { pixel in
                pixel(500, 600) == .black && pixel(200, 250) == .red && pixel(500, 250) == .red
            }
            try app.session.touchCancel()
            try app.expectScreen("the red lines gone, the black one kept") { pixel in
                pixel(500, 600) == .black && pixel(200, 250) == .white && pixel(500, 250) == .white
            }
            // Touch still works after a cancel.
            try app.drawLine(4, from: (700, 100), to: (700, 400))
            try app.expectScreen("a new black line") { pixel in pixel(700, 250) == .black }
        }
    }

    @Test("A1: the left mouse button draws a line like one finger")
    func mouseDraws() {
        withApp { app in
            let a = app.global(150, 200), b = app.global(650, 450)
            try app.session.pointerMotion(x: a.x, y: a.y)
            try app.session.pointerButton(down: true)
            for step in 1...10 {
                let t = Double(step) / 10
                try app.session.pointerMotion(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            try app.expectScreen("a red line while the button is held") { pixel in
                samples(from: (150, 200), to: (650, 450)).allSatisfy { pixel($0.0, $0.1) == .red }
            }
            try app.session.pointerButton(down: false)
            try app.expectScreen("a black line after release") { pixel in
                samples(from: (150, 200), to: (650, 450)).allSatisfy { pixel($0.0, $0.1) == .black }
            }
            // Moving without the button draws nothing.
            try app.session.pointerMotion(x: app.global(100, 600).x, y: app.global(100, 600).y)
            try app.session.pointerMotion(x: app.global(600, 600).x, y: app.global(600, 600).y)
            let shot = try app.session.screenshot()
            #expect(shot.pixel(x: app.window.x + 350, y: app.window.y + 600) == .white)
        }
    }
}
