import Limits
import PropertyBased
import Testing
import TouchKit
@testable import InputReplay

@Suite("Recording format")
struct RecordingFormatTests {
    static let sample: [RecordingEntry] = [
        .window(width: 1024, height: 768, scale: 2, titleBar: true),
        .turn(12.5),
        .input(.beginBatch),
        .input(.down(.touch(3), Point(x: 120.25, y: 80.00390625), time: 12.499, kind: .direct, force: 0)),
        .input(.motion(TouchInput.ID(source: .tablet, number: 0), Point(x: 0.1, y: 1e-7), time: 12.5, force: 0.731)),
        .input(.motion(TouchInput.ID(source: .pointer, number: 0), Point(x: -3, y: 4), time: 12.5, force: nil)),
        .input(.frame),
        .input(.up(.touch(3), time: 12.6)),
        .input(.cancel(.touchscreen)),
        .input(.hover(TouchInput.ID(source: .pointer, number: 0), Point(x: 7.5, y: -2), time: 12.7)),
        .input(.hoverEnded(TouchInput.ID(source: .tablet, number: 2), time: 12.8)),
        .input(.scroll(Point(x: 0, y: 15), at: Point(x: 300.5, y: 200), time: 12.85, source: .wheel)),
        .input(.scroll(Point(x: -2.25, y: 0.5), at: Point(x: 1, y: 2), time: 12.86, source: .touchpad)),
        .input(.scrollEnded(time: 12.9)),
        .input(.pinchBegan(at: Point(x: 310.5, y: 20), time: 12.91)),
        .input(.pinchChanged(scale: 1.0625, translation: Point(x: -0.5, y: 3.25), time: 12.92)),
        .input(.pinchEnded(time: 12.93, cancelled: false)),
        .input(.pinchEnded(time: 12.94, cancelled: true)),
        .input(.zoom(1.1, at: Point(x: 5, y: 6), time: 12.95, source: .wheel)),
        .input(.zoom(0.8264462809917354, at: Point(x: 5, y: 6), time: 12.96, source: .touchpad)),
        .input(.attributes(TouchInput.ID(source: .tablet, number: 0),
                           Touch.Attributes(altitudeAngle: 0.7853981633974483, azimuthAngle: -2.5, zOffset: 0.25))),
        .input(.attributes(.touch(3), Touch.Attributes(majorRadius: 6.5))),
        .input(.attributes(.touch(4), Touch.Attributes())),
        .input(.endBatch),
        .timers(13.1),
        .key(keysym: 0xff1b, modifiers: 2, name: "Escape"),
        .menuChoice("deleteLine"),
        .menuDismissed,
        .setting(name: "pen-colour", value: "0.5 0 1 1"),
        .paste(.data([0, 0x7B, 0xFF, 0x0A])),
        .paste(.data([])),
        .paste(.tooLarge(maxBytes: 128 << 20)),
        .paste(.failed("the program holding the clipboard sent nothing for 5 s")),
    ]

    @Test("Every kind of entry reads back exactly, numbers bit for bit")
    func roundTrip() throws {
        let text = ([RecordingFormat.header] + Self.sample.map(RecordingFormat.line)).joined(separator: "\n") + "\n"
        #expect(try RecordingFormat.parse(text) == Self.sample)
    }

    @Test("Random coordinates, times and forces round-trip exactly")
    func randomNumbersRoundTrip() async {
        let number = Gen.double(in: -1e6...1e6)
        await propertyCheck(count: 300, input: number, number, number, number) { x, y, t, f in
            let entries: [RecordingEntry] = [.turn(t), .input(.down(.touch(1), Point(x: x, y: y), time: t, kind: .pencil, force: f)),
                                             .input(.motion(.touch(1), Point(x: y, y: x), time: t, force: f))]
            let text = ([RecordingFormat.header] + entries.map(RecordingFormat.line)).joined(separator: "\n")
            #expect((try? RecordingFormat.parse(text)) == entries)
        }
    }

    @Test("A wrong file gets one clear error naming its line")
    func errorsNameTheLine() throws {
        func error(_ text: String) -> RecordingError? {
            do throws(RecordingError) { _ = try RecordingFormat.parse(text); return nil } catch { return error }
        }
        #expect(error("") == RecordingError(line: 1, "empty file: not a TouchTracker input recording"))
        #expect(error("hello\n")?.line == 1)
        #expect(error("touchtracker-input 2\nframe\n")?.reason.contains("'2' is not one this version reads") == true)
        #expect(error("touchtracker-input 1\nframe\n\ndown touchscreen 1 nan 2 3 direct 0\n")?.line == 4)
        #expect(error("touchtracker-input 1\nmotion touchscreen 1 1 2\n")?.reason.contains("takes") == true)
        #expect(error("touchtracker-input 1\nup mouse 1 2\n")?.reason.contains("unknown input source") == true)
        #expect(error("touchtracker-input 1\nwindow 0 768 1 bare\n")?.reason.contains("out of range") == true)
        #expect(error("touchtracker-input 1\nfly away\n")?.reason == "unknown entry 'fly'")
        #expect(error("touchtracker-input 1\npaste data 7g\n")?.reason == "'paste data' takes hex digits")
        #expect(error("touchtracker-input 1\npaste data 7\n")?.reason == "'paste data' takes hex digits")
        #expect(error("touchtracker-input 1\npaste glue\n")?.reason.contains("'paste' takes") == true)
        #expect(error("touchtracker-input 1\npinch 0 1 2 3\n")?.reason == "scale '0' is not above 0")
        #expect(error("touchtracker-input 1\npinch -2 1 2 3\n")?.reason == "scale '-2' is not above 0")
        #expect(error("touchtracker-input 1\npinch-end 3 dropped\n")?.reason == "'dropped' should be 'cancelled' or nothing")
        #expect(error("touchtracker-input 1\npinch-begin 1 2\n")?.reason == "'pinch-begin' takes 3 values, not 2")
        #expect(error("touchtracker-input 1\nzoom 1.1 1 2 3 mouse\n")?.reason == "unknown zoom source 'mouse' (wheel, touchpad)")
        #expect(error("touchtracker-input 1\nzoom inf 1 2 3 wheel\n")?.reason == "factor 'inf' is not a finite number")
        // Comments, blank lines and CRLF are fine.
        #expect(try RecordingFormat.parse("# made by hand\r\ntouchtracker-input 1\r\n\r\nframe\r\n") == [.input(.frame)])
    }

    @Test("Coordinates past the limit are clamped to it as they are read: a finger at 1e300 is a finger at the edge of the plane")
    func coordinatesClamped() throws {
        let text = """
            touchtracker-input 1
            down touchscreen 1 -5e6 7 0.5 direct 0
            motion touchscreen 1 1e300 -1e300 0.6
            """
        #expect(try RecordingFormat.parse(text) == [
            .input(.down(.touch(1), Point(x: -Limit.coordinate, y: 7), time: 0.5, kind: .direct, force: 0)),
            .input(.motion(.touch(1), Point(x: Limit.coordinate, y: -Limit.coordinate), time: 0.6, force: nil)),
        ])
    }

    @Test("A window is refused by its total pixels and its longest side, at its scale, as the window's own buffers are bounded")
    func windowBounded() throws {
        func error(_ entry: String) -> String? {
            do throws(RecordingError) { _ = try RecordingFormat.parse("touchtracker-input 1\n" + entry); return nil } catch { return error.reason }
        }
        #expect(error("window 32767 32767 1 bare")
            == "window 32767x32767 at scale 1 is 1073676289 pixels; a window may have at most \(Limit.rasterPixels)")
        #expect(error("window 4096 4097 2 bare")?.contains("at most \(Limit.rasterPixels)") == true)
        #expect(error("window 20000 10 1 bare") == "window 20000x10 at scale 1 is 20000 pixels wide or high; at most \(Limit.rasterSide)")
        #expect(error("window 100 100 9 bare") == "scale 9.0 is out of range (above 0, at most \(Limit.outputScale))")
        // The largest a window may be.
        #expect(error("window 4096 4096 2 titlebar") == nil)
        #expect(error("window 16384 4096 1 bare") == nil)
    }

    @Test("A recording may hold Limit.touches touches down at once, as the compositor's input is bounded; one more is refused, naming its line")
    func touchesBounded() throws {
        func recording(downs: Int, liftingEach: Bool = false) -> String {
            var lines = [RecordingFormat.header]
            for i in 0..<downs {
                lines.append("down touchscreen \(i) 10 10 1 direct 0")
                if liftingEach { lines.append("up touchscreen \(i) 1") }
            }
            return lines.joined(separator: "\n")
        }
        #expect(try RecordingFormat.parse(recording(downs: Limit.touches)).count == Limit.touches)
        #expect(throws: RecordingError(line: Limit.touches + 2, "more than \(Limit.touches) touches down at once")) {
            try RecordingFormat.parse(recording(downs: Limit.touches + 1))
        }
        // Lifted, cancelled or put down again, a touch no longer counts twice.
        #expect(try RecordingFormat.parse(recording(downs: 1000, liftingEach: true)).count == 2000)
        let again = ([RecordingFormat.header] + (0..<(Limit.touches + 5)).map { _ in "down touchscreen 7 1 1 1 direct 0" }).joined(separator: "\n")
        #expect(throws: Never.self) { try RecordingFormat.parse(again) }
        let cancelled = recording(downs: Limit.touches) + "\ncancel touchscreen\n" + "down touchscreen 9999 1 1 1 direct 0"
        #expect(throws: Never.self) { try RecordingFormat.parse(cancelled) }
        // Sources count together.
        let mixed = recording(downs: Limit.touches) + "\ndown pointer 0 1 1 1 pointer 0"
        #expect(throws: RecordingError.self) { try RecordingFormat.parse(mixed) }
    }

    @Test("Hostile input never crashes the reader: it reads, or says which line is wrong")
    func fuzz() async {
        let valid = ([RecordingFormat.header] + Self.sample.map(RecordingFormat.line)).joined(separator: "\n")
        let bytes = Array(valid.utf8)
        await propertyCheck(count: 400, input: Gen.int(in: 0...(bytes.count - 1)), Gen.int(in: 0...255), Gen.int(in: 0...3)) {
            at, byte, mode in
            var mutated = bytes
            switch mode {
            case 0: mutated[at] = UInt8(byte)
            case 1: mutated.removeSubrange(at...)
            case 2: mutated.insert(contentsOf: Array(repeating: UInt8(byte), count: 50), at: at)
            default: mutated.remove(at: at)
            }
            let text = String(decoding: mutated, as: UTF8.self)
            do throws(RecordingError) {
                _ = try RecordingFormat.parse(text)
            } catch {
                #expect(error.line >= 1 && error.line <= text.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
            }
            // Device-trace readers too.
            _ = try? readInputFile(text, width: 100, height: 100)
            let options = TraceOptions(width: 100, height: 100)
            _ = try? EvtestTrace.reading(text, options: options)
            _ = try? LibinputRecordTrace.reading(text, options: options)
            _ = try? EvemuTrace.reading(text, options: options)
        }
    }
}
