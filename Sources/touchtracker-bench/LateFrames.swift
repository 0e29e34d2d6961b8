// Where a late frame's time went. The plugin knows when it injected a frame's input and when the
// compositor took the commit that answered it; the app's `--latency` log knows when the app read
// that input and when it committed. Both are on CLOCK_MONOTONIC, so a late frame's wait splits into
// before the app read it (the compositor had not sent it yet, or the app was busy with the frame
// before or not running), in the app, and after the app's commit (the compositor had not taken it).

/// Late frames counted by the part that took most of their wait.
struct LateFrames {
    var count = 0
    var beforeRead = 0, inApp = 0, afterCommit = 0
    /// Late frames with no app frame to match (no commit, or the log lacks the times).
    var unmatched = 0

    /// `records`: the plugin's (input, commit) times in ns; `appLog`: the app's `--latency` lines
    /// ("read at 69777967815, committed at 69777975746 µs"). A frame is late past `limit` µs.
    init(records: [(input: UInt64, commit: UInt64)], appLog: String, limit: UInt64 = 2_000) {
        var app: [(read: UInt64, commit: UInt64)] = []
        for line in appLog.split(separator: "\n") {
            guard let read = Self.number(in: line, after: "read at "),
                  let commit = Self.number(in: line, after: "committed at ") else { continue }
            app.append((read, commit))
        }
        app.sort { $0.commit < $1.commit }
        for record in records where record.commit == 0 || record.commit - record.input > limit * 1000 {
            count += 1
            let input = record.input / 1000, taken = record.commit / 1000
            // The app's frame whose commit the compositor took: the last one committed by then.
            guard record.commit > 0, let frame = Self.last(in: app, atOrBefore: taken), frame.commit >= input else {
                unmatched += 1
                continue
            }
            let before = frame.read > input ? frame.read - input : 0
            let inside = frame.commit - max(frame.read, input)
            let after = taken - frame.commit
            if before >= inside, before >= after {
                beforeRead += 1
            } else if inside >= after {
                inApp += 1
            } else {
                afterCommit += 1
            }
        }
    }

    private static func last(in frames: [(read: UInt64, commit: UInt64)], atOrBefore time: UInt64) -> (read: UInt64, commit: UInt64)? {
        var low = 0, high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].commit <= time { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? frames[low - 1] : nil
    }

    private static func number(in line: Substring, after key: String) -> UInt64? {
        guard let range = line.range(of: key) else { return nil }
        return UInt64(line[range.upperBound...].prefix { $0.isNumber })
    }

    var summary: String {
        "late frames \(count): most of the wait before the app read the input \(beforeRead), in the app \(inApp), after the app's commit \(afterCommit)"
            + (unmatched > 0 ? ", not matched \(unmatched)" : "")
    }
}
