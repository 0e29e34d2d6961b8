// The host's pure decisions, without a compositor: the palm rule, event-time unwrapping,
// xdg_toplevel state decoding and what --latency says of a slow turn.
import Testing
import TouchKit
import Wayland
@testable import WaylandHost

@Suite("Host adapter logic")
struct AdapterLogicTests {
    @Test("Palm rule: no touch may start while a pen is near, nor within the grace period after it left")
    func palmRule() {
        var palm = PalmRejection()
        #expect(palm.allowsTouch(at: 10))
        palm.penEntered(0)
        #expect(!palm.allowsTouch(at: 10.1))
        palm.penEntered(1)
        palm.penLeft(0, at: 11)
        #expect(!palm.allowsTouch(at: 20), "another pen is still near")
        palm.penLeft(1, at: 12)
        #expect(!palm.allowsTouch(at: 12 + PalmRejection.grace / 2))
        #expect(palm.allowsTouch(at: 12 + PalmRejection.grace))
        // A pen that was never near leaving changes nothing.
        palm.penLeft(7, at: 100)
        #expect(palm.allowsTouch(at: 100))
    }

    @Test("T6: 32-bit millisecond event times become seconds that keep rising across the wrap")
    func eventTimeWrap() {
        var timeline = EventTimeline()
        #expect(timeline.seconds(1000) == 1)
        let beforeWrap = timeline.seconds(UInt32.max - 9)
        let afterWrap = timeline.seconds(10)
        #expect(afterWrap > beforeWrap)
        #expect(abs((afterWrap - beforeWrap) - 0.020) < 1e-9)
        // A small step back (events reordered) is not a wrap.
        #expect(timeline.seconds(5) < afterWrap)
    }

    @Test("xdg_toplevel states decode from the wire array")
    func toplevelStates() {
        let bytes: [UInt8] = [1, 0, 0, 0, 4, 0, 0, 0, 2, 0]  // maximized, activated, and a torn value
        #expect(ToplevelWindow.decodeStates(bytes) == [.maximized, .activated])
    }

    @Test("--latency says where a turn over 2 ms of CPU went (events, timers, painting), and nothing of quicker turns")
    func slowTurns() {
        #expect(LatencyReporter.slowTurn(dispatch: 0.0005, timers: 0.0002, paint: 0.0012) == nil, "1.9 ms is not slow")
        #expect(LatencyReporter.slowTurn(dispatch: 0.0071, timers: 0.00001, paint: 0.0004)
                == "slow turn: 7.51 ms on the CPU: events 7.10 ms, timers 0.01 ms, painting and committing 0.40 ms")
    }
}

@Suite("Buffer geometry")
struct BufferGeometryTests {
    @Test("Integer scales multiply the logical size")
    func integer() {
        let geometry = BufferGeometry.integer(2)
        #expect(geometry.pixelSize(width: 1024, height: 768) == (2048, 1536))
        #expect(!geometry.isFractional)
    }

    @Test("Fractional scales (numerator over 120) round the buffer size half away from zero")
    func fractional() {
        let geometry = BufferGeometry.fractional(numerator: 180)  // 1.5
        #expect(geometry.scale == 1.5 && geometry.isFractional)
        #expect(geometry.pixelSize(width: 1024, height: 767) == (1536, 1151))  // 1150.5 rounds up
        // A zero numerator (a broken compositor) never yields a zero-sized buffer.
        #expect(BufferGeometry.fractional(numerator: 0).pixelSize(width: 100, height: 100) == (1, 1))
    }
}

@Suite("Resize border")
struct ResizeBorderTests {
    let size = Size(width: 600, height: 400)

    @Test("Each edge and corner of a client-decorated window resizes from just inside it")
    func edgesAndCorners() {
        let cases: [(Point, XdgToplevel.ResizeEdge?)] = [
            (Point(x: 300, y: 1), .top), (Point(x: 300, y: 398), .bottom),
            (Point(x: 1, y: 200), .left), (Point(x: 598, y: 200), .right),
            (Point(x: 1, y: 1), .topLeft), (Point(x: 10, y: 2), .topLeft), (Point(x: 2, y: 10), .topLeft),
            (Point(x: 598, y: 1), .topRight), (Point(x: 1, y: 398), .bottomLeft),
            (Point(x: 599, y: 399), .bottomRight), (Point(x: 590, y: 398), .bottomRight),
            (Point(x: 300, y: 200), nil), (Point(x: 6, y: 200), nil), (Point(x: 20, y: 20), nil),
            (Point(x: -1, y: 200), nil), (Point(x: 600, y: 200), nil),
        ]
        for (point, expected) in cases {
            #expect(ResizeBorder.edge(at: point, in: size) == expected, "\(point)")
        }
    }
}

@Suite("Window buffers held by the compositor")
struct HeldBufferTests {
    @Test("A frame answering input asks whether the compositor has taken the last commit before it makes a spare; other frames wait for a release")
    func heldBuffers() {
        func choice(_ count: Int, input: Bool, taken: Bool) -> BufferPool.HeldBufferChoice {
            BufferPool.whenEveryBufferIsHeld(count: count, answeringInput: input, compositorTookNewestCommit: taken)
        }
        // The second buffer of the steady pair is made whatever the frame.
        #expect(choice(1, input: false, taken: false) == .makeBuffer)
        // Until the compositor has taken the last commit, the release of the buffer it replaced
        // may be on its way (Weston, Sway, mutter): a spare would cost more than the wait.
        #expect(choice(2, input: true, taken: false) == .askCompositor)
        // It took the commit and kept every buffer (KWin until its repaint): a spare.
        #expect(choice(2, input: true, taken: true) == .makeBuffer)
        #expect(choice(3, input: true, taken: true) == .makeBuffer)
        // No spare for a frame without input, nor beyond the most buffers.
        #expect(choice(2, input: false, taken: true) == .waitForRelease)
        #expect(choice(BufferPool.maxBuffers, input: true, taken: true) == .waitForRelease)
    }

    @Test("A burst of input makes its spare's memory ahead when the burst before made a spare, and the first burst does; not after one whose memory went unused")
    func spareMadeAhead() {
        var forecast = SpareForecast()
        // The first burst: a compositor is taken to keep replaced buffers until shown otherwise.
        #expect(forecast.prepareAtBurst(buffers: 2, prepared: false))
        // Never twice, nor with a spare still there or before the steady pair exists.
        #expect(!forecast.prepareAtBurst(buffers: 2, prepared: true))
        #expect(!forecast.prepareAtBurst(buffers: 3, prepared: false))
        #expect(!forecast.prepareAtBurst(buffers: 1, prepared: false))
        // Weston gave every buffer back: the memory went its lifetime unused; the next burst
        // makes none ahead.
        forecast.preparedWentUnused()
        #expect(!forecast.prepareAtBurst(buffers: 2, prepared: false))
        // A burst that made a spare all the same (KWin, or Weston busy): the next makes one ahead.
        forecast.spareMade()
        #expect(forecast.prepareAtBurst(buffers: 2, prepared: false))
    }
}
