// What users attach to bug reports, each variant by hand: excerpts without a header, evtest's
// separators, forum quoting, a libinput record cut to its comment header, protocol B without a
// described slot, protocol A with and without tracking ids, palms, a cut report, a touchpad, a
// portrait panel. Each is checked by what the user sees: the fingers, where they land, the
// message.
import Testing
import Limits
import TouchKit
@testable import InputReplay

@Suite("Touchscreen traces as users paste them")
struct TraceVariantTests {
    typealias T = DeviceTraceTests

    /// One finger down at (100, 50) device units, moved to (600, 250), lifted; evtest's lines.
    static let strokeEvents = [
        T.slot("1.0", 0), T.tracking("1.0", 3), T.x("1.0", 100), T.y("1.0", 50), T.report("1.0"),
        T.x("1.1", 600), T.y("1.1", 250), T.report("1.1"),
        T.tracking("1.2", -1), T.report("1.2"),
    ]

    static func read(_ text: String, width: Double = 200, height: Double = 100, ranges: [AxisRange]? = nil) throws -> InputReading {
        try readInput(text, options: TraceOptions(width: width, height: height, axisRanges: ranges))
    }

    static func refusal(_ text: String) -> String? {
        do throws(RecordingError) { _ = try readInput(text, options: TraceOptions(width: 200, height: 100)); return nil } catch { return error.description }
    }

    @Test("Event lines without their header: --axis-range places them as the full trace does; without it the largest positions seen do, with a warning")
    func excerptWithoutHeader() throws {
        let full = try Self.read(T.evtestHeader + Self.strokeEvents.joined(separator: "\n"))
        let excerpt = Self.strokeEvents.joined(separator: "\n")
        let ranged = try Self.read(excerpt, ranges: [AxisRange(minimum: 0, maximum: 1000), AxisRange(minimum: 0, maximum: 500)])
        #expect(ranged.entries == full.entries && ranged.warnings.isEmpty)
        let guessed = try Self.read(excerpt)
        #expect(guessed.warnings.count == 1)
        #expect(guessed.warnings.first?.contains("largest seen (x 0-600, y 0-250)") == true)
        #expect(guessed.warnings.first?.contains("--axis-range") == true)
        #expect(calls(guessed.entries).count == calls(full.entries).count)
    }

    @Test("An excerpt that starts in the middle of a touch: the finger already down lands where it is first seen, with a warning")
    func excerptStartsMidTouch() throws {
        let events = [T.slot("1.0", 1), T.x("1.0", 300), T.y("1.0", 100), T.report("1.0"),
                      T.x("1.1", 500), T.report("1.1"), T.tracking("1.2", -1), T.report("1.2"),
                      T.tracking("1.3", 40), T.x("1.3", 900), T.report("1.3"), T.tracking("1.4", -1), T.report("1.4")]
        let reading = try Self.read(T.evtestHeader + events.joined(separator: "\n"))
        #expect(calls(reading.entries) == ["d1 60,20", "f", "m1 100,20", "f", "u1", "f", "d1 180,20", "f", "u1", "f"])
        #expect(reading.warnings == ["the trace begins with 1 finger already down: each lands where it is first seen"])
    }

    @Test("A header cut before the multitouch axes: ABS_X and ABS_Y give the ranges, with a warning that says so")
    func headerCutPartway() throws {
        let header = """
            Input device name: "ELAN Touchscreen"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Value      0
                  Min        0
                  Max     1000
                Event code 1 (ABS_Y)
                  Value      0
                  Min        0
                  Max      500

            """
        let reading = try Self.read(header + Self.strokeEvents.joined(separator: "\n"))
        #expect(calls(reading.entries) == ["d0 20,10", "f", "m0 120,50", "f", "u0", "f"])
        #expect(reading.warnings == ["the trace describes no ABS_MT_POSITION_X/Y ranges: took those of ABS_X and ABS_Y"])
    }

    @Test("evtest's separators (EV_SYN of older versions, SYN_REPORT), indentation, tabs, CRLF and forum quoting read alike")
    func pastingKeepsTheTrace() throws {
        let plain = try Self.read(T.evtestHeader + Self.strokeEvents.joined(separator: "\n"))
        let oldSeparator = Self.strokeEvents.map { $0.replacing("SYN_REPORT", with: "EV_SYN") }
        let quoted = (T.evtestHeader.split(separator: "\n", omittingEmptySubsequences: false) + oldSeparator.map { Substring($0) })
            .map { "> \t  " + $0 + "\r" }.joined(separator: "\n")
        let reading = try Self.read("Here is what evtest said:\n\n" + quoted)
        #expect(reading.entries == plain.entries)
        #expect(calls(reading.entries) == ["d0 20,10", "f", "m0 120,50", "f", "u0", "f"])
    }

    @Test("A libinput record whose absinfo and codes were trimmed takes the ranges from its comment header")
    func libinputCommentHeader() throws {
        let events = """
                - [  2, 100000,   3,  57,   312]
                - [  2, 100000,   3,  53,  1000]
                - [  2, 100000,   3,  54,   500]
                - [  2, 100000,   0,   0,     0]
                - [  2, 116000,   3,  57,    -1]
                - [  2, 116000,   0,   0,     0]
            """
        let whole = try Self.read(T.libinputRecord(events), width: 400, height: 300)
        let trimmed = """
            devices:
            - node: /dev/input/event5
              evdev:
                # Name: Wacom HID 5256 Finger
                # Supported Events:
                # Event type 3 (EV_ABS)
                #   Event code 53 (ABS_MT_POSITION_X)
                #       Value           0
                #       Min             0
                #       Max          2000
                #   Event code 54 (ABS_MT_POSITION_Y)
                #       Value           0
                #       Min             0
                #       Max          1000
              events:
              - evdev:

            """ + events
        let reading = try Self.read(trimmed, width: 400, height: 300)
        #expect(reading.entries == whole.entries && reading.warnings.isEmpty)
        #expect(calls(reading.entries) == ["d0 200,150", "f", "u0", "f"])
    }

    @Test("Protocol B is recognised from the events when the header names no ABS_MT_SLOT: a tracking id alone is slot 0")
    func protocolBFromEvents() throws {
        let header = T.evtestHeader.replacing("Event code 47 (ABS_MT_SLOT)", with: "Event code 48 (ABS_MT_TOUCH_MAJOR)")
        let events = Self.strokeEvents.filter { !$0.contains("ABS_MT_SLOT") }
        let reading = try Self.read(header + events.joined(separator: "\n"))
        #expect(calls(reading.entries) == ["d0 20,10", "f", "m0 120,50", "f", "u0", "f"])
    }

    /// An evtest protocol-A trace of a 0...1000 x 0...500 panel: `reports`, each a list of
    /// contacts (x, y, tracking id or nil, tool type).
    static func protocolA(_ reports: [[(Int, Int, Int?, Int)]]) -> String {
        var lines: [String] = []
        for (i, contacts) in reports.enumerated() {
            let t = "\(2.0 + Double(i) * 0.02)"
            for (x, y, id, tool) in contacts {
                if let id { lines.append(T.tracking(t, id)) }
                lines += [T.x(t, x), T.y(t, y), T.absolute(t, 55, "ABS_MT_TOOL_TYPE", tool)]
                lines.append("Event: time \(t), ++++++++++++++ SYN_MT_REPORT ++++++++++++")
            }
            lines.append(T.report(t))
        }
        let header = T.evtestHeader.replacing("Event code 47 (ABS_MT_SLOT)", with: "Event code 48 (ABS_MT_TOUCH_MAJOR)")
        return header + lines.joined(separator: "\n") + "\n"
    }

    @Test("Protocol A without tracking ids: contacts listed in another order keep their fingers, the nearest pairs matched; a report without contacts lifts them all")
    func protocolAByDistance() throws {
        let reports: [[(Int, Int, Int?, Int)]] = [
            [(100, 100, nil, 0)],
            [(900, 400, nil, 0), (110, 100, nil, 0)],
            [(120, 100, nil, 0), (880, 400, nil, 0)],
            [],
        ]
        let expected = ["d0 20,20", "f", "m0 22,20", "d1 180,80", "f", "m0 24,20", "m1 176,80", "f", "u0", "u1", "f"]
        #expect(calls(try Self.read(Self.protocolA(reports)).entries) == expected)
    }

    @Test("A report of a position without SYN_MT_REPORT settles protocol B: a SYN_MT_REPORT after it cannot put the finger down twice (a fuzzer's find)")
    func positionBeforeProtocolA() throws {
        let header = T.evtestHeader.replacing("Event code 47 (ABS_MT_SLOT)", with: "Event code 48 (ABS_MT_TOUCH_MAJOR)")
        let mtReport = "Event: time 1.1, ++++++++++++++ SYN_MT_REPORT ++++++++++++"
        let events = [T.x("1.0", 100), T.y("1.0", 100), T.report("1.0"), T.x("1.1", 200), mtReport, T.report("1.1")]
        let reading = try Self.read(header + events.joined(separator: "\n"))
        #expect(calls(reading.entries) == ["d0 20,20", "f", "m0 40,20", "f"])
    }

    @Test("Protocol A with tracking ids: a contact keeps its finger by its id, wherever it is listed and however far it moves")
    func protocolAByID() throws {
        // The two cross: by distance they would swap, by id they do not.
        let crossing: [[(Int, Int, Int?, Int)]] = [[(100, 100, 5, 0), (900, 400, 6, 0)], [(880, 400, 5, 0), (120, 100, 6, 0)]]
        let entries = try Self.read(Self.protocolA(crossing + [[(880, 400, 5, 0)], []])).entries
        #expect(calls(entries) == ["d0 20,20", "d1 180,80", "f", "m0 176,80", "m1 24,20", "f", "u1", "f", "u0", "f"])
    }

    @Test("Palms: a contact that lands as a palm never draws; a finger that becomes a palm is cancelled as libinput cancels it; the summary counts them")
    func palms() throws {
        let reading = try Self.read(Self.protocolA([
            [(100, 100, 1, 0), (500, 250, 2, 2)],
            [(300, 100, 1, 0), (520, 250, 2, 2)],
            [(300, 100, 1, 2)],
            [(320, 100, 1, 2)],
            [],
            [(50, 50, 3, 0)],
            [(450, 50, 3, 0)],
            [],
        ]))
        #expect(calls(reading.entries) == ["d0 20,20", "f", "m0 60,20", "f", "c", "d0 10,10", "f", "m0 90,10", "f", "u0", "f"])
        #expect(reading.palms == 2)
        let summary = ReplaySummary(reading.entries, palms: reading.palms)
        #expect(summary.line(strokesDrawn: 1) == "replayed 2 contacts (1 cancelled, 2 palms ignored): 1 stroke drawn")
        // The cancelled finger's line is taken back; the one after the palm stays.
        let strokes = TraceReplaying.strokes(reading.entries, width: 200, height: 100)
        #expect(strokes.count == 1 && strokes.first?.points.first == Point(x: 10, y: 10))
    }

    @Test("A libinput record with libinput's own events: a contact it cancelled (TOUCH_CANCEL, its palm verdict) is cancelled in the replay too")
    func libinputPalmVerdict() throws {
        let reading = try Self.read(T.libinputRecord("""
                - [  2, 100000,   3,  57,   312]
                - [  2, 100000,   3,  53,  1000]
                - [  2, 100000,   3,  54,   500]
                - [  2, 100000,   0,   0,     0]
              - libinput:
                - {time: 2.100000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [ 50.00, 50.00], transformed: [ 50.00, 50.00]}
              - evdev:
                - [  2, 108000,   3,  53,  1400]
                - [  2, 108000,   0,   0,     0]
              - libinput:
                - {time: 2.108000, type: TOUCH_CANCEL, slot: 0, seat_slot: 0}
              - evdev:
                - [  2, 116000,   3,  53,  1800]
                - [  2, 116000,   0,   0,     0]
                - [  2, 124000,   3,  57,    -1]
                - [  2, 124000,   0,   0,     0]
                - [  2, 300000,   3,  57,   313]
                - [  2, 300000,   0,   0,     0]
                - [  2, 310000,   3,  57,    -1]
                - [  2, 310000,   0,   0,     0]
            """), width: 400, height: 300)
        #expect(calls(reading.entries) == ["d0 200,150", "f", "m0 280,150", "f", "c", "d0 360,150", "f", "u0", "f"])
        #expect(reading.palms == 1)
    }

    @Test("A trace cut in the middle of a report is replayed up to it, with a warning naming the line its unfinished events start on")
    func cutReport() throws {
        let lines = T.evtestHeader.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let cut = Array(Self.strokeEvents.prefix(7))
        let reading = try Self.read(T.evtestHeader + cut.joined(separator: "\n"))
        #expect(calls(reading.entries) == ["d0 20,10", "f"])
        #expect(reading.warnings == ["the trace ends in the middle of a report (its events from line \(lines + 6) have no SYN_REPORT): they were not replayed"])
    }

    @Test("A trace of taps says so: the summary counts them, and an empty picture is never silent")
    func tapsAreCounted() throws {
        let taps = [T.slot("1.0", 0), T.tracking("1.0", 1), T.x("1.0", 100), T.y("1.0", 100), T.report("1.0"),
                    T.tracking("1.05", -1), T.report("1.05"),
                    T.tracking("1.6", 2), T.report("1.6"), T.tracking("1.65", -1), T.report("1.65")]
        let reading = try Self.read(T.evtestHeader + taps.joined(separator: "\n"))
        let summary = ReplaySummary(reading.entries)
        #expect(summary.contacts == 2 && summary.taps == 2)
        #expect(summary.line(strokesDrawn: 0) == "replayed 2 contacts (2 taps): nothing drawn")
        #expect(ReplaySummary([]).line(strokesDrawn: 0) == "replayed 0 contacts: nothing drawn: no finger went down in it")
    }

    @Test("A touchpad's trace (INPUT_PROP_POINTER) replays with a warning that it is not a touchscreen")
    func touchpadWarning() throws {
        let header = T.evtestHeader.replacing("Property type 1 (INPUT_PROP_DIRECT)", with: "Property type 0 (INPUT_PROP_POINTER)")
        let reading = try Self.read(header + Self.strokeEvents.joined(separator: "\n"))
        #expect(reading.warnings.count == 1 && reading.warnings[0].hasPrefix("the device is a touchpad, not a touchscreen"))
        #expect(calls(reading.entries).count == 6)
    }

    @Test("A 720x1280 portrait panel keeps its shape in a 1024x768 window: 432 points wide, centred")
    func portraitPanel() throws {
        let header = T.evtestHeader.replacing("Max     1000", with: "Max      720").replacing("Max      500", with: "Max     1280")
        let corners = [T.slot("1.0", 0), T.tracking("1.0", 1), T.x("1.0", 0), T.y("1.0", 0), T.report("1.0"),
                       T.x("1.1", 720), T.y("1.1", 1280), T.report("1.1"), T.tracking("1.2", -1), T.report("1.2")]
        let reading = try Self.read(header + corners.joined(separator: "\n"), width: 1024, height: 768)
        #expect(calls(reading.entries) == ["d0 296,0", "f", "m0 728,768", "f", "u0", "f"])
    }

    @Test("Every refusal names the line and what was expected there")
    func refusalsNameTheLine() {
        #expect(Self.refusal("N: Panel\nA: 35 0 100 0 0 0\nA: 36 0 100 0 0 0\nE: 0.1 0003 0039\n")
            == "line 4: expected an evemu event such as 'E: 12.345678 0003 0035 1200' (type and code in hex), found 'E: 0.1 0003 0039'")
        #expect(Self.refusal("N: Panel\nA: 35 zero 100\n")
            == "line 2: expected an axis as 'A: <code hex> <min> <max> <fuzz> <flat> <resolution>', found 'A: 35 zero 100'")
        #expect(Self.refusal("N: Panel\nA: 35 0 100 0 0 0\n") == "line 2: expected evemu event lines, and the trace holds none")
        #expect(Self.refusal("devices:\n- node: x\n  events:\n  - evdev:\n    - [1, 2, 3]\n")
            == "line 5: expected an event as [sec, usec, type, code, value], found '- [1, 2, 3]'")
        let contacts = (0...Limit.traceSlots).map { (100 + $0, 100, Int?.none, 0) }
        #expect(Self.refusal(Self.protocolA([contacts]))?.hasSuffix("more than \(Limit.traceSlots) contacts in one report") == true)
    }
}
