// Event times of device traces: a replay schedules its turns by them, so each must be a time a
// device could have stamped, and the time between two events a finite number of seconds.
import Testing
@testable import InputReplay

@Suite("Touchscreen traces: event times")
struct TraceTimeTests {
    /// An evtest trace of one finger: down at `first` (its events from line 30), moved at `second`
    /// (from line 35), lifted at `third` (from line 37).
    static func evtest(first: String = "1.0", second: String, third: String = "1.2") -> String {
        let t = DeviceTraceTests.self
        return t.evtestHeader + [
            t.slot(first, 0), t.tracking(first, 5), t.x(first, 100), t.y(first, 50), t.report(first),
            t.x(second, 300), t.report(second),
            t.tracking(third, -1), t.report(third),
        ].joined(separator: "\n") + "\n"
    }

    @Test("An evtest time that is not a finite number of seconds, or so far out that the time between two events is not, names its line",
          arguments: [("1.0", "nan", 35), ("1.0", "inf", 35), ("1.0", "-inf", 35), ("1.0", "1e999", 35), ("-1e308", "1e308", 30)])
    func nonFiniteTimes(_ first: String, _ second: String, _ line: Int) {
        let result = Result { () throws(RecordingError) in
            try readInputFile(Self.evtest(first: first, second: second), width: 400, height: 300)
        }
        guard case .failure(let error) = result else {
            Issue.record("read: \(result)")
            return
        }
        #expect(error.line == line && error.reason.hasPrefix("expected an evtest event such as"), "\(error)")
    }

    @Test("Times that go back, as a trace's clock may, still read")
    func timesGoingBack() throws {
        let entries = try readInputFile(Self.evtest(second: "0.5", third: "2.0"), width: 400, height: 300)
        let turns = entries.compactMap { if case .turn(let t) = $0 { t } else { nil } }
        #expect(turns.count == 3 && turns.allSatisfy(\.isFinite))
    }
}
