// zwp_pointer_gesture_pinch_v1's events into TouchKit's pinch calls (S13).
import Testing
import TouchKit
import Wayland
@testable import WaylandHost

@Suite("Touchpad pinch (S13)")
struct PointerGesturesTests {
    let here = Point(x: 30, y: 40)
    func seconds(_ ms: UInt32) -> Double { Double(ms) / 1000 }

    @Test("S13: a pinch begun over the window becomes begin, changes (scale since the start, the middle's move) and end, with times in seconds")
    func pinchOverTheWindow() {
        var pinch = PointerPinch()
        #expect(pinch.calls(for: .begin(serial: 1, time: 1000, surface: nil, fingers: 2), at: here, onWindow: true, seconds: seconds)
                == [.pinchBegan(at: here, time: 1)])
        #expect(pinch.calls(for: .update(time: 1010, dx: 2, dy: -3, scale: 1.25, rotation: 4), at: here, onWindow: true, seconds: seconds)
                == [.pinchChanged(scale: 1.25, translation: Point(x: 2, y: -3), time: 1.01)])
        #expect(pinch.calls(for: .end(serial: 2, time: 1020, cancelled: 1), at: here, onWindow: true, seconds: seconds)
                == [.pinchEnded(time: 1.02, cancelled: true)])
        #expect(!pinch.isActive)
    }

    @Test("S13: a pinch begun elsewhere (another surface, the edit menu) reaches nothing, to its end")
    func pinchElsewhere() {
        var pinch = PointerPinch()
        #expect(pinch.calls(for: .begin(serial: 1, time: 1000, surface: nil, fingers: 2), at: here, onWindow: false, seconds: seconds).isEmpty)
        #expect(pinch.calls(for: .update(time: 1010, dx: 2, dy: -3, scale: 1.25, rotation: 0), at: here, onWindow: true, seconds: seconds).isEmpty)
        #expect(pinch.calls(for: .end(serial: 2, time: 1020, cancelled: 0), at: here, onWindow: true, seconds: seconds).isEmpty)
    }

    @Test("S13: a begin while a pinch is under way cancels the old one first; the pointer going away cancels the one under way")
    func unendedPinches() {
        var pinch = PointerPinch()
        _ = pinch.calls(for: .begin(serial: 1, time: 1000, surface: nil, fingers: 2), at: here, onWindow: true, seconds: seconds)
        #expect(pinch.calls(for: .begin(serial: 3, time: 2000, surface: nil, fingers: 3), at: here, onWindow: true, seconds: seconds)
                == [.pinchEnded(time: 2, cancelled: true), .pinchBegan(at: here, time: 2)])
        #expect(pinch.cancel(at: 5) == [.pinchEnded(time: 5, cancelled: true)])
        #expect(pinch.cancel(at: 6).isEmpty)
    }
}
