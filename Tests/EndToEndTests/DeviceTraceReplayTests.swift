// The real `touchtracker replay` on traces of real touchscreens as users attach them
// (Tests/FuzzCorpus/evemu: trimmed from the MIT-licensed evemu-devices collection, see its README):
// what it draws, what it says at the end, and one line naming the line it cannot read.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("Replaying real devices' traces")
struct DeviceTraceReplayTests {
    static func fixture(_ name: String) -> String { HarnessPaths.packageRoot + "/Tests/FuzzCorpus/evemu/" + name }

    @Test("An N-Trig panel's protocol-A recording (evemu) with --tool free: two fingers, two strokes in the picture, and a summary that says so")
    func protocolARecording() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let svg = folder + "/ntrig.svg"
        let replay = try runTouchTracker(["replay", Self.fixture("valid-ntrig-protocol-a-two-fingers.evemu"), "--tool", "free", "--svg", svg])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.output.contains("replayed 2 contacts: 2 strokes drawn"), "\(replay.output)")
        let drawing = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawing.components(separatedBy: "<path").count - 1 == 2, "two strokes in the SVG")
    }

    @Test("A touchpad's trace replays with a warning that it is not a touchscreen")
    func touchpadWarns() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let replay = try runTouchTracker(["replay", Self.fixture("valid-synaptics-touchpad.evemu"), "--svg", folder + "/pad.svg"])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.error.contains("the device is a touchpad, not a touchscreen"), "\(replay.error)")
        #expect(replay.output.contains("replayed 2 contacts"), "\(replay.output)")
    }

    @Test("An evemu event line it cannot read is named, with what was expected there, and the replay exits 1")
    func unreadableEventLine() throws {
        let folder = RecordReplayTests.temporaryFolder()
        let path = Self.fixture("invalid-event-type-not-hex.evemu")
        let replay = try runTouchTracker(["replay", path, "--svg", folder + "/bad.svg"])
        #expect(replay.status == 1)
        #expect(replay.error.hasPrefix("touchtracker: cannot replay \(path): line 8: expected an evemu event"), "\(replay.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.svg"), "nothing written")
    }
}
