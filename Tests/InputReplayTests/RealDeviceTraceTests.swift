// Traces of real touchscreens from the evemu-devices collection (MIT), kept as fuzz seeds in
// Tests/FuzzCorpus/evemu (its README says where each comes from and how it was trimmed). What
// each test expects is read from the trace itself: its reports, its contacts, its panel's size.
import Foundation
import Testing
import TouchKit
@testable import InputReplay

@Suite("Traces of real devices (evemu-devices)")
struct RealDeviceTraceTests {
    static let folder = String(#filePath.dropLast("InputReplayTests/RealDeviceTraceTests.swift".count)) + "FuzzCorpus/evemu/"

    static func trace(_ name: String) throws -> String { try String(contentsOfFile: folder + name, encoding: .utf8) }

    /// The `E:` lines of an evemu text as (type, code, value).
    static func events(_ text: String) -> [(type: Int, code: Int, value: Int)] {
        text.split(separator: "\n").compactMap { line in
            let w = line.split(separator: "#", omittingEmptySubsequences: false)[0].split { $0 == " " || $0 == "\t" }
            guard w.count == 5, w[0] == "E:", let t = Int(w[2], radix: 16), let c = Int(w[3], radix: 16), let v = Int(w[4]) else { return nil }
            return (t, c, v)
        }
    }

    static let options = TraceOptions(width: 1024, height: 768)

    @Test("N-Trig, protocol A without tracking ids: the fingers down follow the contacts of each report, as one file or as its description and events apart")
    func ntrigProtocolA() throws {
        let text = try Self.trace("valid-ntrig-protocol-a-two-fingers.evemu")
        let reading = try readInput(text, options: Self.options)
        // The same trace as the collection keeps it: the description and the events in two files.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let split = try #require(lines.firstIndex { $0.hasPrefix("E:") })
        let description = try EvemuTrace.description(lines[..<split].joined(separator: "\n"))
        let apart = try EvemuTrace.reading(lines[split...].joined(separator: "\n"), description: description, options: Self.options)
        #expect(apart.entries == reading.entries)

        // Contacts a report holds, from the trace: one per SYN_MT_REPORT before its SYN_REPORT.
        var perReport: [Int] = [], contacts = 0
        for e in Self.events(text) where e.type == 0 {
            if e.code == 2 { contacts += 1 }
            if e.code == 0 { perReport.append(contacts); contacts = 0 }
        }
        let changes = zip([0] + perReport, perReport).filter { $0 != $1 }.map(\.1)
        let landings = zip([0] + perReport, perReport).filter { $1 > $0 }.map { $1 - $0 }.reduce(0, +)
        var fingers = TraceReplaying.fingersAfterEachFrame(reading.entries)
        fingers = zip([0] + fingers, fingers).filter { $0 != $1 }.map(\.1)
        #expect(fingers == changes, "the fingers down should follow the contacts each report holds")
        #expect(ReplaySummary(reading.entries).contacts == landings)
        // The first finger is tracked through the second's landing and lifting: never lifted between.
        let strokes = TraceReplaying.strokes(reading.entries, tool: .freehand)
        #expect(strokes.count == landings)
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
    }

    @Test("Dell Canvas, square axis ranges with resolutions of a 16:9 panel: it keeps its proportions, fitted inside the window and centred")
    func dellCanvasProportions() throws {
        let text = try Self.trace("valid-dell-canvas-16x9-two-fingers.evemu")
        // The panel's size as the recording states it: "# Size in mm: 595x334".
        let size = try #require(text.split(separator: "\n").first { $0.hasPrefix("# Size in mm:") })
        let mm = size.dropFirst("# Size in mm: ".count).split(separator: "x").compactMap { Double($0) }
        let reading = try readInput(text, options: Self.options)
        let description = try EvemuTrace.description(text)
        let (x, y) = try #require(description.multitouchAxes)
        let placement = Placement(x: x, y: y, width: 1024, height: 768)
        let corner0 = placement.point(x.minimum, y.minimum), corner1 = placement.point(x.maximum, y.maximum)
        let box = (width: corner1.x - corner0.x, height: corner1.y - corner0.y)
        #expect(abs(box.width / box.height - mm[0] / mm[1]) < 0.01, "the picture of the panel is \(box), the panel \(mm) mm")
        #expect(abs(box.width - 1024) < 0.5 && abs(corner0.y - (768 - box.height) / 2) < 0.5, "fitted to the width, centred")
        // Every finger lands inside the panel's picture, where its units put it.
        let landings = TraceReplaying.landings(reading.entries)
        #expect(landings.count == Set(Self.events(text).filter { $0.code == 0x39 && $0.value >= 0 }.map(\.value)).count)
        for p in landings { #expect(p.y >= corner0.y && p.y <= corner1.y) }
        let first = try #require(Self.events(text).first { $0.code == 0x35 }?.value)
        #expect(abs((landings.first?.x ?? 0) - Double(first) / Double(x.maximum) * box.width) < 0.01)
    }

    @Test("EP0430M09, protocol B with evemu's comment header: each contact draws one stroke with the freehand tool, and every one lifts")
    func ep0430m09() throws {
        let text = try Self.trace("valid-ep0430m09-two-fingers.evemu")
        let reading = try readInput(text, options: Self.options)
        let ids = Set(Self.events(text).filter { $0.code == 0x39 && $0.value >= 0 }.map(\.value))
        let summary = ReplaySummary(reading.entries)
        #expect(summary.contacts == ids.count && summary.cancelled == 0)
        #expect(TraceReplaying.fingersAfterEachFrame(reading.entries).last == 0)
        #expect(TraceReplaying.strokes(reading.entries, tool: .freehand).count == ids.count)
        #expect(summary.line(strokesDrawn: ids.count).hasPrefix("replayed \(ids.count) contacts"))
    }

    @Test("A Synaptics touchpad's trace replays, with a warning that it is not a touchscreen")
    func touchpad() throws {
        let reading = try readInput(try Self.trace("valid-synaptics-touchpad.evemu"), options: Self.options)
        #expect(reading.warnings.contains { $0.hasPrefix("the device is a touchpad, not a touchscreen") })
        #expect(ReplaySummary(reading.entries).contacts > 0)
    }
}
