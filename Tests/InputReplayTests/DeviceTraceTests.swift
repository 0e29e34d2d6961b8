import Limits
import PropertyBased
import Testing
import TouchKit
@testable import InputReplay

/// The adapter calls of `entries`, short: "d0 50,25", "m0 60,25", "u0", "f", "c".
func calls(_ entries: [RecordingEntry]) -> [String] {
    entries.compactMap { entry in
        guard case .input(let event) = entry else { return nil }
        func p(_ point: Point) -> String { "\(Int(point.x.rounded())),\(Int(point.y.rounded()))" }
        switch event {
        case let .down(id, point, _, _, _): return "d\(id.number) \(p(point))"
        case let .motion(id, point, _, _): return "m\(id.number) \(p(point))"
        case let .up(id, _): return "u\(id.number)"
        case .frame: return "f"
        case .cancel: return "c"
        case .beginBatch, .endBatch, .hover, .hoverEnded, .attributes, .scroll, .scrollEnded, .pinchBegan, .pinchChanged, .pinchEnded, .zoom: return nil
        }
    }
}

@Suite("Touchscreen traces (multitouch protocol B)")
struct DeviceTraceTests {
    /// A 0...1000 x 0...500 panel shown on a 200 x 100 pt window: 5 device units a point.
    static let evtestHeader = """
        Input driver version is 1.0.1
        Input device ID: bus 0x18 vendor 0x4f3 product 0x2a1 version 0x100
        Input device name: "ELAN Touchscreen"
        Supported events:
          Event type 0 (EV_SYN)
          Event type 3 (EV_ABS)
            Event code 0 (ABS_X)
              Value      0
              Min        0
              Max     4095
            Event code 47 (ABS_MT_SLOT)
              Value      0
              Min        0
              Max        9
            Event code 53 (ABS_MT_POSITION_X)
              Value      0
              Min        0
              Max     1000
            Event code 54 (ABS_MT_POSITION_Y)
              Value      0
              Min        0
              Max      500
            Event code 57 (ABS_MT_TRACKING_ID)
              Value      0
              Min        0
              Max    65535
        Properties:
          Property type 1 (INPUT_PROP_DIRECT)
        Testing ... (interrupt to exit)

        """

    static func absolute(_ t: String, _ code: Int, _ name: String, _ value: Int) -> String {
        "Event: time \(t), type 3 (EV_ABS), code \(code) (\(name)), value \(value)"
    }
    static func slot(_ t: String, _ v: Int) -> String { absolute(t, 47, "ABS_MT_SLOT", v) }
    static func tracking(_ t: String, _ v: Int) -> String { absolute(t, 57, "ABS_MT_TRACKING_ID", v) }
    static func x(_ t: String, _ v: Int) -> String { absolute(t, 53, "ABS_MT_POSITION_X", v) }
    static func y(_ t: String, _ v: Int) -> String { absolute(t, 54, "ABS_MT_POSITION_Y", v) }
    static func report(_ t: String) -> String { "Event: time \(t), -------------- SYN_REPORT ------------" }

    @Test("A1: evtest text of two fingers, with what real panels do: tracking ids far from 0, two landings in one report, a report with no change, a slot released twice, a new contact without a release")
    func evtestQuirks() throws {
        let events = [
            // Two fingers land in one report; their tracking ids are large and unrelated.
            Self.slot("100.000000", 0), Self.tracking("100.000000", 4711), Self.x("100.000000", 100), Self.y("100.000000", 50),
            Self.slot("100.000000", 1), Self.tracking("100.000000", 90_000), Self.x("100.000000", 500), Self.y("100.000000", 250),
            Self.report("100.000000"),
            // A report with no change.
            Self.report("100.008000"),
            // Slot 1 moves (the slot stays selected across reports).
            Self.x("100.016000", 600), Self.report("100.016000"),
            // Slot 0 lifts; then its release comes again.
            Self.slot("100.024000", 0), Self.tracking("100.024000", -1), Self.report("100.024000"),
            Self.tracking("100.032000", -1), Self.report("100.032000"),
            // Slot 1 gets a new contact without a release between.
            Self.slot("100.040000", 1), Self.tracking("100.040000", 90_001), Self.x("100.040000", 900), Self.report("100.040000"),
            Self.tracking("100.048000", -1), Self.report("100.048000"),
        ]
        let text = Self.evtestHeader + events.joined(separator: "\n") + "\n"
        let entries = try readInputFile(text, width: 200, height: 100)
        #expect(calls(entries) == ["d0 20,10", "d1 100,50", "f", "m1 120,50", "f", "u0", "f", "u1", "d1 180,50", "f", "u1", "f"])
        // Times start at 0 and keep their spacing.
        let turns = entries.compactMap { if case .turn(let t) = $0 { t } else { nil } }
        #expect(turns.count == 5)
        #expect(abs(turns[0]) < 1e-9 && abs(turns[1] - 0.016) < 1e-6 && abs(turns[4] - 0.048) < 1e-6)
    }

    @Test("T9: SYN_DROPPED cancels the touches in flight; a finger that stays down draws again only once lifted, new fingers draw")
    func evtestDropped() throws {
        let events = [
            Self.slot("1.0", 0), Self.tracking("1.0", 7), Self.x("1.0", 100), Self.y("1.0", 100), Self.report("1.0"),
            Self.x("1.1", 200), "Event: time 1.100000, -------------- SYN_DROPPED ------------",
            Self.x("1.2", 300), Self.report("1.2"),
            // The old contact keeps moving: ignored.
            Self.x("1.3", 400), Self.report("1.3"),
            // Another finger lands in slot 2.
            Self.slot("1.4", 2), Self.tracking("1.4", 8), Self.x("1.4", 50), Self.y("1.4", 50), Self.report("1.4"),
            // The old contact lifts, then lands again.
            Self.slot("1.5", 0), Self.tracking("1.5", -1), Self.report("1.5"),
            Self.tracking("1.6", 9), Self.report("1.6"),
        ]
        let entries = try readInputFile(Self.evtestHeader + events.joined(separator: "\n"), width: 200, height: 100)
        #expect(calls(entries) == ["d0 20,20", "f", "c", "d2 10,10", "f", "d0 80,20", "f"])
    }

    @Test("A libinput record trace: the multitouch device's absinfo scales its events onto the window")
    func libinputRecord() throws {
        let yaml = """
            # libinput record
            version: 1
            ndevices: 2
            libinput:
              version: "1.22.1"
              git: "unknown"
            system:
              os: "debian:12"
              kernel: "6.1.0"
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Power Button"
                id: [25, 0, 1, 0]
                codes:
                  0: [0, 1] # EV_SYN
                  1: [116] # EV_KEY
                properties: []
              events:
              - evdev:
                - [  0,      5,   1, 116,     1] # EV_KEY / KEY_POWER                1
                - [  0,      5,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
            - node: /dev/input/event5
              evdev:
                name: "Wacom HID 5256 Finger"
                id: [3, 1386, 21078, 256]
                codes:
                  0: [0, 1, 3, 4] # EV_SYN
                  3: [0, 1, 47, 48, 53, 54, 57] # EV_ABS
                absinfo:
                  0: [0, 2000, 0, 0, 10]
                  1: [0, 1000, 0, 0, 10]
                  47: [0, 9, 0, 0, 0]
                  53: [0, 2000, 0, 0, 10]
                  54: [0, 1000, 0, 0, 10]
                  57: [0, 65535, 0, 0, 0]
                properties: [1]
              events:
              - evdev:
                - [  2, 100000,   3,  47,     0] # EV_ABS / ABS_MT_SLOT                0
                - [  2, 100000,   3,  57,   312] # EV_ABS / ABS_MT_TRACKING_ID       312
                - [  2, 100000,   3,  53,  1000] # EV_ABS / ABS_MT_POSITION_X       1000
                - [  2, 100000,   3,  54,   500] # EV_ABS / ABS_MT_POSITION_Y        500
                - [  2, 100000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  2, 108000,   3,  53,  1200] # EV_ABS / ABS_MT_POSITION_X       1200
                - [  2, 108000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +8ms
              - evdev:
                - [  2, 116000,   3,  57,    -1] # EV_ABS / ABS_MT_TRACKING_ID        -1
                - [  2, 116000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +8ms
            """
        let entries = try readInputFile(yaml, width: 400, height: 300)
        #expect(calls(entries) == ["d0 200,150", "f", "m0 240,150", "f", "u0", "f"])
    }

    /// A libinput record trace of a ten-slot 2000 x 1000 touchscreen with `events` (lines of
    /// `    - [sec, usec, type, code, value]`).
    static func libinputRecord(_ events: String) -> String {
        """
        devices:
        - node: /dev/input/event5
          evdev:
            absinfo:
              47: [0, 9, 0, 0, 0]
              53: [0, 2000, 0, 0, 10]
              54: [0, 1000, 0, 0, 10]
          events:
          - evdev:

        """ + events
    }

    @Test("Hostile traces never crash the importers: mutated evtest and libinput record files read, or name their line")
    func fuzzImporters() async {
        let evtest = Array((Self.evtestHeader + [Self.slot("1.0", 0), Self.tracking("1.0", 5), Self.x("1.0", 10), Self.report("1.0"),
                                                 Self.x("1.1", 20), Self.report("1.1"), Self.tracking("1.2", -1), Self.report("1.2")]
            .joined(separator: "\n")).utf8)
        let yaml = Array(Self.libinputRecord("""
                - [  2, 100000,   3,  57,   312]
                - [  2, 100000,   3,  53,  1000]
                - [  2, 100000,   0,   0,     0]
            """).utf8)
        await propertyCheck(count: 500, input: Gen.bool, Gen.int(in: 0...10_000), Gen.int(in: 0...255), Gen.int(in: 0...3)) {
            useYAML, position, byte, mode in
            var mutated = useYAML ? yaml : evtest
            let at = position % mutated.count
            switch mode {
            case 0: mutated[at] = UInt8(byte)
            case 1: mutated.removeSubrange(at...)
            case 2: mutated.insert(contentsOf: Array(repeating: UInt8(byte), count: 30), at: at)
            default: mutated.remove(at: at)
            }
            let text = String(decoding: mutated, as: UTF8.self)
            let result: Result<[RecordingEntry], RecordingError>
            do throws(RecordingError) {
                result = .success(try readInputFile(text, width: 300, height: 200))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let entries):
                // Whatever reads is a stream the adapter can take: finite times and positions.
                let turns = entries.compactMap { if case .turn(let t) = $0 { t } else { nil } }
                let finite = turns.allSatisfy { $0.isFinite }
                #expect(finite)
            case .failure(let error):
                #expect(error.line >= 1)
            }
        }
    }

    /// `evtestHeader` with the position axes' maximum replaced: a panel that claims a range its
    /// events then leave.
    static func header(positionMaximum: Int) -> String {
        evtestHeader.replacing("Max     1000", with: "Max     \(positionMaximum)", maxReplacements: 1)
            .replacing("Max      500", with: "Max      \(positionMaximum)", maxReplacements: 1)
    }

    @Test("A value past its axis's range lands on the panel's edge: a square panel that says its maximum is 1, then sends 2^31 - 1, fitted inside a 200 x 100 window")
    func valuesClampedToTheAxis() throws {
        let events = [
            Self.slot("1.0", 0), Self.tracking("1.0", 1), Self.x("1.0", Int(Int32.max)), Self.y("1.0", Int(Int32.min)), Self.report("1.0"),
            Self.x("1.1", 1), Self.y("1.1", 1), Self.report("1.1"),
            Self.tracking("1.2", -1), Self.report("1.2"),
        ]
        let entries = try readInputFile(Self.header(positionMaximum: 1) + events.joined(separator: "\n") + "\n", width: 200, height: 100)
        // The square panel is 100 x 100 points, centred: from x 50 to 150.
        #expect(calls(entries) == ["d0 150,0", "f", "m0 150,100", "f", "u0", "f"])
    }

    @Test("A trace that uses more slots than a panel has is refused at the first slot past the limit, naming its line")
    func slotsBounded() {
        // Slot numbers the last allowed, then one past it.
        var events: [String] = []
        for slot in [0, Limit.traceSlots - 1, Limit.traceSlots] {
            events += [Self.slot("1.0", slot), Self.tracking("1.0", slot + 10), Self.x("1.0", 10), Self.report("1.0")]
        }
        let text = Self.evtestHeader + events.joined(separator: "\n") + "\n"
        let headerLines = Self.evtestHeader.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(throws: RecordingError(line: headerLines + 9, "slot \(Limit.traceSlots) is past the \(Limit.traceSlots) slots a trace may use")) {
            try readInputFile(text, width: 200, height: 100)
        }
        #expect(throws: RecordingError(line: headerLines + 1, "slot -1 is past the \(Limit.traceSlots) slots a trace may use")) {
            try readInputFile(Self.evtestHeader + Self.slot("1.0", -1) + "\n", width: 200, height: 100)
        }
        // The same in a libinput record trace.
        let yaml = Self.libinputRecord("""
                - [  2, 100000,   3,  47,  5000]
            """)
        #expect(throws: RecordingError(line: 10, "slot 5000 is past the \(Limit.traceSlots) slots a trace may use")) {
            try readInputFile(yaml, width: 200, height: 100)
        }
    }

    @Test("A trace's times are finite numbers: 'nan' or 'inf' in an evtest line is refused with its line")
    func timesFinite() {
        let text = Self.evtestHeader + Self.slot("nan", 0) + "\n"
        let headerLines = Self.evtestHeader.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect((try? readInputFile(text, width: 200, height: 100)) == nil)
        do throws(RecordingError) {
            _ = try readInputFile(text, width: 200, height: 100)
        } catch {
            #expect(error.line == headerLines + 1)
        }
    }

    @Test("A trace the replay cannot use says why, with its line")
    func unusableTraces() {
        func reason(_ text: String) -> String? {
            do throws(RecordingError) { _ = try readInputFile(text, width: 100, height: 100); return nil } catch { return error.description }
        }
        #expect(reason("just some text\n")?.hasPrefix("line 1: expected a TouchTracker recording or a touchscreen trace") == true)
        let mouse = "Input device name: \"Mouse\"\nEvent: time 1.0, type 2 (EV_REL), code 0 (REL_X), value 1\n"
        #expect(reason(mouse) == "line 2: expected multitouch positions (ABS_MT_POSITION_X and ABS_MT_POSITION_Y) from line 2 on, "
            + "and the trace has none: not a multitouch touchscreen's")
        let headerLines = Self.evtestHeader.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(reason(Self.evtestHeader + "Event: time 1.0, type three, code 1, value 2\n")
            == "line \(headerLines + 1): expected an evtest event such as 'Event: time 12.345678, type 3 (EV_ABS), code 53 "
            + "(ABS_MT_POSITION_X), value 1200', found 'Event: time 1.0, type three, code 1, value 2'")
    }
}

